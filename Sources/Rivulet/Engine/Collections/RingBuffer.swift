/// The latest values of a stream, at most `capacity` of them, oldest first: a bounded ring buffer
/// (used by `take(last:)` and `replayLazily(upTo:)`).
///
/// Values are appended until the storage is full; from then on each new value overwrites the
/// oldest, so appending never allocates once the storage has reached its capacity.
struct RingBuffer<Value> {
    let capacity: Int
    private var storage: ContiguousArray<Value> = []
    /// Where the oldest value is once the storage is full (it is then used as a ring).
    private var oldest = 0

    /// An empty buffer for at most `capacity` values; with `reservingStorage`, the storage for all
    /// of them is allocated at once.
    init(capacity: Int, reservingStorage: Bool = false) {
        self.capacity = capacity
        if reservingStorage { storage.reserveCapacity(capacity) }
    }

    mutating func append(_ value: Value) {
        guard capacity > 0 else { return }
        if storage.count < capacity {
            storage.append(value)
        } else {
            storage[oldest] = value
            oldest = oldest + 1 == capacity ? 0 : oldest + 1
        }
    }

    /// The values, oldest first.
    var values: ContiguousArray<Value> {
        if oldest == 0 { return storage }
        return ContiguousArray(storage[oldest...]) + storage[..<oldest]
    }

    /// The values, oldest first; the buffer is empty afterwards and its storage released.
    mutating func drain() -> ContiguousArray<Value> {
        defer { removeAll() }
        return values
    }

    /// Drops every value and releases the storage.
    mutating func removeAll() {
        storage = []
        oldest = 0
    }
}
