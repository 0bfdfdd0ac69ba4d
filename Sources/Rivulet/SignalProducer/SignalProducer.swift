/// A cold stream: a recipe for a signal that does nothing until it is started (P1).
///
/// Every `start` runs the recipe again, independently of any other start (P2), and produces its
/// own signal. Disposing of what `start` returns interrupts that signal and ends the lifetime of
/// everything the start created (P4).
///
/// Operators applied to a producer are fused: starting `producer.map(f).filter(g)` builds one
/// chain of closures feeding one signal, with no intermediate signal per operator.
public struct SignalProducer<Value, Error: Swift.Error> {

    /// The signal that each start produces.
    public typealias ProducedSignal = Signal<Value, Error>

    /// Runs one instance: starts the work, sending its events into `downstream` serially,
    /// and stops the work when `lifetime` ends.
    @usableFromInline
    typealias Instance = (_ downstream: @escaping EventSink<Value, Error>, _ lifetime: Lifetime) -> Void

    @usableFromInline let startInstance: Instance

    /// The second parameter keeps this initialiser from competing with
    /// `SignalProducer { observer, lifetime in … }` for a trailing closure.
    @inlinable
    init(startInstance: @escaping Instance, _: Void) {
        self.startInstance = startInstance
    }

    /// A producer that runs `start` for each start.
    @inlinable
    static func fused(_ start: @escaping Instance) -> SignalProducer {
        SignalProducer(startInstance: start, ())
    }

    /// A producer that runs `startHandler` on each start, with an input observer for the
    /// produced signal and the lifetime of that start.
    ///
    /// The observer is serialized like a signal's input (E5, E6), so `startHandler` may send from
    /// any thread. The lifetime ends when the produced signal terminates or the start is disposed
    /// of; add to it whatever the work must cancel. Releasing the observer does not end the
    /// start, as in ReactiveSwift.
    ///
    /// - Parameter startHandler: The work of one start, called on the starting thread with the
    ///   start's input observer and lifetime; it may send at once or later, from any thread.
    @inlinable
    public init(_ startHandler: @escaping @Sendable (sending Signal<Value, Error>.Observer, Lifetime) -> Void) {
        self.init(handlingStarts: startHandler, ())
    }

    /// `init(_:)` for Rivulet's own producers, whose handlers need not be `@Sendable`: a producer
    /// is `Sendable`, and so started on several threads, only where `Value` is, and each of these
    /// handlers captures only values of the producer's own types.
    @inlinable
    init(handlingStarts startHandler: @escaping (sending Signal<Value, Error>.Observer, Lifetime) -> Void, _: Void) {
        self = .fused({ downstream, lifetime in
            // A signal core serializes the handler's sends before they reach the operator chain.
            let core = SignalCore<Value, Error>(resources: nil, interruptsWhenInputIsReleased: false)
            // The chain's sink itself, with no `Observer` around it; a new core accepts it.
            _ = core.attach(EventObserverAttachment(action: downstream, handle: nil))
            // Releasing the observer does not end the start (ReactiveSwift's rule): work that
            // keeps only its lifetime, such as a timer added to it, goes on until disposal.
            let input = Signal<Value, Error>.Observer(core: core)
            // When the start ends, nothing the handler still sends may reach the chain. Disposal
            // interrupts the chain here, at its top, through the core (serial with the handler's
            // sends), before any stage below sees the end of the lifetime (issue 16).
            let entry: @Sendable () -> Bool = {
                // A core that has ended sends nothing more down the chain.
                if core.hasTerminated { return false }
                if core.storage.isTurnHeld(by: ThreadID.current) {
                    // Disposed of from inside this core's own delivery: the interruption waits for
                    // the current event, and so does the rest of the lifetime (ReactiveSwift ends
                    // it after the interruption has reached the observers). The chain's output
                    // ends it when the interruption arrives there; this observer, attached only
                    // now, ends it in any case once the core has delivered the interruption.
                    lifetime.deferEnd()
                    core.observeUntilEnd(
                        Signal.Observer { event in if event.isTerminating { lifetime.endDeferred() } })
                }
                core.send(.interrupted)
                return true
            }
            if !lifetime.setInterruptionEntry(entry) { lifetime.observeEnded { core.send(.interrupted) } }
            startHandler(input, lifetime)
        })
    }

