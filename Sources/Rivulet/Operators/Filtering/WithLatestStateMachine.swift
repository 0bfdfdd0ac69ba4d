/// The state of `withLatest(from:)`: the latest value of the samplee (input 0, attached first),
/// and the source's value (input 1) that makes a pair with it.
///
/// Each source value that arrives once the samplee has sent a value makes a pair; earlier ones are
/// dropped. The result ends when the source ends; the samplee's terminal events are ignored (its
/// last value stays in use).
@usableFromInline
struct WithLatestStateMachine<Value, U>: CombiningStateMachine {
    /// What the stage must do after a transition (the shared vocabulary of combining stages).
    @usableFromInline typealias Action = CombiningAction

    /// The index of the samplee among the inputs.
    @usableFromInline static var sampleeIndex: Int { 0 }

    /// The latest value of the samplee, kept after it ends.
    @usableFromInline var latest: U?
    /// The source value of the pair an `emit` action announced, until `didEmit`.
    @usableFromInline var current: Value?
    /// Whether the machine has finished: it then ignores every further input (E1).
    @usableFromInline private(set) var isTerminated = false

    /// A machine for a samplee (input 0) and a source (input 1).
    @inlinable
    init(sourceCount _: Int) {}

    @inlinable
    mutating func receiveValue(_ value: PairElement<Value, U>, from _: Int) -> Action {
        guard !isTerminated else { return .none }
        switch value {
        case let .first(value):
            guard latest != nil else { return .none }
            current = value
            return .emit
        case let .second(sampleeValue):
            latest = sampleeValue
            return .none
        }
    }

    @inlinable
    mutating func receiveCompletion(from index: Int) -> Action {
        guard !isTerminated, index != Self.sampleeIndex else { return .none }
        finish()
        return .complete
    }

    @inlinable
    mutating func receiveTermination(from index: Int) -> Action {
        guard !isTerminated, index != Self.sampleeIndex else { return .none }
        finish()
        return .forwardTermination
    }

    @inlinable
    func element(at position: Int) -> PairElement<Value, U> {
        position == 0 ? .first(current!) : .second(latest!)
    }

    @inlinable
    mutating func didEmit() {
        current = nil
    }

    @inlinable
    mutating func finish() {
        isTerminated = true
        latest = nil
    }
}
