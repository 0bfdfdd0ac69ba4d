/// A signal's attached observers, in the order they were attached.
///
/// Most signals have one observer, so the first is stored inline and the array is only allocated
/// for a second: an idle signal with one observer costs no array buffer, and a delivery to it
/// retains nothing. The first observer is held as an `Unmanaged` reference retained by hand (the
/// list owns that +1), so that reading it for a delivery is a plain load.
///
/// Lives inside `DeliveryState`, which is never copied: it stays in its `SignalStorage` header.
@usableFromInline
struct ObserverList<Value, Error: Swift.Error> {
    @usableFromInline typealias Attachment = ObserverAttachment<Value, Error>

    /// Retained by the list. `nil` only when the list is empty.
    @usableFromInline var first: Unmanaged<Attachment>?
    /// The observers after the first, in order.
    @usableFromInline var rest: ContiguousArray<Attachment> = []

    @inlinable
    init() {}

    @inlinable
    var isEmpty: Bool { first == nil }

    @inlinable
    var count: Int { first == nil ? 0 : 1 + rest.count }

    @inlinable
    mutating func append(_ attachment: Attachment) {
        if first == nil {
            first = .passRetained(attachment)
        } else {
            rest.append(attachment)
        }
    }

    /// Removes `attachment` and returns it (for the caller to release outside the lock), or `nil`
    /// if it is not in the list.
    @inlinable
    mutating func remove(_ attachment: Attachment) -> Attachment? {
        guard let head = first else { return nil }
        if head.toOpaque() == Unmanaged.passUnretained(attachment).toOpaque() {
            first = rest.isEmpty ? nil : .passRetained(rest.removeFirst())
            return head.takeRetainedValue()
        }
        guard let index = rest.firstIndex(where: { $0 === attachment }) else { return nil }
        return rest.remove(at: index)
    }

    /// The observer that `handle` detaches, if it is in the list.
    @inlinable
    func first(detachedBy handle: UInt) -> Attachment? {
        guard let head = first else { return nil }
        if head._withUnsafeGuaranteedRef({ $0.isDetached(by: handle) }) { return head.takeUnretainedValue() }
        return rest.first { $0.isDetached(by: handle) }
    }

    /// Empties the list and returns its observers, in order.
    @inlinable
    mutating func removeAll() -> ContiguousArray<Attachment> {
        guard let head = first else { return [] }
        var all = ContiguousArray<Attachment>()
        all.reserveCapacity(1 + rest.count)
        all.append(head.takeRetainedValue())
        all.append(contentsOf: rest)
        first = nil
        rest = []
        return all
    }

    /// Delivers `event` to each of `observers`, borrowing each (no retain per observer).
    ///
    /// Called by the turn's owner without the lock, for the observers after the first: nobody
    /// changes the list meanwhile, and the array keeps each attachment alive.
    @inlinable
    static func deliver(_ event: Signal<Value, Error>.Event, toEach observers: UnsafeBufferPointer<Attachment>) {
        let attachments = UnsafeRawBufferPointer(observers)
        var offset = 0
        while offset < attachments.count {
            attachments.load(fromByteOffset: offset, as: Unmanaged<Attachment>.self)
                ._withUnsafeGuaranteedRef { $0.deliver(event) }
            offset += MemoryLayout<Unmanaged<Attachment>>.stride
        }
    }
}
