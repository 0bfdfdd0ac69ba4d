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
    public static func value(_ value: Value) -> ChannelNext {
        .single(.success(value))
    }

    /// Sends `value`, then ends the stream with `end`.
    public static func value(_ value: Value, end: ChannelEnd) -> ChannelNext {
        .array([.success(value), .failure(end)])
    }

    /// Sends `values`, in order.
    public static func values(_ values: Value...) -> ChannelNext {
        .array(values.map { .success($0) })
    }

    /// Sends `values`, in order, then ends the stream with `end`.
    public static func values(_ values: Value..., end: ChannelEnd) -> ChannelNext {
        .array(values.map { .success($0) } + [.failure(end)])
    }

    /// Sends the elements of `sequence`, in order.
    public static func values<S: Sequence>(sequence: S) -> ChannelNext where S.Element == Value {
        .array(sequence.map { .success($0) })
    }

    /// Ends the stream with `.other(error)`, or with `error` itself when it is a `ChannelEnd`.
    public static func error(_ error: any Error) -> ChannelNext {
        .single(.failure(ChannelEnd(error)))
    }

    /// Ends the stream with `end`.
    public static func end(_ end: ChannelEnd) -> ChannelNext {
        .single(.failure(end))
    }

    /// Ends the stream with `.complete`.
    public static func complete() -> ChannelNext {
        .single(.failure(.complete))
    }

    /// Sends `result`.
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
