/// The state of `sample(with:)`: the latest value of the source (input 0), and the sampler's
/// value (input 1) that makes a pair with it.
///
/// Each sampler value that arrives once the source has sent a value makes a pair; the latest
/// value can be sent many times. The result completes once both inputs have completed, and ends
/// at once when either fails or is interrupted.
@usableFromInline
struct SampleStateMachine<Value, T>: CombiningStateMachine {
    /// What the stage must do after a transition (the shared vocabulary of combining stages).
    @usableFromInline typealias Action = CombiningAction

    /// The latest value of the source, kept after it completes.
    @usableFromInline var latest: Value?
    /// The sampler value of the pair an `emit` action announced, until `didEmit`.
    @usableFromInline var sampled: T?
    @usableFromInline var isSourceCompleted = false
    @usableFromInline var isSamplerCompleted = false
    /// Whether the machine has finished: it then ignores every further input (E1).
    @usableFromInline private(set) var isTerminated = false

    /// A machine for a source (input 0) and a sampler (input 1).
    @inlinable
    init(sourceCount _: Int) {}

    @inlinable
    mutating func receiveValue(_ value: PairElement<Value, T>, from _: Int) -> Action {
        guard !isTerminated else { return .none }
        switch value {
        case let .first(value):
            latest = value
            return .none
        case let .second(samplerValue):
            guard latest != nil else { return .none }
            sampled = samplerValue
            return .emit
        }
    }

    @inlinable
    mutating func receiveCompletion(from index: Int) -> Action {
        guard !isTerminated else { return .none }
        if index == 0 { isSourceCompleted = true } else { isSamplerCompleted = true }
        guard isSourceCompleted && isSamplerCompleted else { return .none }
        finish()
        return .complete
    }

    @inlinable
    mutating func receiveTermination(from _: Int) -> Action {
        guard !isTerminated else { return .none }
        finish()
        return .forwardTermination
    }

    @inlinable
    func element(at position: Int) -> PairElement<Value, T> {
        position == 0 ? .first(latest!) : .second(sampled!)
    }

    @inlinable
    mutating func didEmit() {
        sampled = nil
    }

    @inlinable
    mutating func finish() {
        isTerminated = true
        latest = nil
    }
}
