// Results from the channels of a `combine`, tagged by the channel they came from.

extension EitherResult2: Sendable where A: Sendable, B: Sendable {}
extension EitherResult3: Sendable where A: Sendable, B: Sendable, C: Sendable {}
extension EitherResult4: Sendable where A: Sendable, B: Sendable, C: Sendable, D: Sendable {}
extension EitherResult5: Sendable where A: Sendable, B: Sendable, C: Sendable, D: Sendable, E: Sendable {}

/// One result from one of the 2 channels of `combine`: `result1` from the receiver, `result2` from
/// the first argument.
public enum EitherResult2<A, B> {
    /// A result from channel 1.
    case result1(Result<A, ChannelEnd>)
    /// A result from channel 2.
    case result2(Result<B, ChannelEnd>)
}

/// One result from one of the 3 channels of `combine`: `result1` from the receiver, `result2` from
/// the first argument, and so on.
public enum EitherResult3<A, B, C> {
    /// A result from channel 1.
    case result1(Result<A, ChannelEnd>)
    /// A result from channel 2.
    case result2(Result<B, ChannelEnd>)
    /// A result from channel 3.
    case result3(Result<C, ChannelEnd>)
}

/// One result from one of the 4 channels of `combine`: `result1` from the receiver, `result2` from
/// the first argument, and so on.
public enum EitherResult4<A, B, C, D> {
    /// A result from channel 1.
    case result1(Result<A, ChannelEnd>)
    /// A result from channel 2.
    case result2(Result<B, ChannelEnd>)
    /// A result from channel 3.
    case result3(Result<C, ChannelEnd>)
    /// A result from channel 4.
    case result4(Result<D, ChannelEnd>)
}

/// One result from one of the 5 channels of `combine`: `result1` from the receiver, `result2` from
/// the first argument, and so on.
public enum EitherResult5<A, B, C, D, E> {
    /// A result from channel 1.
    case result1(Result<A, ChannelEnd>)
    /// A result from channel 2.
    case result2(Result<B, ChannelEnd>)
    /// A result from channel 3.
    case result3(Result<C, ChannelEnd>)
    /// A result from channel 4.
    case result4(Result<D, ChannelEnd>)
    /// A result from channel 5.
    case result5(Result<E, ChannelEnd>)
}
