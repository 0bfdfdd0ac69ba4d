/// A list that stores its first element inline and the others in an array, allocated only for a
/// second element; elements keep the order they were appended in.
///
/// Made for lists that usually hold one element (a flattening's running inner streams): one
/// element costs no array buffer, and reading it is a plain load. When the elements are appended
/// in increasing order of a key, the list is also sorted by that key, and `contains(key:by:)` and
/// `remove(key:by:)` find an element by binary search.
///
/// A signal's `ObserverList` is not built on this type: a field of a generic element type makes
/// the list's layout depend on its element, so the runtime must instantiate its metadata wherever
/// unspecialised code touches it, and a signal's storage is freed by unspecialised code (a
/// generic class's `deinit`), which then pays metadata look-ups for every produced signal
/// (Docs/Performance.md has the measurement). `ObserverList` is one untyped word instead.
@usableFromInline
struct InlineFirstArray<Element> {
    /// The first element; `nil` only when the list is empty.
    @usableFromInline var first: Element?
    /// The elements after the first, in order.
    @usableFromInline var rest: ContiguousArray<Element>

    @inlinable
    init() {
        first = nil
        rest = []
    }

    @inlinable
    var isEmpty: Bool { first == nil }

    @inlinable
    var count: Int { first == nil ? 0 : 1 + rest.count }

    @inlinable
    mutating func append(_ element: Element) {
        if first == nil {
            first = element
        } else {
            rest.append(element)
        }
    }

    /// Empties the list; `rest` keeps its capacity if `keepingCapacity`.
    @inlinable
    mutating func removeAll(keepingCapacity: Bool = false) {
        first = nil
        rest.removeAll(keepingCapacity: keepingCapacity)
    }

    /// The first element that satisfies `predicate` (a linear search).
    @inlinable
    func first(where predicate: (Element) -> Bool) -> Element? {
        guard let first else { return nil }
        if predicate(first) { return first }
        return rest.first(where: predicate)
    }

    /// Removes the first element that satisfies `predicate` (a linear search) and returns it; the
    /// next element moves inline when the first is removed.
    @inlinable
    mutating func remove(where predicate: (Element) -> Bool) -> Element? {
        guard let head = first else { return nil }
        if predicate(head) {
            first = rest.isEmpty ? nil : rest.removeFirst()
            return head
        }
        guard let index = rest.firstIndex(where: predicate) else { return nil }
        return rest.remove(at: index)
    }

    // MARK: Sorted by key: for a list appended in increasing order of `keyOf`

    /// Whether an element has the key `key` (a binary search).
    @inlinable
    func contains<Key: Comparable>(key: Key, by keyOf: (Element) -> Key) -> Bool {
        guard let first else { return false }
        if keyOf(first) == key { return true }
        return indexInRest(ofKey: key, by: keyOf) != nil
    }

    /// Removes the element whose key is `key` (a binary search) and returns it.
    @inlinable
    mutating func remove<Key: Comparable>(key: Key, by keyOf: (Element) -> Key) -> Element? {
        guard let head = first else { return nil }
        if keyOf(head) == key {
            first = rest.isEmpty ? nil : rest.removeFirst()
            return head
        }
        guard let index = indexInRest(ofKey: key, by: keyOf) else { return nil }
        return rest.remove(at: index)
    }

    /// The index in `rest` of the element whose key is `key` (a binary search).
    @inlinable
    func indexInRest<Key: Comparable>(ofKey key: Key, by keyOf: (Element) -> Key) -> Int? {
        var low = rest.startIndex
        var high = rest.endIndex
        while low < high {
            let middle = low + (high - low) / 2
            let found = keyOf(rest[middle])
            if found == key { return middle }
            if found < key { low = middle + 1 } else { high = middle }
        }
        return nil
    }

    /// Runs `body` for each element in order, without building an array.
    @inlinable
    func forEach(_ body: (Element) throws -> Void) rethrows {
        guard let first else { return }
        try body(first)
        try rest.forEach(body)
    }
}
