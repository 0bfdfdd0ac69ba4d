// The `flatten` and `flatMap` overloads of `Signal` and `SignalProducer`.
//
// Each overload exists once as a stage (`Signal.Event.flattening`, below, a `FlattenStage`); the
// public overloads of both types are one line each, the same line, handing that stage to
// `flatMapEvent` (O1). Only
// the declarations are written per type: their result types (`Signal<U, F>` or
// `SignalProducer<U, F>`) differ, and Swift cannot abstract over the type constructor.

// MARK: - The stages, one per kind of overload

extension Signal.Event {
    /// The stage of a flattening whose inner producers fail with this stream's error type (or
    /// neither can fail).
    @inlinable
    static func flattening<U>(
        _ strategy: FlattenStrategy,
        sameError makeInner: @escaping (Value) -> SignalProducer<U, Error>
    ) -> FlattenStage<Value, Error, U, Error> {
        FlattenStage(strategy, makeInner)
    }

    /// The stage of a flattening whose inner streams (signals, producers, properties, …) fail
    /// with this stream's error type (or neither can fail).
    @inlinable
    static func flattening<Inner: SignalProducerConvertible>(
        _ strategy: FlattenStrategy,
        sameError makeInner: @escaping (Value) -> Inner
    ) -> FlattenStage<Value, Error, Inner.Value, Error> where Inner.Error == Error {
        FlattenStage(strategy) { makeInner($0).producer }
    }

    /// The stage of a flattening whose inner producers cannot fail: each is typed as failing
    /// like this stream.
    @inlinable
    static func flattening<U>(
        _ strategy: FlattenStrategy,
        promotingInner makeInner: @escaping (Value) -> SignalProducer<U, Never>
    ) -> FlattenStage<Value, Error, U, Error> {
        FlattenStage(strategy) { makeInner($0).flattenPromoted() }
    }

    /// The stage of a flattening whose inner streams cannot fail: each is typed as failing like
    /// this stream.
    @inlinable
    static func flattening<Inner: SignalProducerConvertible>(
        _ strategy: FlattenStrategy,
        promotingInner makeInner: @escaping (Value) -> Inner
    ) -> FlattenStage<Value, Error, Inner.Value, Error> where Inner.Error == Never {
        FlattenStage(strategy) { makeInner($0).producer.flattenPromoted() }
    }
}

extension Signal.Event where Error == Never {
    /// The stage of a flattening of a stream that cannot fail: it fails like its inner producers.
    @inlinable
    static func flattening<U, F>(
        _ strategy: FlattenStrategy,
        promotingOuter makeInner: @escaping (Value) -> SignalProducer<U, F>
    ) -> FlattenStage<Value, Never, U, F> {
        FlattenStage(strategy, promote: flattenNever, makeInner)
    }

    /// The stage of a flattening of a stream that cannot fail: it fails like its inner streams.
    @inlinable
    static func flattening<Inner: SignalProducerConvertible>(
        _ strategy: FlattenStrategy,
        promotingOuter makeInner: @escaping (Value) -> Inner
    ) -> FlattenStage<Value, Never, Inner.Value, Inner.Error> {
        FlattenStage(strategy, promote: flattenNever) { makeInner($0).producer }
    }
}

// MARK: - flatten

extension Signal where Value: SignalProducerConvertible, Error == Value.Error {
    /// A signal of the values of the inner streams this signal sends, combined by `strategy`.
    ///
    /// A failure of this signal or of a running inner stream fails the result at once (E2).
    /// An interrupted inner stream is treated as completed, except under `.race` and `.throttle`
    /// (see `FlattenStrategy`).
    ///
    /// - Parameter strategy: How the inner streams run and how their values are forwarded:
    ///   `.merge`, `.concat`, `.latest`, … (see `FlattenStrategy`).
    /// - Returns: A signal of the inner streams' values; it fails as soon as this signal or a
    ///   running inner stream fails, is interrupted when this signal is, and otherwise ends as
    ///   `strategy` describes.
    @inlinable
    public func flatten(_ strategy: FlattenStrategy) -> Signal<Value.Value, Error> {
        flatMapEvent(Signal.Event.flattening(strategy, sameError: { $0 }))
    }
}

