// logEvents(identifier:events:fileName:functionName:lineNumber:logger:)

/// The kinds of events `logEvents` can log.
public enum LoggingEvent {
    /// The events of a signal that can be logged.
    public enum Signal: String, CaseIterable, Sendable {
        /// A value (logged with the value), or the terminal event of that name (a failure is
        /// logged with its error).
        case value, completed, failed, interrupted
        /// Any terminal event, logged after the specific one.
        case terminated
        /// The end of the signal's lifetime.
        case disposed

        /// Every kind of signal event.
        public static let allEvents: Set<Signal> = Set(allCases)
    }

    /// The events of a producer's start that can be logged.
    public enum SignalProducer: String, CaseIterable, Sendable {
        /// Before and after the work of a start begins.
        case starting, started
        /// A value (logged with the value), or the terminal event of that name (a failure is
        /// logged with its error).
        case value, completed, failed, interrupted
        /// Any terminal event, logged after the specific one.
        case terminated
        /// The end of the start's lifetime.
        case disposed

        /// Every kind of producer event.
        public static let allEvents: Set<SignalProducer> = Set(allCases)
    }
}

/// A function that records one logged event: the stream's identifier, a description of the event
/// (its kind, followed by the value or error if it has one), and where `logEvents` was called.
public typealias EventLogger = (
    _ identifier: String,
    _ event: String,
    _ fileName: String,
    _ functionName: String,
    _ lineNumber: Int
) -> Void

/// The logger `logEvents` uses by default: prints one line per event to standard output.
public func defaultEventLog(identifier: String, event: String, fileName: String, functionName: String, lineNumber: Int) {
    print("[\(identifier)] \(event) fileName: \(fileName), functionName: \(functionName), lineNumber: \(lineNumber)")
}

/// Where and how `logEvents` records: everything except the event itself.
private struct EventLogSite {
    let identifier: String
    let fileName: String
    let functionName: String
    let lineNumber: Int
    let logger: EventLogger

    func record(_ description: String) {
        logger(identifier, description, fileName, functionName, lineNumber)
    }

    /// A callback logging `kind`, or `nil` when that kind is not logged.
    func callback(_ kind: String, if isLogged: Bool) -> (() -> Void)? {
        isLogged ? { record(kind) } : nil
    }

    /// A callback logging `kind` with its payload, or `nil` when that kind is not logged.
    func callback<T>(_ kind: String, if isLogged: Bool) -> ((T) -> Void)? {
        isLogged ? { record("\(kind) \($0)") } : nil
    }
}

extension Signal {
    /// A signal that logs the chosen kinds of this signal's events, then forwards them unchanged.
    ///
    /// By default every kind is logged and printed to standard output; pass `logger` to send the
    /// records elsewhere. The file, function and line default to the call site.
    public func logEvents(
        identifier: String = "",
        events: Set<LoggingEvent.Signal> = LoggingEvent.Signal.allEvents,
        fileName: String = #file,
        functionName: String = #function,
        lineNumber: Int = #line,
        logger: @escaping EventLogger = defaultEventLog
    ) -> Signal<Value, Error> {
        let site = EventLogSite(
            identifier: identifier, fileName: fileName, functionName: functionName,
            lineNumber: lineNumber, logger: logger
        )
        return on(
            failed: site.callback("failed", if: events.contains(.failed)),
            completed: site.callback("completed", if: events.contains(.completed)),
            interrupted: site.callback("interrupted", if: events.contains(.interrupted)),
            terminated: site.callback("terminated", if: events.contains(.terminated)),
            disposed: site.callback("disposed", if: events.contains(.disposed)),
            value: site.callback("value", if: events.contains(.value))
        )
    }
}

extension SignalProducer {
    /// A producer that logs the chosen kinds of events of each start, then forwards them unchanged.
    ///
    /// Besides the signal events, a start logs `starting` before its work starts and `started`
    /// after. By default every kind is logged and printed to standard output; pass `logger` to send
    /// the records elsewhere.
    public func logEvents(
        identifier: String = "",
        events: Set<LoggingEvent.SignalProducer> = LoggingEvent.SignalProducer.allEvents,
        fileName: String = #file,
        functionName: String = #function,
        lineNumber: Int = #line,
        logger: @escaping EventLogger = defaultEventLog
    ) -> SignalProducer<Value, Error> {
        let site = EventLogSite(
            identifier: identifier, fileName: fileName, functionName: functionName,
            lineNumber: lineNumber, logger: logger
        )
        return on(
            starting: site.callback("starting", if: events.contains(.starting)),
            started: site.callback("started", if: events.contains(.started)),
            failed: site.callback("failed", if: events.contains(.failed)),
            completed: site.callback("completed", if: events.contains(.completed)),
            interrupted: site.callback("interrupted", if: events.contains(.interrupted)),
            terminated: site.callback("terminated", if: events.contains(.terminated)),
            disposed: site.callback("disposed", if: events.contains(.disposed)),
            value: site.callback("value", if: events.contains(.value))
        )
    }
}
