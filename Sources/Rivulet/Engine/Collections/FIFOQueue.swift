/// A first-in, first-out queue that keeps its capacity once grown, so a steady stream of
/// re-entrant sends allocates nothing after warm-up.
///
/// Popping moves the element out of its slot, so the queue never holds the last reference to a
/// delivered element: releases happen wherever the caller lets go, outside any lock.
@usableFromInline
package struct FIFOQueue<Element> {
    @usableFromInline package var slots: ContiguousArray<Element?> = []
    @usableFromInline package var head = 0

    @inlinable
    package init() {}

    @inlinable
    package var isEmpty: Bool { head == slots.count }

    /// How many elements are queued.
    @inlinable
    package var count: Int { slots.count - head }

    @inlinable
    package mutating func append(_ element: Element) {
        slots.append(element)
    }

    @inlinable
    package mutating func popFirst() -> Element? {
        guard head < slots.count else { return nil }
        let element = slots[head].take()
        head += 1
        if head == slots.count {
            // Every slot is empty now: reuse the storage from the start.
            slots.removeAll(keepingCapacity: true)
            head = 0
        }
        return element
    }

    /// Removes and returns every element, for the caller to release outside the lock.
    @inlinable
    package mutating func removeAll() -> ContiguousArray<Element?> {
        let taken = slots
        slots = []
        head = 0
        return taken
    }
}

extension FIFOQueue: Sendable where Element: Sendable {}