extension Signal where Value: SignalProducerConvertible, Error == Never {
    /// A signal of the values of the inner streams this signal sends, combined by `strategy`.
    ///
    /// A failure of a running inner stream fails the result at once (E2).
    ///
    /// - Parameter strategy: How the inner streams run and how their values are forwarded:
    ///   `.merge`, `.concat`, `.latest`, … (see `FlattenStrategy`).
    /// - Returns: A signal of the inner streams' values; it fails as soon as a running inner stream
    ///   fails, is interrupted when this signal is, and otherwise ends as `strategy` describes.
    @inlinable
    public func flatten(_ strategy: FlattenStrategy) -> Signal<Value.Value, Value.Error> {
        flatMapEvent(Signal.Event.flattening(strategy, promotingOuter: { $0 }))
    }
}

extension Signal where Value: SignalProducerConvertible, Error == Never, Value.Error == Never {
    /// A signal of the values of the inner streams this signal sends, combined by `strategy`.
    ///
    /// - Parameter strategy: How the inner streams run and how their values are forwarded:
    ///   `.merge`, `.concat`, `.latest`, … (see `FlattenStrategy`).
    /// - Returns: A signal of the inner streams' values; it is interrupted when this signal is, and
    ///   otherwise ends as `strategy` describes.
    @inlinable
    public func flatten(_ strategy: FlattenStrategy) -> Signal<Value.Value, Never> {
        flatMapEvent(Signal.Event.flattening(strategy, sameError: { $0 }))
    }
}

extension Signal where Value: SignalProducerConvertible, Value.Error == Never {
    /// A signal of the values of the inner streams this signal sends, combined by `strategy`.
    ///
    /// A failure of this signal fails the result at once (E2).
    ///
    /// - Parameter strategy: How the inner streams run and how their values are forwarded:
    ///   `.merge`, `.concat`, `.latest`, … (see `FlattenStrategy`).
    /// - Returns: A signal of the inner streams' values; it fails as soon as this signal fails, is
    ///   interrupted when this signal is, and otherwise ends as `strategy` describes.
    @inlinable
    public func flatten(_ strategy: FlattenStrategy) -> Signal<Value.Value, Error> {
        flatMapEvent(Signal.Event.flattening(strategy, promotingInner: { $0 }))
    }
}

extension SignalProducer where Value: SignalProducerConvertible, Error == Value.Error {
    /// A producer of the values of the inner streams this producer sends, combined by `strategy`.
    ///
    /// A failure of this producer or of a running inner stream fails the result at once (E2).
    /// An interrupted inner stream is treated as completed, except under `.race` and `.throttle`
    /// (see `FlattenStrategy`).
    ///
    /// - Parameter strategy: How the inner streams run and how their values are forwarded:
    ///   `.merge`, `.concat`, `.latest`, … (see `FlattenStrategy`).
    /// - Returns: A producer of the inner streams' values; it fails as soon as this producer or a
    ///   running inner stream fails, is interrupted when this producer is, and otherwise ends as
    ///   `strategy` describes.
    @inlinable
    public func flatten(_ strategy: FlattenStrategy) -> SignalProducer<Value.Value, Error> {
        flatMapEvent(Signal.Event.flattening(strategy, sameError: { $0 }))
    }
}

extension SignalProducer where Value: SignalProducerConvertible, Error == Never {
    /// A producer of the values of the inner streams this producer sends, combined by `strategy`.
    ///
    /// A failure of a running inner stream fails the result at once (E2).
    ///
    /// - Parameter strategy: How the inner streams run and how their values are forwarded:
    ///   `.merge`, `.concat`, `.latest`, … (see `FlattenStrategy`).
    /// - Returns: A producer of the inner streams' values; it fails as soon as a running inner
    ///   stream fails, is interrupted when this producer is, and otherwise ends as `strategy`
    ///   describes.
    @inlinable
    public func flatten(_ strategy: FlattenStrategy) -> SignalProducer<Value.Value, Value.Error> {
        flatMapEvent(Signal.Event.flattening(strategy, promotingOuter: { $0 }))
    }
}

