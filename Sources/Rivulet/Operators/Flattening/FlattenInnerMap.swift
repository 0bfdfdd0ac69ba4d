/// The running inner streams of a flattening, by ID, with a value for each.
///
/// Inner streams are numbered in the order they start, so the IDs arrive in increasing order and
/// the map is a sorted array: `contains` is a binary search, adding is an append. The first entry
/// is stored inline, so a flattening with one inner stream at a time (`.latest`, `.throttle`,
/// `.concat`) allocates nothing to track it, and hashes nothing: a `Set` or `Dictionary` of IDs
/// hashed every inner event (about 900 instructions per inner stream of five values).
@usableFromInline
struct FlattenInnerMap<Value> {
    @usableFromInline var first: (id: FlattenInnerID, value: Value)?
    /// The entries after the first, in increasing ID order.
    @usableFromInline var rest: ContiguousArray<(id: FlattenInnerID, value: Value)> = []

    @inlinable
    init() {}

    @inlinable
    var isEmpty: Bool { first == nil }

    @inlinable
    var count: Int { first == nil ? 0 : 1 + rest.count }

    @inlinable
    func contains(_ id: FlattenInnerID) -> Bool {
        guard let first else { return false }
        if first.id == id { return true }
        return indexInRest(of: id) != nil
    }

    /// Adds `id`, which must be larger than every ID in the map (a newer inner stream).
    @inlinable
    mutating func append(_ id: FlattenInnerID, _ value: Value) {
        guard let first else {
            self.first = (id, value)
            return
        }
        precondition(id > (rest.last?.id ?? first.id), "Rivulet: inner stream IDs must increase")
        rest.append((id, value))
    }

    /// Removes `id` and returns its value, or `nil` if it is not in the map.
    @inlinable
    @discardableResult
    mutating func remove(_ id: FlattenInnerID) -> Value? {
        guard let head = first else { return nil }
        if head.id == id {
            first = rest.isEmpty ? nil : rest.removeFirst()
            return head.value
        }
        guard let index = indexInRest(of: id) else { return nil }
        return rest.remove(at: index).value
    }

    /// Empties the map, keeping its capacity.
    @inlinable
    mutating func removeAll() {
        first = nil
        rest.removeAll(keepingCapacity: true)
    }

    /// The IDs, in increasing order.
    @inlinable
    var ids: FlattenInnerIDList {
        guard let first else { return FlattenInnerIDList() }
        return FlattenInnerIDList(first: first.id, rest: rest.isEmpty ? [] : rest.map(\.id))
    }

    @inlinable
    func indexInRest(of id: FlattenInnerID) -> Int? {
        var low = rest.startIndex
        var high = rest.endIndex
        while low < high {
            let middle = low + (high - low) / 2
            let found = rest[middle].id
            if found == id { return middle }
            if found < id { low = middle + 1 } else { high = middle }
        }
        return nil
    }
}

/// A list of inner stream IDs whose first one is stored inline: handing over one ID (what
/// `.latest` cancels on each new inner stream) allocates nothing.
@usableFromInline
struct FlattenInnerIDList: Sequence, Equatable {
    @usableFromInline var first: FlattenInnerID?
    @usableFromInline var rest: [FlattenInnerID]

    @inlinable
    init(first: FlattenInnerID? = nil, rest: [FlattenInnerID] = []) {
        self.first = first
        self.rest = rest
    }

    @inlinable
    var isEmpty: Bool { first == nil }

    @inlinable
    func makeIterator() -> IndexingIterator<[FlattenInnerID]> {
        // Only for the rare lists of more than one ID; `forEach` below covers the common case.
        guard let first else { return [].makeIterator() }
        return ([first] + rest).makeIterator()
    }

    /// Runs `body` for each ID in order, without building an array.
    @inlinable
    func forEach(_ body: (FlattenInnerID) -> Void) {
        guard let first else { return }
        body(first)
        rest.forEach(body)
    }
}