    /// A producer that, on each start, observes `signal`: it forwards the signal's events from the
    /// moment of the start, and disposing of the start stops observing it.
    ///
    /// Disposing of a start interrupts it at its source, as a start handler's does: every operator
    /// of the chain, `materialize()` and `on(interrupted:)` included, sees the interruption before
    /// the start's observer, as in ReactiveSwift.
    ///
    /// - Parameter signal: The signal each start observes; a start after the signal has ended is
    ///   interrupted at once.
    @inlinable
    public init(_ signal: Signal<Value, Error>) {
        // Through a start handler's core: the signal delivers on whichever thread sends, so only a
        // core of the start's own can put the interruption into the chain serially with those
        // deliveries.
        self.init(handlingStarts: { observer, lifetime in lifetime += signal.observe(observer) }, ())
    }

    /// A producer that sends `value` and completes.
    ///
    /// - Parameter value: The value each start sends.
    @inlinable
    public init(value: Value) {
        self = .sending(value)
    }

    /// What `init(value:)` makes; shared with the initialiser that infers `Error == Never`.
    @inlinable
    static func sending(_ value: Value) -> SignalProducer {
        .fused({ downstream, _ in
            downstream(.value(value))
            downstream(.completed)
        })
    }

    /// A producer that fails with `error`.
    ///
    /// - Parameter error: The error each start fails with.
    @inlinable
    public init(error: Error) {
        self = .fused({ downstream, _ in
            downstream(.failed(error))
        })
    }

    /// A producer that sends the result's value and completes, or fails with its error.
    ///
    /// - Parameter result: The value to send, or the error to fail with, on each start.
    @inlinable
    public init(result: Result<Value, Error>) {
        switch result {
        case let .success(value): self.init(value: value)
        case let .failure(error): self.init(error: error)
        }
    }

    /// Same as `init(result:)`, unlabelled, as ReactiveSwift spells it.
    ///
    /// - Parameter result: The value to send, or the error to fail with, on each start.
    @inlinable
    public init(_ result: Result<Value, Error>) {
        self.init(result: result)
    }

    /// A producer that sends the elements of `values` in order, then completes.
    ///
    /// The sequence is iterated afresh on each start; disposing of a start stops the iteration
    /// before the next element.
    ///
    /// - Parameter values: The elements to send, iterated afresh on each start.
    @inlinable
    public init<S: Sequence>(_ values: S) where S.Element == Value {
        self = .sendingEach(values)
    }

    /// What `init(_ values:)` makes; shared with the initialiser that infers `Error == Never`.
    @inlinable
    static func sendingEach<S: Sequence>(_ values: S) -> SignalProducer where S.Element == Value {
        .fused({ downstream, lifetime in
            for value in values {
                if lifetime.hasEnded { return }
                downstream(.value(value))
            }
            downstream(.completed)
        })
    }

    /// A producer that sends `first`, then `second`, then each of `tail`, then completes.
    ///
    /// - Parameters:
    ///   - first: The first value.
    ///   - second: The second value.
    ///   - tail: The values after those, in order.
    @inlinable
    public init(values first: Value, _ second: Value, _ tail: Value...) {
        self.init([first, second] + tail)
    }

    /// A producer that sends each of `values` in order, then completes.
    ///
    /// - Parameter values: The values to send, in order.
    @inlinable
    public init(values: [Value]) {
        self.init(values)
    }

