/// The running inner streams of a flattening, by ID, with a value for each.
///
/// Inner streams are numbered in the order they start, so the IDs arrive in increasing order and
/// the map is an `InlineFirstArray` sorted by ID: `contains` is a binary search, adding is an
/// append. The first entry is stored inline, so a flattening with one inner stream at a time
/// (`.latest`, `.throttle`, `.concat`) allocates nothing to track it, and hashes nothing (a `Set`
/// or `Dictionary` of IDs would hash on every inner event; Docs/Performance.md has the numbers).
@usableFromInline
struct FlattenInnerMap<Value> {
    @usableFromInline typealias Entry = (id: FlattenInnerID, value: Value)

    /// The entries, in increasing ID order.
    @usableFromInline var entries = InlineFirstArray<Entry>()

    @inlinable
    init() {}

    @inlinable
    var isEmpty: Bool { entries.isEmpty }

    @inlinable
    var count: Int { entries.count }

    @inlinable
    func contains(_ id: FlattenInnerID) -> Bool {
        entries.contains(key: id, by: { $0.id })
    }

    /// Adds `id`, which must be larger than every ID in the map (a newer inner stream).
    @inlinable
    mutating func append(_ id: FlattenInnerID, _ value: Value) {
        if let lastID = entries.rest.last?.id ?? entries.first?.id {
            precondition(
                id > lastID,
                "Rivulet: a new inner stream's ID is not above the last one; inner stream IDs increase (internal error)")
        }
        entries.append((id, value))
    }

    /// Removes `id` and returns its value, or `nil` if it is not in the map.
    @inlinable
    @discardableResult
    mutating func remove(_ id: FlattenInnerID) -> Value? {
        entries.remove(key: id, by: { $0.id })?.value
    }

    /// Empties the map, keeping its capacity.
    @inlinable
    mutating func removeAll() {
        entries.removeAll(keepingCapacity: true)
    }

    /// Runs `body` for each value, in increasing order of ID.
    @inlinable
    func forEachValue(_ body: (Value) -> Void) {
        guard let first = entries.first else { return }
        body(first.value)
        entries.rest.forEach { body($0.value) }
    }

    /// The IDs, in increasing order.
    @inlinable
    var ids: FlattenInnerIDList {
        guard let first = entries.first else { return FlattenInnerIDList() }
        return FlattenInnerIDList(first: first.id, rest: entries.rest.isEmpty ? [] : entries.rest.map { $0.id })
    }
}

/// A list of inner stream IDs whose first one is stored inline: handing over one ID (what
/// `.latest` cancels on each new inner stream) allocates nothing.
///
/// Not an `InlineFirstArray<FlattenInnerID>`: the state machine keeps one (the IDs its last
/// actions cancel), and code specialised in a client module destroys a bound generic struct
/// through its type metadata (a metadata cache look-up, then the generic value witness), where
/// this plain struct's value witness is called directly (Docs/Performance.md has the measurement).
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
