#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import Synchronization

/// Lets the contract kit (RivuletContracts) see a misuse that a signal absorbs: an event sent
/// after the signal completed or failed (E1). The signal drops such an event, as documented, so
/// no observer can tell; an operator that sends one has a bug all the same.
///
/// Auditing is off unless the kit installs an auditor on the current thread. A dropped event then
/// costs one atomic load more, and nothing else is ever slower. Events dropped after an
/// *interruption* are not reported: interruption comes from outside (disposal), so work racing
/// it is expected to send a little late.
@usableFromInline
package enum SignalAudit {
    /// What an auditor is told: which signal dropped the event (its storage's identity, as in
    /// `Signal.auditIdentity`), and the event, written as `value(4)`, `failed(…)` or `completed`.
    package typealias Report = @Sendable (_ signal: ObjectIdentifier, _ event: String) -> Void

    /// How many auditors are installed on any thread: when none, nothing else is looked up.
    @usableFromInline static let installedCount = Atomic<Int>(0)

    /// Runs `body` with `report` told of every event dropped after a completion or failure, by a
    /// send on this thread.
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

    /// A signal dropped `event` because it had completed or failed.
    @usableFromInline
    static func eventDroppedAfterTerminal<Value, Error>(_ event: Signal<Value, Error>.Event, by storage: AnyObject) {
        guard installedCount.load(ordering: .relaxed) > 0, let pointer = pthread_getspecific(auditorKey) else { return }
        let auditor = Unmanaged<Auditor>.fromOpaque(pointer).takeUnretainedValue()
        auditor.report(ObjectIdentifier(storage), event.auditDescription)
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
