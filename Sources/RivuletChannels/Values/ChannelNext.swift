/// What a channel processor hands to the next channel: nothing, one result, or several, in order.
///
/// A processor (`transform`, `combine`) returns one of these for each result it receives, so it
/// can drop a value, forward it, fan it out into several values, or end the stream.
public enum ChannelNext<Value> {
    /// Send nothing.
    case none
    /// Send one result.
    case single(Result<Value, ChannelEnd>)
    /// Send these results, in order.
    case array([Result<Value, ChannelEnd>])

    /// Sends `value`.
    ///
    /// - Parameter value: The value to send.
    /// - Returns: `.single(.success(value))`.
    public static func value(_ value: Value) -> ChannelNext {
        .single(.success(value))
    }

    /// Sends `value`, then ends the stream with `end`.
    ///
    /// - Parameters:
    ///   - value: The value to send.
    ///   - end: How the stream ends after it.
    /// - Returns: The value and the end, in that order.
    public static func value(_ value: Value, end: ChannelEnd) -> ChannelNext {
        .array([.success(value), .failure(end)])
    }

    /// Sends `values`, in order.
    ///
    /// - Parameter values: The values to send.
    /// - Returns: The values, in order.
    public static func values(_ values: Value...) -> ChannelNext {
        .array(values.map { .success($0) })
    }

    /// Sends `values`, in order, then ends the stream with `end`.
    ///
    /// - Parameters:
    ///   - values: The values to send.
    ///   - end: How the stream ends after them.
    /// - Returns: The values, then the end.
    public static func values(_ values: Value..., end: ChannelEnd) -> ChannelNext {
        .array(values.map { .success($0) } + [.failure(end)])
    }

    /// Sends the elements of `sequence`, in order.
    ///
    /// - Parameter sequence: The values to send, iterated once, now.
    /// - Returns: The values, in order.
    public static func values<S: Sequence>(sequence: S) -> ChannelNext where S.Element == Value {
        .array(sequence.map { .success($0) })
    }

    /// Ends the stream with `.other(error)`, or with `error` itself when it is a `ChannelEnd`.
    ///
    /// - Parameter error: Why the stream ends.
    /// - Returns: The end.
    public static func error(_ error: any Error) -> ChannelNext {
        .single(.failure(ChannelEnd(error)))
    }

    /// Ends the stream with `end`.
    ///
    /// - Parameter end: How the stream ends.
    /// - Returns: The end.
    public static func end(_ end: ChannelEnd) -> ChannelNext {
        .single(.failure(end))
    }

    /// Ends the stream with `.complete`.
    ///
    /// - Returns: The end `.complete`.
    public static func complete() -> ChannelNext {
        .single(.failure(.complete))
    }

    /// Sends `result`.
    ///
    /// - Parameter result: A value, or the end.
    /// - Returns: `.single(result)`.
    public static func result(_ result: Result<Value, ChannelEnd>) -> ChannelNext {
        .single(result)
    }
}

extension ChannelEnd {
    /// `error` itself when it is a `ChannelEnd`, else `.other(error)`.
    init(_ error: any Error) {
        self = (error as? ChannelEnd) ?? .other(error)
    }
}
