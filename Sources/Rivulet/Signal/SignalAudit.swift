#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Lets the contract kit (RivuletContracts) see a misuse that a signal absorbs: an event sent
/// after the signal completed, failed or was interrupted (E1). The signal drops such an event, as
/// documented, so no observer can tell; an operator that sends one has a bug all the same. (An
/// interruption sent after the end is not reported: disposing of something that has ended is
/// harmless. Nor is a send into a signal disposed of silently, which nobody can observe.)
///
/// Auditing is off unless the kit installs an auditor on the current thread. A dropped event, and a
/// terminal event accepted or delivered, then cost one atomic load more; nothing else is slower.
///
/// The auditor is also told which thread's send ended each signal, so that the kit can tell a
/// sender's bug (an event sent after the same sender's terminal event, or after one that was sent
/// and returned before this send began) from a race an operator cannot avoid (a value from one
/// input losing to a terminal event from another input on another thread).
@usableFromInline
package enum SignalAudit {
    /// What an auditor is told, on the thread whose send it is about.
    @usableFromInline
    package enum Observation: Sendable {
        /// The signal (its storage's identity, as in `Signal.auditIdentity`) accepted a terminal
        /// event sent on this thread: `completed`, `failed(…)` or `interrupted`.
        case terminated(ObjectIdentifier)
        /// The signal delivered its terminal event on this thread and disposed of its resources:
        /// from then on, an operator torn down with it no longer hears its inputs.
        case terminalDelivered(ObjectIdentifier)
        /// The signal dropped `event` (`value(4)`, `failed(…)` or `completed`), sent on this
        /// thread, because it had already completed or failed, or had been interrupted.
        case droppedAfterTerminal(ObjectIdentifier, event: String, afterInterruption: Bool)
    }

    package typealias Report = @Sendable (Observation) -> Void

    /// How many auditors are installed on any thread: when none, nothing else is looked up.
    @usableFromInline static let installedCount = AtomicCounter()

    /// Runs `body` with `report` told, on this thread, of every terminal event a send accepted or
    /// a turn delivered, and of every event a send had dropped because the signal had ended.
    package static func withAuditor<Result>(_ report: @escaping Report, _ body: () throws -> Result) rethrows -> Result {
        let auditor = Unmanaged.passRetained(Auditor(report))
        let previous = pthread_getspecific(auditorKey)
        pthread_setspecific(auditorKey, auditor.toOpaque())
        installedCount.add(1, ordering: .relaxed)
        defer {
            installedCount.subtract(1, ordering: .relaxed)
            pthread_setspecific(auditorKey, previous)
            auditor.release()
        }
        return try body()
    }

    /// A signal dropped `event` because it had completed or failed, or had been interrupted.
    @usableFromInline
    static func eventDroppedAfterTerminal<Value, Error>(
        _ event: Signal<Value, Error>.Event, afterInterruption: Bool, by storage: AnyObject
    ) {
        guard installedCount.loadRelaxed() > 0 else { return }
        report(
            .droppedAfterTerminal(ObjectIdentifier(storage), event: event.auditDescription, afterInterruption: afterInterruption))
    }

    /// A signal accepted a terminal event sent on this thread. Inlined up to the check that an
    /// auditor is installed: every signal's end passes here.
    @inlinable
    static func terminalAccepted(by storage: AnyObject) {
        guard installedCount.loadRelaxed() > 0 else { return }
        report(.terminated(ObjectIdentifier(storage)))
    }

    /// A signal delivered its terminal event on this thread and disposed of its resources.
    @inlinable
    static func terminalDelivered(by storage: AnyObject) {
        guard installedCount.loadRelaxed() > 0 else { return }
        report(.terminalDelivered(ObjectIdentifier(storage)))
    }

    /// Tells this thread's auditor, if it has one.
    @usableFromInline
    static func report(_ observation: Observation) {
        guard let pointer = pthread_getspecific(auditorKey) else { return }
        Unmanaged<Auditor>.fromOpaque(pointer).takeUnretainedValue().report(observation)
    }

    private final class Auditor: Sendable {
        let report: Report

        init(_ report: @escaping Report) {
            self.report = report
        }
    }

    private static let auditorKey: pthread_key_t = {
        var key = pthread_key_t()
        let status = pthread_key_create(&key, nil)
        precondition(
            status == 0,
            "Rivulet: pthread_key_create failed with \(status) for the signal audit; the audit needs a thread-specific key (internal error)"
        )
        return key
    }()
}

extension Signal {
    /// The identity an auditor is told for this signal (see `SignalAudit`).
    package var auditIdentity: ObjectIdentifier { ObjectIdentifier(core.storage) }
}

extension Signal.Event {
    /// The event as audits and the contract kit's traces write it: `value(4)`, `failed(…)`,
    /// `completed`, `interrupted`.
    package var auditDescription: String {
        switch self {
        case let .value(value): "value(\(value))"
        case let .failed(error): "failed(\(error))"
        case .completed: "completed"
        case .interrupted: "interrupted"
        }
    }
}
