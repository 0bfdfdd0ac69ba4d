/// A type that can be turned into a producer: a signal, a producer, a property, a `Result`.
///
/// Operators that take other streams (`flatten`, `combineLatest`, `withLatest(from:)`, …) accept
/// any convertible type, as in ReactiveSwift.
public protocol SignalProducerConvertible<Value, Error> {
    /// The type of values the producer sends.
    associatedtype Value
    /// The type of error the producer can fail with.
    associatedtype Error: Swift.Error

    /// The producer this value stands for.
    var producer: SignalProducer<Value, Error> { get }
}

extension SignalProducer: SignalProducerConvertible {
    /// The producer itself.
    public var producer: SignalProducer<Value, Error> { self }

    /// The producer that `convertible` stands for.
    ///
    /// - Parameter convertible: A signal, producer or property, as a producer.
    public init<Convertible: SignalProducerConvertible>(_ convertible: Convertible)
    where Convertible.Value == Value, Convertible.Error == Error {
        self = convertible.producer
    }
}

extension Signal: SignalProducerConvertible {}
