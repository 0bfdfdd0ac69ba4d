import Dispatch

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Reports a thread that has waited a long time for another thread's delivery turn, the usual
/// sign of a deadlock.
///
/// A value sent to a signal (or written to a property) from a thread other than the one
/// delivering waits until that delivery is over (E5, E7). So an observer that blocks until
/// another thread sends to the same signal, or writes the same property, waits for a thread that
/// waits for it: a deadlock, as in ReactiveSwift. Once a sender has waited longer than
/// `waitThreshold`, Rivulet reports it, once per wait, naming the signal or property and the
/// thread that holds the turn, and then goes on waiting. Docs/Architecture.md shows the pattern
/// and the ways out.
///
/// Costs nothing on a send that does not wait; a waiting send measures its wait with a timeout.
public enum DeadlockDiagnostics {
    /// What one report says.
    public struct Report: Sendable, CustomStringConvertible {
        /// The signal or property whose turn the sender waits for, with the address of its
        /// state (`Signal<Int, Never> 0x…`), which tells two of the same type apart.
        public let resource: String
        /// The waiting thread: its name, or its identity if it has none.
        public let waitingThread: String
        /// The thread holding the turn when the report was made: its name, or its identity if it
        /// has none; `nil` if the turn was being handed from one thread to the next.
        public let owningThread: String?
        /// How long the sender had waited when the report was made: the owning thread has held
        /// the turn at least this long.
        public let waited: Duration

        /// One line that says all of the above.
        public var description: String {
            let owner = owningThread.map { "held by \($0)" } ?? "being handed to the next waiting thread"
            return
                "Rivulet: \(waitingThread) has waited \(waited) for the delivery turn of \(resource), \(owner); "
                + "if an observer on that thread waits for this one, that is a deadlock (see DeadlockDiagnostics)"
        }
    }

    private struct Settings: Sendable {
        var waitThreshold: Duration? = .seconds(5)
        var reportHandler: (@Sendable (Report) -> Void)?
    }

    private static let settings = Atomic(Settings())

    /// How long a sender waits for a turn before it is reported; `nil` turns reports off.
    /// Five seconds unless changed.
    ///
    /// - Precondition: A new value is greater than 0 (or `nil`).
    public static var waitThreshold: Duration? {
        get { settings.value.waitThreshold }
        set {
            if let newValue {
                precondition(
                    newValue > .zero,
                    "Rivulet: DeadlockDiagnostics.waitThreshold: waitThreshold is \(newValue); it must be greater than 0, or nil to turn reports off"
                )
            }
            settings.modify { $0.waitThreshold = newValue }
        }
    }

    /// Receives each report, on the waiting thread, with no lock held; `nil` (the default)
    /// writes the report's description to standard error.
    public static var reportHandler: (@Sendable (Report) -> Void)? {
        get { settings.value.reportHandler }
        set { settings.modify { $0.reportHandler = newValue } }
    }

    /// Waits for `turnstile`, reporting the wait once it has lasted `waitThreshold`.
    ///
    /// - Parameters:
    ///   - resource: Describes what the turn belongs to; called only to make a report.
    ///   - owner: The raw identity of the thread holding the turn (`ThreadID`), or a value that
    ///     is not a thread's (0, or a flag below 4) while the turn is handed over.
    @usableFromInline
    static func wait(on turnstile: DispatchSemaphore, for resource: () -> String, owner: () -> UInt) {
        guard let threshold = settings.value.waitThreshold else {
            turnstile.wait()
            return
        }
        // Capped at a day: a longer threshold is as good as none, and a day fits any clock.
        let nanoseconds = min(threshold / .nanoseconds(1), 86_400e9)
        let timeout = DispatchTime.now() + .nanoseconds(Int(nanoseconds))
        guard turnstile.wait(timeout: timeout) == .timedOut else { return }
        let ownerBits = owner()
        let report = Report(
            resource: resource(),
            waitingThread: describeThread(ThreadID.current.rawValue),
            owningThread: ownerBits < 4 ? nil : describeThread(ownerBits),
            waited: threshold)
        if let handler = settings.value.reportHandler {
            handler(report)
        } else {
            var line = report.description + "\n"
            line.withUTF8 { bytes in _ = write(2, bytes.baseAddress, bytes.count) }
        }
        turnstile.wait()
    }

    /// A thread's name if it has one, and its identity.
    static func describeThread(_ rawValue: UInt) -> String {
        let identity = "thread 0x\(String(rawValue, radix: 16))"
        guard let name = threadName(rawValue), !name.isEmpty else { return identity }
        return "\(identity) (\(name))"
    }

    #if canImport(Darwin)
    static func threadName(_ rawValue: UInt) -> String? {
        guard let thread = pthread_t(bitPattern: rawValue) else { return nil }
        var buffer = [CChar](repeating: 0, count: 64)
        guard pthread_getname_np(thread, &buffer, buffer.count) == 0 else { return nil }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
    #else
    /// glibc's `pthread_getname_np`, which its Swift module does not import (it needs
    /// `_GNU_SOURCE`); `nil` where the C library has none.
    private static let getThreadName: (@convention(c) (pthread_t, UnsafeMutablePointer<CChar>?, Int) -> Int32)? = {
        // RTLD_DEFAULT is the null handle.
        guard let symbol = dlsym(nil, "pthread_getname_np") else { return nil }
        return unsafeBitCast(symbol, to: (@convention(c) (pthread_t, UnsafeMutablePointer<CChar>?, Int) -> Int32).self)
    }()

    static func threadName(_ rawValue: UInt) -> String? {
        guard let getThreadName else { return nil }
        var buffer = [CChar](repeating: 0, count: 64)
        guard getThreadName(pthread_t(rawValue), &buffer, buffer.count) == 0 else { return nil }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
    #endif
}
