/// A type that constrains generic code to producers: write `extension SignalProducerProtocol
/// where Value == Int { … }` to add API to every producer of `Int`, and reach the producer
/// through `producer`.
public protocol SignalProducerProtocol<Value, Error> {
    /// The type of values the producer sends.
    associatedtype Value
    /// The type of error the producer can fail with; `Never` if it cannot fail.
    associatedtype Error: Swift.Error

    /// The producer itself.
    var producer: SignalProducer<Value, Error> { get }
}

extension SignalProducer: SignalProducerProtocol {}