    /// A producer that calls `action` on each start and sends its result, then completes.
    ///
    /// - Parameter action: Makes the value; called once per start, on the starting thread.
    @inlinable
    public init(_ action: @escaping @Sendable () -> Value) {
        self = .fused({ downstream, _ in
            downstream(.value(action()))
            downstream(.completed)
        })
    }

    /// A producer that calls `action` on each start, then sends its value and completes, or fails.
    ///
    /// - Parameter action: Makes the value or the error; called once per start, on the starting
    ///   thread.
    @inlinable
    public init(_ action: @escaping @Sendable () -> Result<Value, Error>) {
        self = .fused({ downstream, _ in
            switch action() {
            case let .success(value):
                downstream(.value(value))
                downstream(.completed)
            case let .failure(error):
                downstream(.failed(error))
            }
        })
    }

    /// A producer that completes at once, without sending any value.
    @inlinable
    public static var empty: SignalProducer {
        SignalProducer.fused({ downstream, _ in downstream(.completed) })
    }

    /// A producer that never sends any event; its starts end only when disposed of, and then
    /// the interruption goes down the whole chain, as from a start handler.
    @inlinable
    public static var never: SignalProducer {
        SignalProducer.fused({ downstream, lifetime in
            let entry = InterruptionSink(downstream)
            _ = lifetime.setInterruptionEntry {
                entry.sink(.interrupted)
                return true
            }
        })
    }
}

extension SignalProducer where Error == Swift.Error {
    /// A producer that calls `action` on each start and sends its result then completes, or fails
    /// with the error it throws.
    ///
    /// - Parameter action: Makes the value, or throws the error to fail with; called once per
    ///   start, on the starting thread.
    @inlinable
    public init(_ action: @escaping @Sendable () throws -> Value) {
        self = .fused({ downstream, _ in
            do {
                let value = try action()
                downstream(.value(value))
                downstream(.completed)
            } catch {
                downstream(.failed(error))
            }
        })
    }
}

// The initialisers that cannot fail, so that `SignalProducer(value: 1)` needs no error type (the
// error is inferred as `Never`, as in ReactiveSwift). A producer with an error type names it and
// gets the initialisers above.
extension SignalProducer where Error == Never {
    /// A producer that sends `value` and completes, and cannot fail.
    ///
    /// - Parameter value: The value each start sends.
    @inlinable
    public init(value: Value) {
        self = .sending(value)
    }

    /// A producer that sends the elements of `values` in order, then completes, and cannot fail.
    ///
    /// - Parameter values: The elements to send, iterated afresh on each start.
    @inlinable
    public init<S: Sequence>(_ values: S) where S.Element == Value {
        self = .sendingEach(values)
    }

    /// A producer that sends `first`, then `second`, then each of `tail`, then completes, and
    /// cannot fail.
    ///
    /// - Parameters:
    ///   - first: The first value.
    ///   - second: The second value.
    ///   - tail: The values after those, in order.
    @inlinable
    public init(values first: Value, _ second: Value, _ tail: Value...) {
        self = .sendingEach([first, second] + tail)
    }
}

extension Signal {
    /// A producer that observes this signal each time it is started.
    @inlinable
    public var producer: SignalProducer<Value, Error> {
        SignalProducer(self)
    }
}

extension Result {
    /// A producer that sends the value and completes, or fails with the error.
    @inlinable
    public var producer: SignalProducer<Success, Failure> {
        SignalProducer(result: self)
    }
}

// @unchecked Sendable: a producer is an immutable value holding one closure. That closure and every
// operator closure it captures run only inside `start`, on the starting thread, and every event
// reaches them serialized by the delivery turn of a signal core (its turn word and lock, in
// `SignalStorage`). Two starts are independent instances (P2); closures that share mutable state
// across concurrent starts must protect it themselves, as in ReactiveSwift. Only where the values
// are `Sendable`: otherwise the compiler keeps the instance, its values and its closures in one
// isolation region.
extension SignalProducer: @unchecked Sendable where Value: Sendable {}
