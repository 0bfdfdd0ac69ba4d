import Rivulet

/// A key-value store that any thread may write and any number of readers observe.
///
/// All the entries live in one `MutableProperty` holding a dictionary. A `MutableProperty` is
/// thread-safe: its writes take turns, each write is visible before it is emitted, and every
/// observer receives the changes one at a time, in the order they were made. The store builds on
/// those guarantees instead of managing a lock of its own:
///
/// - A reader of one key (`value(forKey:)`) is a property derived from the dictionary: it sees the
///   key's current value first, then each change of that key, in order, never two at once.
/// - A reader of the whole store (`entries`) sees every state the store went through, each one
///   complete: a change of several keys made with `update(_:)` is never seen half done.
/// - Readers join by starting a producer and leave by disposing of it, at any time, from any
///   thread; the writers are not affected.
public final class SharedStore<Key: Hashable & Sendable, Value: Equatable & Sendable>: Sendable {
    private let storage: MutableProperty<[Key: Value]>

    /// Every state of the store: the current one when observed, then one per write.
    public let entries: Property<[Key: Value]>

    /// A store holding `initialEntries`.
    public init(_ initialEntries: [Key: Value] = [:]) {
        storage = MutableProperty(initialEntries)
        entries = Property(storage)
    }

    /// The current value for `key`, or `nil` if the store has none. Readable from any thread.
    public subscript(key: Key) -> Value? {
        storage.value[key]
    }

    /// Sets the value for `key`, or removes it when `value` is `nil`, and notifies the readers.
    public func set(_ value: Value?, forKey key: Key) {
        storage.modify { $0[key] = value }
    }

    /// Changes any number of entries in one step: readers see the store before or after the whole
    /// change, never in between. Other writers wait while `change` runs, so keep it short.
    ///
    /// - Parameter change: Changes the entries in place.
    public func update(_ change: (inout [Key: Value]) -> Void) {
        storage.modify(change)
    }

    /// The value for `key` as a property: its current value, then each change of it.
    ///
    /// Writes to other keys are filtered out (`skipRepeats`), so a reader of one key hears only
    /// about that key. Observe it with `value(forKey: key).producer.startWithValues { … }`; dispose
    /// of what that returns to stop reading.
    public func value(forKey key: Key) -> Property<Value?> {
        storage.map { $0[key] }.skipRepeats()
    }
}
