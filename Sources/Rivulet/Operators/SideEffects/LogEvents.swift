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
///
/// - Parameters:
///   - identifier: The identifier passed to `logEvents`.
///   - event: The event: its kind, followed by its value or error if it has one.
///   - fileName: The file `logEvents` was called from.
///   - functionName: The function `logEvents` was called from.
///   - lineNumber: The line `logEvents` was called from.
public func defaultEventLog(identifier: String, event: String, fileName: String, functionName: String, lineNumber: Int) {
    print("[\(identifier)] \(event) fileName: \(fileName), functionName: \(functionName), lineNumber: \(lineNumber)")
}

/// Where and how `logEvents` records, and which kinds of events.
private struct EventLogSite {
    let identifier: String
    let fileName: String
    let functionName: String
    let lineNumber: Int
    let logger: EventLogger
    /// The raw values of the logged kinds (the two `LoggingEvent` enums share their names).
    let kinds: Set<String>

    func record(_ description: String) {
        logger(identifier, description, fileName, functionName, lineNumber)
    }

    /// A callback logging `kind`, or `nil` when that kind is not logged.
    func callback(_ kind: String) -> (() -> Void)? {
        kinds.contains(kind) ? { record(kind) } : nil
    }

    /// A callback logging `kind` with its payload, or `nil` when that kind is not logged.
    func callback<T>(_ kind: String) -> ((T) -> Void)? {
        kinds.contains(kind) ? { record("\(kind) \($0)") } : nil
    }

    /// The `on(…)` callbacks that log the chosen signal events.
    func eventCallbacks<Value, Error>() -> OnEventCallbacks<Value, Error> {
        OnEventCallbacks(
            event: nil, failed: callback("failed"), completed: callback("completed"),
            interrupted: callback("interrupted"), terminated: callback("terminated"), value: callback("value")
        )
    }
}

extension Signal {
    /// A signal that logs the chosen kinds of this signal's events, then forwards them unchanged.
    ///
    /// By default every kind is logged and printed to standard output; pass `logger` to send the
    /// records elsewhere. The file, function and line default to the call site.
    ///
    /// - Parameters:
    ///   - identifier: A name included in every record, to tell streams apart.
    ///   - events: The kinds of events to log; every kind by default.
    ///   - fileName: The file included in every record; the call site's by default.
    ///   - functionName: The function included in every record; the call site's by default.
    ///   - lineNumber: The line included in every record; the call site's by default.
    ///   - logger: Records each logged event; called on the thread that sends the event (for
    ///     `disposed`, the thread that ends the signal's lifetime).
    /// - Returns: A signal of this signal's events, forwarded unchanged after they are logged, that
    ///   ends when this signal ends.
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
            lineNumber: lineNumber, logger: logger, kinds: Set(events.map(\.rawValue))
        )
        return flatMapEvent(Event.on(site.eventCallbacks(), disposed: site.callback("disposed")))
    }
}

extension SignalProducer {
    /// A producer that logs the chosen kinds of events of each start, then forwards them unchanged.
    ///
    /// Besides the signal events, a start logs `starting` before its work starts and `started`
    /// after. By default every kind is logged and printed to standard output; pass `logger` to send
    /// the records elsewhere.
    ///
    /// - Parameters:
    ///   - identifier: A name included in every record, to tell streams apart.
    ///   - events: The kinds of events to log; every kind by default.
    ///   - fileName: The file included in every record; the call site's by default.
    ///   - functionName: The function included in every record; the call site's by default.
    ///   - lineNumber: The line included in every record; the call site's by default.
    ///   - logger: Records each logged event; called on the thread that sends the event (for
    ///     `starting` and `started`, the thread that starts; for `disposed`, the thread that ends
    ///     the start's lifetime).
    /// - Returns: A producer whose starts forward this producer's events unchanged, after they are
    ///   logged.
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
            lineNumber: lineNumber, logger: logger, kinds: Set(events.map(\.rawValue))
        )
        return on(
            starting: site.callback("starting"), started: site.callback("started"),
            callbacks: site.eventCallbacks(), disposed: site.callback("disposed")
        )
    }
}