extension SignalProducer where Value: SignalProducerConvertible, Error == Never, Value.Error == Never {
    /// A producer of the values of the inner streams this producer sends, combined by `strategy`.
    ///
    /// - Parameter strategy: How the inner streams run and how their values are forwarded:
    ///   `.merge`, `.concat`, `.latest`, … (see `FlattenStrategy`).
    /// - Returns: A producer of the inner streams' values; it is interrupted when this producer is,
    ///   and otherwise ends as `strategy` describes.
    @inlinable
    public func flatten(_ strategy: FlattenStrategy) -> SignalProducer<Value.Value, Never> {
        flatMapEvent(Signal.Event.flattening(strategy, sameError: { $0 }))
    }
}

extension SignalProducer where Value: SignalProducerConvertible, Value.Error == Never {
    /// A producer of the values of the inner streams this producer sends, combined by `strategy`.
    ///
    /// A failure of this producer fails the result at once (E2).
    ///
    /// - Parameter strategy: How the inner streams run and how their values are forwarded:
    ///   `.merge`, `.concat`, `.latest`, … (see `FlattenStrategy`).
    /// - Returns: A producer of the inner streams' values; it fails as soon as this producer fails,
    ///   is interrupted when this producer is, and otherwise ends as `strategy` describes.
    @inlinable
    public func flatten(_ strategy: FlattenStrategy) -> SignalProducer<Value.Value, Error> {
        flatMapEvent(Signal.Event.flattening(strategy, promotingInner: { $0 }))
    }
}

// MARK: - flatMap

extension Signal {
    /// Maps each value to a producer and flattens the producers by `strategy`.
    ///
    /// `transform` runs for every value, as it arrives, even if `strategy` then ignores or
    /// queues the producer. A failure of this signal or of a running inner producer fails the
    /// result at once (E2).
    ///
    /// - Parameters:
    ///   - strategy: How the inner streams run and how their values are forwarded (see
    ///     `FlattenStrategy`).
    ///   - transform: Makes the inner producer for a value; called once for each value, in order
    ///     and never concurrently, even if `strategy` then ignores or queues the producer it makes.
    /// - Returns: A signal of the inner producers' values; it fails as soon as this signal or a
    ///   running inner producer fails, is interrupted when this signal is, and otherwise ends as
    ///   `strategy` describes.
    @inlinable
    public func flatMap<U>(
        _ strategy: FlattenStrategy,
        _ transform: @escaping @Sendable (Value) -> SignalProducer<U, Error>
    ) -> Signal<U, Error> {
        flatMapEvent(Signal.Event.flattening(strategy, sameError: transform))
    }

    /// Maps each value to a stream (signal, producer, property, …) and flattens the streams by
    /// `strategy`; see `flatMap(_:_:)`.
    ///
    /// - Parameters:
    ///   - strategy: How the inner streams run and how their values are forwarded (see
    ///     `FlattenStrategy`).
    ///   - transform: Makes the inner stream for a value; called once for each value, in order and
    ///     never concurrently, even if `strategy` then ignores or queues the stream it makes.
    /// - Returns: A signal of the inner streams' values; it fails as soon as this signal or a
    ///   running inner stream fails, is interrupted when this signal is, and otherwise ends as
    ///   `strategy` describes.
    @inlinable
    public func flatMap<Inner: SignalProducerConvertible>(
        _ strategy: FlattenStrategy,
        _ transform: @escaping @Sendable (Value) -> Inner
    ) -> Signal<Inner.Value, Error> where Inner.Error == Error {
        flatMapEvent(Signal.Event.flattening(strategy, sameError: transform))
    }

    /// Maps each value to a producer that cannot fail and flattens the producers by `strategy`.
    ///
    /// - Parameters:
    ///   - strategy: How the inner streams run and how their values are forwarded (see
    ///     `FlattenStrategy`).
    ///   - transform: Makes the inner producer for a value; called once for each value, in order
    ///     and never concurrently, even if `strategy` then ignores or queues the producer it makes.
    /// - Returns: A signal of the inner producers' values; it fails as soon as this signal fails,
    ///   is interrupted when this signal is, and otherwise ends as `strategy` describes.
    @inlinable
    public func flatMap<U>(
        _ strategy: FlattenStrategy,
        _ transform: @escaping @Sendable (Value) -> SignalProducer<U, Never>
    ) -> Signal<U, Error> {
        flatMapEvent(Signal.Event.flattening(strategy, promotingInner: transform))
    }

