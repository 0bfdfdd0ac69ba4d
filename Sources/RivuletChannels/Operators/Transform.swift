/// A box for a processor's state, made fresh for each activation (A6: deactivation resets it).
@usableFromInline
final class ProcessorState<State> {
    @usableFromInline var value: State

    @inlinable
    init(_ value: State) {
        self.value = value
    }
}

extension Channel {
    /// A channel of whatever `processor` returns for each of this channel's results.
    ///
    /// The processor sees every value and the end; it may drop a result, send several, or end the
    /// stream (`ChannelNext`). It is never called concurrently with itself.
    ///
    /// - Parameters:
    ///   - context: Where `processor` runs (activation values are processed synchronously).
    ///   - processor: Called with each result; returns what to send on.
    /// - Returns: The transformed channel.
    @inlinable
    public func transform<U>(
        context: Exec = .direct, _ processor: @escaping @Sendable (Result<Value, ChannelEnd>) -> ChannelNext<U>
    ) -> Channel<U> where Value: Sendable, U: Sendable {
        processed(context: context, stateless: processor)
    }

    /// Like `transform(context:_:)`, with a state that starts as `initialState` on each
    /// activation and is reset when the channel deactivates (A6).
    ///
    /// - Parameters:
    ///   - initialState: The state at the start of each activation.
    ///   - context: Where `processor` runs.
    ///   - processor: Called with the state and each result; returns what to send on.
    /// - Returns: The transformed channel.
    @inlinable
    public func transform<S, U>(
        initialState: S, context: Exec = .direct,
        _ processor: @escaping @Sendable (inout S, Result<Value, ChannelEnd>) -> ChannelNext<U>
    ) -> Channel<U> where Value: Sendable, S: Sendable, U: Sendable {
        processed(context: context) {
            let state = ProcessorState(initialState)
            return { processor(&state.value, $0) }
        }
    }

    /// A channel of `transform` applied to each value; a throw ends it with `.other(error)`.
    ///
    /// - Parameters:
    ///   - context: Where `transform` runs.
    ///   - transform: Turns a value into the new channel's value.
    /// - Returns: The mapped channel.
    @inlinable
    public func map<U>(
        context: Exec = .direct, _ transform: @escaping @Sendable (Value) throws -> U
    ) -> Channel<U> where Value: Sendable, U: Sendable {
        processed(
            context: context,
            stateless: { (result: Result<Value, ChannelEnd>) in
                switch result {
                case let .success(value):
                    do { return .value(try transform(value)) } catch { return .error(error) }
                case let .failure(end):
                    return .end(end)
                }
            })
    }

    /// Like `map(context:_:)`, with a state reset on each activation (A6).
    ///
    /// - Parameters:
    ///   - initialState: The state at the start of each activation.
    ///   - context: Where `transform` runs.
    ///   - transform: Turns the state and a value into the new channel's value.
    /// - Returns: The mapped channel.
    @inlinable
    public func map<S, U>(
        initialState: S, context: Exec = .direct, _ transform: @escaping @Sendable (inout S, Value) throws -> U
    ) -> Channel<U> where Value: Sendable, S: Sendable, U: Sendable {
        self.transform(initialState: initialState, context: context) { state, result in
            switch result {
            case let .success(value):
                do { return .value(try transform(&state, value)) } catch { return .error(error) }
            case let .failure(end):
                return .end(end)
            }
        }
    }

    /// A channel of the values that pass `isIncluded`; a throw ends it with `.other(error)`.
    ///
    /// - Parameters:
    ///   - context: Where `isIncluded` runs.
    ///   - isIncluded: Whether to keep a value.
    /// - Returns: The filtered channel.
    @inlinable
    public func filter(
        context: Exec = .direct, _ isIncluded: @escaping @Sendable (Value) throws -> Bool
    ) -> Channel<Value> where Value: Sendable {
        processed(
            context: context,
            stateless: { (result: Result<Value, ChannelEnd>) in
                switch result {
                case let .success(value):
                    do { return try isIncluded(value) ? .value(value) : .none } catch { return .error(error) }
                case let .failure(end):
                    return .end(end)
                }
            })
    }

    /// CwlSignal's spelling of `filter(context:_:)`.
    ///
    /// - Parameters:
    ///   - context: Where `matching` runs.
    ///   - matching: Whether to keep a value.
    /// - Returns: The filtered channel.
    @_disfavoredOverload
    @inlinable
    public func filter(
        context: Exec = .direct, matching: @escaping @Sendable (Value) throws -> Bool
    ) -> Channel<Value> where Value: Sendable {
        filter(context: context, matching)
    }

    /// A channel of the non-`nil` results of `transform`; a throw ends it with `.other(error)`.
    ///
    /// - Parameters:
    ///   - context: Where `transform` runs.
    ///   - transform: Turns a value into a new value, or `nil` to drop it.
    /// - Returns: The new channel.
    @inlinable
    public func compactMap<U>(
        context: Exec = .direct, _ transform: @escaping @Sendable (Value) throws -> U?
    ) -> Channel<U> where Value: Sendable, U: Sendable {
        processed(
            context: context,
            stateless: { (result: Result<Value, ChannelEnd>) in
                switch result {
                case let .success(value):
                    do { return try transform(value).map { .value($0) } ?? .none } catch { return .error(error) }
                case let .failure(end):
                    return .end(end)
                }
            })
    }

    /// Like `compactMap(context:_:)`, with a state reset on each activation (A6).
    ///
    /// - Parameters:
    ///   - initialState: The state at the start of each activation.
    ///   - context: Where `transform` runs.
    ///   - transform: Turns the state and a value into a new value, or `nil` to drop it.
    /// - Returns: The new channel.
    @inlinable
    public func compactMap<S, U>(
        initialState: S, context: Exec = .direct, _ transform: @escaping @Sendable (inout S, Value) throws -> U?
    ) -> Channel<U> where Value: Sendable, S: Sendable, U: Sendable {
        self.transform(initialState: initialState, context: context) { state, result in
            switch result {
            case let .success(value):
                do { return try transform(&state, value).map { .value($0) } ?? .none } catch { return .error(error) }
            case let .failure(end):
                return .end(end)
            }
        }
    }
}
