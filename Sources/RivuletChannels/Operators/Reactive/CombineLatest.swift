extension Channel {
    /// A channel of `processor` applied to the latest values of this channel and `second`: it
    /// sends once both have a value, then on every new value of either, and ends as soon as
    /// either ends (with that end). A throw ends it with `.other(error)`.
    ///
    /// - Parameters:
    ///   - second: The other channel.
    ///   - context: Where `processor` runs.
    ///   - processor: Combines the two latest values.
    /// - Returns: The combined channel.
    public func combineLatestWith<B, U>(
        _ second: Channel<B>, context: Exec = .direct, _ processor: @escaping @Sendable (Value, B) throws -> U
    ) -> Channel<U> where Value: Sendable, B: Sendable, U: Sendable {
        combine(second, initialState: (Value?.none, B?.none), context: context) { latest, either in
            switch either {
            case let .result1(.success(value)): latest.0 = value
            case let .result2(.success(value)): latest.1 = value
            case let .result1(.failure(end)), let .result2(.failure(end)): return .end(end)
            }
            guard let first = latest.0, let second = latest.1 else { return .none }
            do { return .value(try processor(first, second)) } catch { return .error(error) }
        }
    }

    /// `first.combineLatestWith(second, context:, processor)`, as a static function.
    ///
    /// - Parameters:
    ///   - first: The first channel.
    ///   - second: The second channel.
    ///   - context: Where `processor` runs.
    ///   - processor: Combines the two latest values.
    /// - Returns: The combined channel.
    public static func combineLatest<B, U>(
        _ first: Channel<Value>, _ second: Channel<B>, context: Exec = .direct,
        _ processor: @escaping @Sendable (Value, B) throws -> U
    ) -> Channel<U> where Value: Sendable, B: Sendable, U: Sendable {
        first.combineLatestWith(second, context: context, processor)
    }

    /// A channel of pairs of this channel's and `second`'s values, matched by position (the core's
    /// `zip`, through the producer bridge). It ends when a side has ended and its unmatched
    /// values are used up, or at once when a side fails.
    ///
    /// - Parameters:
    ///   - first: The first channel.
    ///   - second: The second channel.
    /// - Returns: The zipped channel.
    public static func zip<B>(
        _ first: Channel<Value>, _ second: Channel<B>
    ) -> Channel<(Value, B)> where Value: Sendable, B: Sendable {
        Channel<(Value, B)>(SignalProducer<Value, ChannelEnd>.zip(first.producer, second.producer))
    }

    /// A channel of every result of this channel as a value, the end included, followed by
    /// `.complete`.
    ///
    /// - Returns: The materialized channel.
    public func materialize() -> Channel<Result<Value, ChannelEnd>> where Value: Sendable {
        transform { result in
            switch result {
            case .success: return .value(result)
            case .failure: return .value(result, end: .complete)
            }
        }
    }
}

extension Channel where Value: Sendable {
    /// `producer`, except that `.cancelled` interrupts the start instead of failing it: for inner
    /// channels of the flattening operators, where an interrupted inner stream only drops out.
    var innerProducer: SignalProducer<Value, ChannelEnd> {
        producer.flatMapError { end -> SignalProducer<Value, ChannelEnd> in
            guard case .cancelled = end else { return SignalProducer(error: end) }
            return SignalProducer { observer, _ in observer.sendInterrupted() }
        }
    }

    /// A channel of the values of the latest channel this channel sent (the core's
    /// `flatten(.latest)` through the producer bridge): each new channel replaces the previous
    /// one, which is cancelled. It completes once this channel and the latest inner channel
    /// have completed; an inner channel that ends with `.cancelled` only drops out (E4: a
    /// flattening ignores an inner interruption); any other end ends it at once.
    ///
    /// - Returns: The switching channel.
    public func switchLatest<U>() -> Channel<U> where Value == Channel<U>, U: Sendable {
        Channel<U>(producer.flatMap(.latest) { $0.innerProducer })
    }

    /// A channel of the values of every channel `transform` makes, merged (the core's
    /// `flatMap(.merge)`).
    ///
    /// - Parameter transform: Makes a channel for each value.
    /// - Returns: The flattened channel.
    public func flatMap<U>(
        _ transform: @escaping @Sendable (Value) -> Channel<U>
    ) -> Channel<U> where Value: Sendable, U: Sendable {
        Channel<U>(producer.flatMap(.merge) { transform($0).innerProducer })
    }

    /// A channel of the values of the latest channel `transform` made (the core's
    /// `flatMap(.latest)`).
    ///
    /// - Parameter transform: Makes a channel for each value.
    /// - Returns: The flattened channel.
    public func flatMapLatest<U>(
        _ transform: @escaping @Sendable (Value) -> Channel<U>
    ) -> Channel<U> where Value: Sendable, U: Sendable {
        Channel<U>(producer.flatMap(.latest) { transform($0).innerProducer })
    }

    /// A channel of the values of each channel `transform` makes, one channel after another
    /// (the core's `flatMap(.concat)`).
    ///
    /// - Parameter transform: Makes a channel for each value.
    /// - Returns: The flattened channel.
    public func concatMap<U>(
        _ transform: @escaping @Sendable (Value) -> Channel<U>
    ) -> Channel<U> where Value: Sendable, U: Sendable {
        Channel<U>(producer.flatMap(.concat) { transform($0).innerProducer })
    }
}
