/// How many values an `AsyncValues` iteration keeps while its task is busy with an earlier one.
///
/// A value that arrives while the task waits in `next()` goes to it at once, whatever the policy.
public struct AsyncValuesBufferingPolicy: Sendable, Hashable {
    @usableFromInline
    enum Kind: Sendable, Hashable {
        case unbounded
        case newest(Int)
        case oldest(Int)
    }

    @usableFromInline let kind: Kind

    @inlinable
    init(_ kind: Kind) {
        self.kind = kind
    }

    /// Keeps every value: none is lost, and memory grows while the task is slower than the stream.
    public static var unbounded: AsyncValuesBufferingPolicy { AsyncValuesBufferingPolicy(.unbounded) }

    /// Keeps the newest `limit` values, dropping the oldest to make room (`0`: keeps none).
    ///
    /// - Parameter limit: How many values the buffer holds; 0 or more.
    /// - Returns: The policy.
    /// - Precondition: `limit` is 0 or more.
    public static func bufferingNewest(_ limit: Int) -> AsyncValuesBufferingPolicy {
        precondition(limit >= 0, "Rivulet: AsyncValuesBufferingPolicy.bufferingNewest: limit is \(limit); it must be 0 or more")
        return AsyncValuesBufferingPolicy(.newest(limit))
    }

    /// Keeps the oldest `limit` values, dropping the values that arrive while it is full (`0`:
    /// keeps none).
    ///
    /// - Parameter limit: How many values the buffer holds; 0 or more.
    /// - Returns: The policy.
    /// - Precondition: `limit` is 0 or more.
    public static func bufferingOldest(_ limit: Int) -> AsyncValuesBufferingPolicy {
        precondition(limit >= 0, "Rivulet: AsyncValuesBufferingPolicy.bufferingOldest: limit is \(limit); it must be 0 or more")
        return AsyncValuesBufferingPolicy(.oldest(limit))
    }
}

/// The values of a signal, a producer or a property, as an `AsyncSequence` whose failure is the
/// stream's error (`for await` without `try` when it is `Never`).
///
/// Each iteration (each `makeAsyncIterator()`) observes the signal or starts the producer anew
/// (P2), from that moment. It ends when the stream completes or is interrupted, and throws the
/// stream's failure after the values before it. Cancelling the iterating task, or dropping the
/// iterator, disposes of the observation or the start (P4) and ends the iteration. Values wait in
/// a buffer while the task is busy, as `bufferingPolicy` allows.
@available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
public struct AsyncValues<Element: Sendable, Failure: Error>: AsyncSequence, Sendable {
    /// Starts one iteration: attaches `receive` to the stream and returns what ends it.
    @usableFromInline let subscribe:
        @Sendable (_ receive: @escaping @Sendable (Signal<Element, Failure>.Event) -> Void) -> Disposable?
    @usableFromInline let policy: AsyncValuesBufferingPolicy

    @inlinable
    init(
        policy: AsyncValuesBufferingPolicy,
        subscribe: @escaping @Sendable (_ receive: @escaping @Sendable (Signal<Element, Failure>.Event) -> Void) -> Disposable?
    ) {
        self.policy = policy
        self.subscribe = subscribe
    }

    /// Observes the signal, or starts the producer, for a new iteration.
    ///
    /// - Returns: An iterator with an observation or a start of its own, which releasing the
    ///   iterator stops.
    @inlinable
    public func makeAsyncIterator() -> Iterator {
        let storage = AsyncValuesStorage<Element, Failure>(policy: policy)
        storage.attach(subscribe { [storage] event in storage.receive(event) })
        return Iterator(owner: AsyncValuesIteration(storage))
    }

    /// One iteration's values. Serves one task at a time: calling `next()` while another call on
    /// the same iteration waits is a precondition failure.
    public struct Iterator: AsyncIteratorProtocol {
        @usableFromInline let owner: AsyncValuesIteration<Element, Failure>

