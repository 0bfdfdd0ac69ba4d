/// A list that stores its first element inline and the others in an array, allocated only for a
/// second element; elements keep the order they were appended in.
///
/// Made for lists that usually hold one element (a signal's observers, a flattening's running
/// inner streams): one element costs no array buffer, and reading it is a plain load. When the
/// elements are appended in increasing order of a key, the list is also sorted by that key and
/// `index(of:by:)` finds one by binary search.
///
/// The list does no memory management of its own beyond its fields: a list of `Unmanaged`
/// references (`ObserverList`) retains and releases them by hand.
@usableFromInline
struct InlineFirstArray<Element> {
    /// The first element; `nil` only when the list is empty.
    @usableFromInline var first: Element?
    /// The elements after the first, in order.
    @usableFromInline var rest: ContiguousArray<Element>

    /// Where an element sits: inline, or at an index of `rest`.
    @usableFromInline
    enum Position: Equatable {
        case first
        case rest(Int)
    }

    @inlinable
    init() {
        first = nil
        rest = []
    }

    @inlinable
    init(first: Element?, rest: ContiguousArray<Element> = []) {
        self.first = first
        self.rest = first == nil ? [] : rest
    }

    @inlinable
    var isEmpty: Bool { first == nil }

    @inlinable
    var count: Int { first == nil ? 0 : 1 + rest.count }

    /// The last element, `nil` when the list is empty.
    @inlinable
    var last: Element? { rest.last ?? first }

    @inlinable
    mutating func append(_ element: Element) {
        if first == nil {
            first = element
        } else {
            rest.append(element)
        }
    }

    /// Removes the element at `position` and returns it; the next element moves inline when the
    /// first is removed.
    @inlinable
    mutating func remove(at position: Position) -> Element {
        switch position {
        case .first:
            let head = first.unsafelyUnwrapped
            first = rest.isEmpty ? nil : rest.removeFirst()
            return head
        case let .rest(index):
            return rest.remove(at: index)
        }
    }

    /// Empties the list; `rest` keeps its capacity if `keepingCapacity`.
    @inlinable
    mutating func removeAll(keepingCapacity: Bool = false) {
        first = nil
        rest.removeAll(keepingCapacity: keepingCapacity)
    }

    /// The position of the first element that satisfies `predicate` (a linear search).
    @inlinable
    func position(where predicate: (Element) throws -> Bool) rethrows -> Position? {
        guard let first else { return nil }
        if try predicate(first) { return .first }
        return try rest.firstIndex(where: predicate).map(Position.rest)
    }

    /// The position of the element whose key is `key`, for a list appended in increasing key
    /// order (a binary search).
    @inlinable
    func position<Key: Comparable>(of key: Key, by keyOf: (Element) -> Key) -> Position? {
        guard let first else { return nil }
        if keyOf(first) == key { return .first }
        var low = rest.startIndex
        var high = rest.endIndex
        while low < high {
            let middle = low + (high - low) / 2
            let found = keyOf(rest[middle])
            if found == key { return .rest(middle) }
            if found < key { low = middle + 1 } else { high = middle }
        }
        return nil
    }

    /// The elements transformed by `transform`, in the same layout: one element needs no array.
    @inlinable
    func map<T>(_ transform: (Element) -> T) -> InlineFirstArray<T> {
        guard let first else { return InlineFirstArray<T>() }
        var mapped = InlineFirstArray<T>(first: transform(first))
        if !rest.isEmpty {
            mapped.rest.reserveCapacity(rest.count)
            for element in rest { mapped.rest.append(transform(element)) }
        }
        return mapped
    }

    /// Runs `body` for each element in order, without building an array.
    @inlinable
    func forEach(_ body: (Element) throws -> Void) rethrows {
        guard let first else { return }
        try body(first)
        try rest.forEach(body)
    }
}

extension InlineFirstArray: Sequence {
    /// Iterates the inline element, then `rest`.
    @usableFromInline
    struct Iterator: IteratorProtocol {
        @usableFromInline var first: Element?
        @usableFromInline var rest: IndexingIterator<ContiguousArray<Element>>

        @inlinable
        init(first: Element?, rest: IndexingIterator<ContiguousArray<Element>>) {
            self.first = first
            self.rest = rest
        }

        @inlinable
        mutating func next() -> Element? {
            if let element = first {
                first = nil
                return element
            }
            return rest.next()
        }
    }

    @inlinable
    func makeIterator() -> Iterator {
        Iterator(first: first, rest: rest.makeIterator())
    }

    @inlinable
    var underestimatedCount: Int { count }
}

extension InlineFirstArray: Equatable where Element: Equatable {}
