/// The state of `combineLatest`: the latest value of each source, and which sources are done.
///
/// A combination is ready once every source has sent a value; from then on every value makes a
/// new one. The result completes when every source has completed, even one that never sent a
/// value (as in ReactiveSwift).
@usableFromInline
struct CombineLatestStateMachine<Element>: CombiningStateMachine {
    /// What the stage must do after a transition (the shared vocabulary of combining stages).
    @usableFromInline typealias Action = CombiningAction

    /// The latest value of each source; `nil` until it sends one.
    @usableFromInline var latest: ContiguousArray<Element?>
    /// How many sources have not sent a value yet.
    @usableFromInline var silentCount: Int
    /// How many sources have not completed yet.
    @usableFromInline var activeCount: Int
    /// Whether the machine has finished: it then ignores every further input (E1).
    @usableFromInline private(set) var isTerminated = false

    @inlinable
    init(sourceCount: Int) {
        latest = ContiguousArray(repeating: nil, count: sourceCount)
        silentCount = sourceCount
        activeCount = sourceCount
    }

    @inlinable
    mutating func receiveValue(_ value: Element, from index: Int) -> Action {
        guard !isTerminated else { return .none }
        if case .none = latest[index] { silentCount -= 1 }
        latest[index] = value
        return silentCount == 0 ? .emit : .none
    }

    @inlinable
    mutating func receiveCompletion(from index: Int) -> Action {
        guard !isTerminated else { return .none }
        activeCount -= 1
        guard activeCount == 0 else { return .none }
        isTerminated = true
        latest.removeAll()
        return .complete
    }

    @inlinable
    mutating func receiveTermination(from _: Int) -> Action {
        terminate() ? .forwardTermination : .none
    }

    /// Marks the machine finished because a source failed or was interrupted, and releases the
    /// values it holds. Returns `false` if it had already finished (the event must be dropped).
    @inlinable
    mutating func terminate() -> Bool {
        guard !isTerminated else { return false }
        isTerminated = true
        latest.removeAll()
        return true
    }

    @inlinable
    func element(at position: Int) -> Element {
        latest[position]!
    }

    @inlinable
    mutating func didEmit() {}
}