        @inlinable
        init(owner: AsyncValuesIteration<Element, Failure>) {
            self.owner = owner
        }

        /// The next value, or `nil` once the stream has completed, been interrupted, or the task
        /// cancelled; throws the stream's failure after the values sent before it.
        ///
        /// - Returns: The next value, or `nil` at the end.
        @inlinable
        public mutating func next() async throws(Failure) -> Element? {
            try await owner.storage.next(isolation: nil).get()
        }

        /// The next value, awaited in `actor`'s isolation (what `for await` calls).
        ///
        /// - Parameter actor: The actor whose isolation the wait runs in, or `nil` for none.
        /// - Returns: The next value, or `nil` at the end.
        @inlinable
        public mutating func next(isolation actor: isolated (any Actor)?) async throws(Failure) -> Element? {
            try await owner.storage.next(isolation: actor).get()
        }
    }
}

/// Ends its iteration when the last copy of the iterator is gone: the stream's observer holds the
/// storage, never this, so no cycle keeps a dropped iteration observing.
@available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
@usableFromInline
final class AsyncValuesIteration<Element: Sendable, Failure: Error>: Sendable {
    @usableFromInline let storage: AsyncValuesStorage<Element, Failure>

    @inlinable
    init(_ storage: AsyncValuesStorage<Element, Failure>) {
        self.storage = storage
    }

    deinit {
        storage.cancel()
    }
}

@available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
extension Signal where Value: Sendable {
    /// The signal's values from now on, as an `AsyncSequence` that keeps every value; see
    /// `AsyncValues`.
    @inlinable
    public var values: AsyncValues<Value, Error> { values(bufferingPolicy: .unbounded) }

    /// The signal's values from each iteration's start on, buffered as `bufferingPolicy` allows.
    ///
    /// - Parameter bufferingPolicy: What happens to values that arrive while the iterating task is
    ///   busy.
    /// - Returns: An asynchronous sequence of the signal's values; it throws the signal's failure
    ///   and ends on completion or interruption.
    @inlinable
    public func values(bufferingPolicy: AsyncValuesBufferingPolicy) -> AsyncValues<Value, Error> {
        AsyncValues(policy: bufferingPolicy) { [self] receive in observe(receive) }
    }
}

@available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
extension SignalProducer where Value: Sendable {
    /// The values of a start made for each iteration, as an `AsyncSequence` that keeps every
    /// value; see `AsyncValues`.
    @inlinable
    public var values: AsyncValues<Value, Error> { values(bufferingPolicy: .unbounded) }

    /// The values of a start made for each iteration, buffered as `bufferingPolicy` allows.
    ///
    /// - Parameter bufferingPolicy: What happens to values that arrive while the iterating task is
    ///   busy.
    /// - Returns: An asynchronous sequence of the producer's values; it throws the start's failure
    ///   and ends on completion or interruption. Ending the iteration early interrupts the start.
    @inlinable
    public func values(bufferingPolicy: AsyncValuesBufferingPolicy) -> AsyncValues<Value, Error> {
        AsyncValues(policy: bufferingPolicy) { [self] receive in start(receive) }
    }
}

@available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
extension PropertyProtocol where Value: Sendable {
    /// The current value, then every change, as an `AsyncSequence` that keeps every value; see
    /// `AsyncValues`. It ends when the property is released.
    @inlinable
    public var values: AsyncValues<Value, Never> { producer.values }

    /// The current value, then every change, buffered as `bufferingPolicy` allows (with
    /// `.bufferingNewest(1)`, a slow task sees the latest value and skips the ones in between).
    ///
    /// - Parameter bufferingPolicy: What happens to values that arrive while the iterating task is
    ///   busy.
    /// - Returns: An asynchronous sequence of the property's values, which ends when the property
    ///   is released.
    @inlinable
    public func values(bufferingPolicy: AsyncValuesBufferingPolicy) -> AsyncValues<Value, Never> {
        producer.values(bufferingPolicy: bufferingPolicy)
    }
}
