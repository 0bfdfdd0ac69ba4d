/// The state of `zip`: the values each source sent that are not yet paired, and which sources
/// completed.
///
/// The n-th combination holds the n-th value of every source: it is ready when the last of them
/// arrives. As in ReactiveSwift, the result completes as soon as a completed source has no
/// buffered value left (no further combination can be made), or when every source completed.
@usableFromInline
struct ZipStateMachine<Element>: CombiningStateMachine {
    /// What the stage must do after a transition (the shared vocabulary of combining stages).
    @usableFromInline typealias Action = CombiningAction

    /// The values of each source waiting for a partner, oldest first.
    @usableFromInline var buffers: ContiguousArray<FIFOQueue<Element>>
    /// How many values each buffer holds.
    @usableFromInline var bufferedCounts: ContiguousArray<Int>
    /// How many buffers are empty.
    @usableFromInline var emptyCount: Int
    @usableFromInline var completed: ContiguousArray<Bool>
    /// The combination announced by the last `emit` action, until `didEmit`.
    @usableFromInline var combination: ContiguousArray<Element>
    /// Whether the machine has finished: it then ignores every further input (E1).
    @usableFromInline private(set) var isTerminated = false

    @inlinable
    init(sourceCount: Int) {
        buffers = ContiguousArray(repeating: FIFOQueue(), count: sourceCount)
        bufferedCounts = ContiguousArray(repeating: 0, count: sourceCount)
        emptyCount = sourceCount
        completed = ContiguousArray(repeating: false, count: sourceCount)
        combination = []
        combination.reserveCapacity(sourceCount)
    }

    /// Whether some completed source has nothing left to pair.
    @usableFromInline var hasExhaustedSource: Bool {
        completed.indices.contains { completed[$0] && bufferedCounts[$0] == 0 }
    }

    @inlinable
    mutating func receiveValue(_ value: Element, from index: Int) -> Action {
        guard !isTerminated else { return .none }
        buffers[index].append(value)
        bufferedCounts[index] += 1
        if bufferedCounts[index] == 1 { emptyCount -= 1 }
        guard emptyCount == 0 else { return .none }

        for source in buffers.indices {
            combination.append(buffers[source].popFirst()!)
            bufferedCounts[source] -= 1
            if bufferedCounts[source] == 0 { emptyCount += 1 }
        }
        if hasExhaustedSource {
            isTerminated = true
            return .emitThenComplete
        }
        return .emit
    }

    @inlinable
    mutating func receiveCompletion(from index: Int) -> Action {
        guard !isTerminated else { return .none }
        completed[index] = true
        guard bufferedCounts[index] == 0 || !completed.contains(false) else { return .none }
        isTerminated = true
        releaseBuffers()
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
        releaseBuffers()
        return true
    }

    @inlinable
    func element(at position: Int) -> Element {
        combination[position]
    }

    @inlinable
    mutating func didEmit() {
        combination.removeAll(keepingCapacity: !isTerminated)
        if isTerminated { releaseBuffers() }
    }

    @inlinable mutating func releaseBuffers() {
        buffers.removeAll()
        bufferedCounts.removeAll()
        completed.removeAll()
    }
}
