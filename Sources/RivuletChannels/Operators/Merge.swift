extension Channel {
    /// A channel of the values of every source, in the order they arrive. It fails as soon as
    /// one source fails (an `.other` end); otherwise it ends when its last source ends, the way
    /// that source ended (`.complete`, or `.cancelled` if its input was released). With no
    /// source, it ends with `.complete` as soon as it is activated, as the core's
    /// `SignalProducer.merge` of no producer completes at once.
    ///
    /// - Parameter sources: The channels to merge.
    /// - Returns: The merged channel.
    public static func merge(_ sources: Channel<Value>...) -> Channel<Value> {
        guard !sources.isEmpty else {
            // With no source the merged input would wait for ever for a last source to end.
            return Channel(source: .of(ProducerSource(SignalProducer<Value, Never>.empty)))
        }
        return merge(sources: sources)
    }

    /// A channel of this channel's values and those of `sources` (see `merge(_:)`, static).
    ///
    /// - Parameter sources: The other channels to merge.
    /// - Returns: The merged channel.
    public func merge(_ sources: Channel<Value>...) -> Channel<Value> {
        Channel.merge(sources: [self] + sources)
    }

    static func merge(sources: [Channel<Value>]) -> Channel<Value> {
        let inputs = MultiInputSource<Value>(lastSourceRule: .endsLikeTheLastSource)
        for source in sources {
            inputs.add(source, propagation: .errors, removeOnDeactivate: false)
        }
        return Channel(source: .of(inputs))
    }

    /// Tags every result of this channel, its end included, as a value of a new channel that
    /// never ends by itself: `combine`'s processor sees each side's end as a value.
    func tagged<Tagged>(
        _ tag: @escaping @Sendable (Result<Value, ChannelEnd>) -> Tagged
    ) -> Channel<Tagged> where Value: Sendable, Tagged: Sendable {
        transform { .value(tag($0)) }
    }
}

extension Channel {
    static func combined<T>(_ sources: [Channel<T>]) -> Channel<T> {
        let inputs = MultiInputSource<T>(onLastInputClosed: nil)
        for source in sources {
            inputs.add(source, propagation: .none, removeOnDeactivate: false)
        }
        return Channel<T>(source: .of(inputs))
    }

    /// Runs `processor` on the results of this channel and `second`, tagged by side, one at a
    /// time; each side's end reaches the processor as a result, and the processor decides when
    /// the combined channel ends.
    ///
    /// - Parameters:
    ///   - second: The other channel.
    ///   - context: Where `processor` runs.
    ///   - processor: Called with each tagged result; returns what to send on.
    /// - Returns: The combined channel.
    public func combine<B, U>(
        _ second: Channel<B>, context: Exec = .direct,
        _ processor: @escaping @Sendable (EitherResult2<Value, B>) -> ChannelNext<U>
    ) -> Channel<U> where Value: Sendable, B: Sendable, U: Sendable {
        Channel.combined([tagged { EitherResult2<Value, B>.result1($0) }, second.tagged { .result2($0) }])
            .transform(context: context) { result in
                guard case let .success(either) = result else { return .none }
                return processor(either)
            }
    }

    /// Like `combine(_:context:_:)` with a state that starts as `initialState` on each activation.
    ///
    /// - Parameters:
    ///   - second: The other channel.
    ///   - initialState: The state at the start of each activation.
    ///   - context: Where `processor` runs.
    ///   - processor: Called with the state and each tagged result.
    /// - Returns: The combined channel.
    public func combine<S, B, U>(
        _ second: Channel<B>, initialState: S, context: Exec = .direct,
        _ processor: @escaping @Sendable (inout S, EitherResult2<Value, B>) -> ChannelNext<U>
    ) -> Channel<U> where Value: Sendable, S: Sendable, B: Sendable, U: Sendable {
        Channel.combined([tagged { EitherResult2<Value, B>.result1($0) }, second.tagged { .result2($0) }])
            .transform(initialState: initialState, context: context) { state, result in
                guard case let .success(either) = result else { return .none }
                return processor(&state, either)
            }
    }

    /// `combine` over three channels.
    ///
    /// - Parameters:
    ///   - second: The second channel.
    ///   - third: The third channel.
    ///   - context: Where `processor` runs.
    ///   - processor: Called with each tagged result.
    /// - Returns: The combined channel.
    public func combine<B, C, U>(
        _ second: Channel<B>, _ third: Channel<C>, context: Exec = .direct,
        _ processor: @escaping @Sendable (EitherResult3<Value, B, C>) -> ChannelNext<U>
    ) -> Channel<U> where Value: Sendable, B: Sendable, C: Sendable, U: Sendable {
        Channel.combined([
            tagged { EitherResult3<Value, B, C>.result1($0) }, second.tagged { .result2($0) },
            third.tagged { .result3($0) },
        ])
        .transform(context: context) { result in
            guard case let .success(either) = result else { return .none }
            return processor(either)
        }
    }

    /// `combine` over four channels.
    ///
    /// - Parameters:
    ///   - second: The second channel.
    ///   - third: The third channel.
    ///   - fourth: The fourth channel.
    ///   - context: Where `processor` runs.
    ///   - processor: Called with each tagged result.
    /// - Returns: The combined channel.
    public func combine<B, C, D, U>(
        _ second: Channel<B>, _ third: Channel<C>, _ fourth: Channel<D>, context: Exec = .direct,
        _ processor: @escaping @Sendable (EitherResult4<Value, B, C, D>) -> ChannelNext<U>
    ) -> Channel<U> where Value: Sendable, B: Sendable, C: Sendable, D: Sendable, U: Sendable {
        Channel.combined([
            tagged { EitherResult4<Value, B, C, D>.result1($0) }, second.tagged { .result2($0) },
            third.tagged { .result3($0) }, fourth.tagged { .result4($0) },
        ])
        .transform(context: context) { result in
            guard case let .success(either) = result else { return .none }
            return processor(either)
        }
    }

    /// `combine` over five channels.
    ///
    /// - Parameters:
    ///   - second: The second channel.
    ///   - third: The third channel.
    ///   - fourth: The fourth channel.
    ///   - fifth: The fifth channel.
    ///   - context: Where `processor` runs.
    ///   - processor: Called with each tagged result.
    /// - Returns: The combined channel.
    public func combine<B, C, D, E, U>(
        _ second: Channel<B>, _ third: Channel<C>, _ fourth: Channel<D>, _ fifth: Channel<E>,
        context: Exec = .direct,
        _ processor: @escaping @Sendable (EitherResult5<Value, B, C, D, E>) -> ChannelNext<U>
    ) -> Channel<U> where Value: Sendable, B: Sendable, C: Sendable, D: Sendable, E: Sendable, U: Sendable {
        Channel.combined([
            tagged { EitherResult5<Value, B, C, D, E>.result1($0) }, second.tagged { .result2($0) },
            third.tagged { .result3($0) }, fourth.tagged { .result4($0) }, fifth.tagged { .result5($0) },
        ])
        .transform(context: context) { result in
            guard case let .success(either) = result else { return .none }
            return processor(either)
        }
    }
}