    /// Maps each value to a stream that cannot fail and flattens the streams by `strategy`.
    ///
    /// - Parameters:
    ///   - strategy: How the inner streams run and how their values are forwarded (see
    ///     `FlattenStrategy`).
    ///   - transform: Makes the inner stream for a value; called once for each value, in order and
    ///     never concurrently, even if `strategy` then ignores or queues the stream it makes.
    /// - Returns: A signal of the inner streams' values; it fails as soon as this signal fails, is
    ///   interrupted when this signal is, and otherwise ends as `strategy` describes.
    @inlinable
    public func flatMap<Inner: SignalProducerConvertible>(
        _ strategy: FlattenStrategy,
        _ transform: @escaping @Sendable (Value) -> Inner
    ) -> Signal<Inner.Value, Error> where Inner.Error == Never {
        flatMapEvent(Signal.Event.flattening(strategy, promotingInner: transform))
    }
}

extension Signal where Error == Never {
    /// Maps each value to a producer and flattens the producers by `strategy`; the result fails
    /// when a running inner producer fails.
    ///
    /// - Parameters:
    ///   - strategy: How the inner streams run and how their values are forwarded (see
    ///     `FlattenStrategy`).
    ///   - transform: Makes the inner producer for a value; called once for each value, in order
    ///     and never concurrently, even if `strategy` then ignores or queues the producer it makes.
    /// - Returns: A signal of the inner producers' values; it fails as soon as a running inner
    ///   producer fails, is interrupted when this signal is, and otherwise ends as `strategy`
    ///   describes.
    @inlinable
    public func flatMap<U, F>(
        _ strategy: FlattenStrategy,
        _ transform: @escaping @Sendable (Value) -> SignalProducer<U, F>
    ) -> Signal<U, F> {
        flatMapEvent(Signal.Event.flattening(strategy, promotingOuter: transform))
    }

    /// Maps each value to a stream and flattens the streams by `strategy`; the result fails when
    /// a running inner stream fails.
    ///
    /// - Parameters:
    ///   - strategy: How the inner streams run and how their values are forwarded (see
    ///     `FlattenStrategy`).
    ///   - transform: Makes the inner stream for a value; called once for each value, in order and
    ///     never concurrently, even if `strategy` then ignores or queues the stream it makes.
    /// - Returns: A signal of the inner streams' values; it fails as soon as a running inner stream
    ///   fails, is interrupted when this signal is, and otherwise ends as `strategy` describes.
    @inlinable
    public func flatMap<Inner: SignalProducerConvertible>(
        _ strategy: FlattenStrategy,
        _ transform: @escaping @Sendable (Value) -> Inner
    ) -> Signal<Inner.Value, Inner.Error> {
        flatMapEvent(Signal.Event.flattening(strategy, promotingOuter: transform))
    }

    /// Maps each value to a producer that cannot fail and flattens the producers by `strategy`.
    ///
    /// - Parameters:
    ///   - strategy: How the inner streams run and how their values are forwarded (see
    ///     `FlattenStrategy`).
    ///   - transform: Makes the inner producer for a value; called once for each value, in order
    ///     and never concurrently, even if `strategy` then ignores or queues the producer it makes.
    /// - Returns: A signal of the inner producers' values; it is interrupted when this signal is,
    ///   and otherwise ends as `strategy` describes.
    @inlinable
    public func flatMap<U>(
        _ strategy: FlattenStrategy,
        _ transform: @escaping @Sendable (Value) -> SignalProducer<U, Never>
    ) -> Signal<U, Never> {
        flatMapEvent(Signal.Event.flattening(strategy, sameError: transform))
    }

