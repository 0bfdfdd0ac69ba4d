/// The running inner streams of a flattening, by ID, with a value for each.
///
/// Inner streams are numbered in the order they start, so the IDs arrive in increasing order and
/// the map is an `InlineFirstArray` sorted by ID: `contains` is a binary search, adding is an
/// append. The first entry is stored inline, so a flattening with one inner stream at a time
/// (`.latest`, `.throttle`, `.concat`) allocates nothing to track it, and hashes nothing: a `Set`
/// or `Dictionary` of IDs hashed every inner event (about 900 instructions per inner stream of
/// five values).
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
        entries.position(of: id, by: { $0.id }) != nil
    }

    /// Adds `id`, which must be larger than every ID in the map (a newer inner stream).
    @inlinable
    mutating func append(_ id: FlattenInnerID, _ value: Value) {
        if let last = entries.last {
            precondition(id > last.id, "Rivulet: inner stream IDs must increase")
        }
        entries.append((id, value))
    }

    /// Removes `id` and returns its value, or `nil` if it is not in the map.
    @inlinable
    @discardableResult
    mutating func remove(_ id: FlattenInnerID) -> Value? {
        guard let position = entries.position(of: id, by: { $0.id }) else { return nil }
        return entries.remove(at: position).value
    }

    /// Empties the map, keeping its capacity.
    @inlinable
    mutating func removeAll() {
        entries.removeAll(keepingCapacity: true)
    }

    /// The IDs, in increasing order.
    @inlinable
    var ids: FlattenInnerIDList { entries.map { $0.id } }
}

/// A list of inner stream IDs whose first one is stored inline: handing over one ID (what
/// `.latest` cancels on each new inner stream) allocates nothing.
@usableFromInline
typealias FlattenInnerIDList = InlineFirstArray<FlattenInnerID>