    /// Maps each value to a stream that cannot fail and flattens the streams by `strategy`.
    ///
    /// - Parameters:
    ///   - strategy: How the inner streams run and how their values are forwarded (see
    ///     `FlattenStrategy`).
    ///   - transform: Makes the inner stream for a value; called once for each value, in order and
    ///     never concurrently, even if `strategy` then ignores or queues the stream it makes.
    /// - Returns: A signal of the inner streams' values; it is interrupted when this signal is, and
    ///   otherwise ends as `strategy` describes.
    @inlinable
    public func flatMap<Inner: SignalProducerConvertible>(
        _ strategy: FlattenStrategy,
        _ transform: @escaping @Sendable (Value) -> Inner
    ) -> Signal<Inner.Value, Never> where Inner.Error == Never {
        flatMapEvent(Signal.Event.flattening(strategy, sameError: transform))
    }
}

extension SignalProducer {
    /// Maps each value to a producer and flattens the producers by `strategy`.
    ///
    /// `transform` runs for every value, as it arrives, even if `strategy` then ignores or
    /// queues the producer. A failure of this producer or of a running inner producer fails the
    /// result at once (E2).
    ///
    /// - Parameters:
    ///   - strategy: How the inner streams run and how their values are forwarded (see
    ///     `FlattenStrategy`).
    ///   - transform: Makes the inner producer for a value; called once for each value, in order
    ///     and never concurrently, even if `strategy` then ignores or queues the producer it makes.
    /// - Returns: A producer of the inner producers' values; it fails as soon as this producer or a
    ///   running inner producer fails, is interrupted when this producer is, and otherwise ends as
    ///   `strategy` describes.
    @inlinable
    public func flatMap<U>(
        _ strategy: FlattenStrategy,
        _ transform: @escaping @Sendable (Value) -> SignalProducer<U, Error>
    ) -> SignalProducer<U, Error> {
        flatMapEvent(Signal.Event.flattening(strategy, sameError: transform))
    }

    /// Maps each value to a stream (signal, producer, property, …) and flattens the streams by
    /// `strategy`; see `flatMap(_:_:)`.
    ///
    /// - Parameters:
    ///   - strategy: How the inner streams run and how their values are forwarded (see
    ///     `FlattenStrategy`).
    ///   - transform: Makes the inner stream for a value; called once for each value, in order and
    ///     never concurrently, even if `strategy` then ignores or queues the stream it makes.
    /// - Returns: A producer of the inner streams' values; it fails as soon as this producer or a
    ///   running inner stream fails, is interrupted when this producer is, and otherwise ends as
    ///   `strategy` describes.
    @inlinable
    public func flatMap<Inner: SignalProducerConvertible>(
        _ strategy: FlattenStrategy,
        _ transform: @escaping @Sendable (Value) -> Inner
    ) -> SignalProducer<Inner.Value, Error> where Inner.Error == Error {
        flatMapEvent(Signal.Event.flattening(strategy, sameError: transform))
    }

    /// Maps each value to a producer that cannot fail and flattens the producers by `strategy`.
    ///
    /// - Parameters:
    ///   - strategy: How the inner streams run and how their values are forwarded (see
    ///     `FlattenStrategy`).
    ///   - transform: Makes the inner producer for a value; called once for each value, in order
    ///     and never concurrently, even if `strategy` then ignores or queues the producer it makes.
    /// - Returns: A producer of the inner producers' values; it fails as soon as this producer
    ///   fails, is interrupted when this producer is, and otherwise ends as `strategy` describes.
    @inlinable
    public func flatMap<U>(
        _ strategy: FlattenStrategy,
        _ transform: @escaping @Sendable (Value) -> SignalProducer<U, Never>
    ) -> SignalProducer<U, Error> {
        flatMapEvent(Signal.Event.flattening(strategy, promotingInner: transform))
    }

    /// Maps each value to a stream that cannot fail and flattens the streams by `strategy`.
    ///
    /// - Parameters:
    ///   - strategy: How the inner streams run and how their values are forwarded (see
    ///     `FlattenStrategy`).
    ///   - transform: Makes the inner stream for a value; called once for each value, in order and
    ///     never concurrently, even if `strategy` then ignores or queues the stream it makes.
    /// - Returns: A producer of the inner streams' values; it fails as soon as this producer fails,
    ///   is interrupted when this producer is, and otherwise ends as `strategy` describes.
    @inlinable
    public func flatMap<Inner: SignalProducerConvertible>(
        _ strategy: FlattenStrategy,
        _ transform: @escaping @Sendable (Value) -> Inner
    ) -> SignalProducer<Inner.Value, Error> where Inner.Error == Never {
        flatMapEvent(Signal.Event.flattening(strategy, promotingInner: transform))
    }
}

extension SignalProducer where Error == Never {
    /// Maps each value to a producer and flattens the producers by `strategy`; the result fails
    /// when a running inner producer fails.
    ///
    /// - Parameters:
    ///   - strategy: How the inner streams run and how their values are forwarded (see
    ///     `FlattenStrategy`).
    ///   - transform: Makes the inner producer for a value; called once for each value, in order
    ///     and never concurrently, even if `strategy` then ignores or queues the producer it makes.
    /// - Returns: A producer of the inner producers' values; it fails as soon as a running inner
    ///   producer fails, is interrupted when this producer is, and otherwise ends as `strategy`
    ///   describes.
    @inlinable
    public func flatMap<U, F>(
        _ strategy: FlattenStrategy,
        _ transform: @escaping @Sendable (Value) -> SignalProducer<U, F>
    ) -> SignalProducer<U, F> {
        flatMapEvent(Signal.Event.flattening(strategy, promotingOuter: transform))
    }

    /// Maps each value to a stream and flattens the streams by `strategy`; the result fails when
    /// a running inner stream fails.
    ///
    /// - Parameters:
    ///   - strategy: How the inner streams run and how their values are forwarded (see
    ///     `FlattenStrategy`).
    ///   - transform: Makes the inner stream for a value; called once for each value, in order and
    ///     never concurrently, even if `strategy` then ignores or queues the stream it makes.
    /// - Returns: A producer of the inner streams' values; it fails as soon as a running inner
    ///   stream fails, is interrupted when this producer is, and otherwise ends as `strategy`
    ///   describes.
    @inlinable
    public func flatMap<Inner: SignalProducerConvertible>(
        _ strategy: FlattenStrategy,
        _ transform: @escaping @Sendable (Value) -> Inner
    ) -> SignalProducer<Inner.Value, Inner.Error> {
        flatMapEvent(Signal.Event.flattening(strategy, promotingOuter: transform))
    }

    /// Maps each value to a producer that cannot fail and flattens the producers by `strategy`.
    ///
    /// - Parameters:
    ///   - strategy: How the inner streams run and how their values are forwarded (see
    ///     `FlattenStrategy`).
    ///   - transform: Makes the inner producer for a value; called once for each value, in order
    ///     and never concurrently, even if `strategy` then ignores or queues the producer it makes.
    /// - Returns: A producer of the inner producers' values; it is interrupted when this producer
    ///   is, and otherwise ends as `strategy` describes.
    @inlinable
    public func flatMap<U>(
        _ strategy: FlattenStrategy,
        _ transform: @escaping @Sendable (Value) -> SignalProducer<U, Never>
    ) -> SignalProducer<U, Never> {
        flatMapEvent(Signal.Event.flattening(strategy, sameError: transform))
    }

    /// Maps each value to a stream that cannot fail and flattens the streams by `strategy`.
    ///
    /// - Parameters:
    ///   - strategy: How the inner streams run and how their values are forwarded (see
    ///     `FlattenStrategy`).
    ///   - transform: Makes the inner stream for a value; called once for each value, in order and
    ///     never concurrently, even if `strategy` then ignores or queues the stream it makes.
    /// - Returns: A producer of the inner streams' values; it is interrupted when this producer is,
    ///   and otherwise ends as `strategy` describes.
    @inlinable
    public func flatMap<Inner: SignalProducerConvertible>(
        _ strategy: FlattenStrategy,
        _ transform: @escaping @Sendable (Value) -> Inner
    ) -> SignalProducer<Inner.Value, Never> where Inner.Error == Never {
        flatMapEvent(Signal.Event.flattening(strategy, sameError: transform))
    }
}
