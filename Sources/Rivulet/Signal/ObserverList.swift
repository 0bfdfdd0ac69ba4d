/// A signal's attached observers, in the order they were attached.
///
/// Most signals have one observer, so the list is an `InlineFirstArray`: the first observer is
/// stored inline and the array is only allocated for a second. An idle signal with one observer
/// costs no array buffer, and a delivery to it retains nothing. The observers are held as
/// `Unmanaged` references retained by hand (the list owns a +1 on each), so that reading one for
/// a delivery is a plain load.
///
/// Lives inside `DeliveryState`, which is never copied: it stays in its `SignalStorage` header,
/// whose deallocation empties the list (`removeAll()`), releasing what it retained.
@usableFromInline
struct ObserverList<Value, Error: Swift.Error> {
    @usableFromInline typealias Attachment = ObserverAttachment<Value, Error>

    /// Each observer retained once by the list.
    @usableFromInline var attachments = InlineFirstArray<Unmanaged<Attachment>>()

    @inlinable
    init() {}

    /// The first observer; `nil` only when the list is empty.
    @inlinable
    var first: Unmanaged<Attachment>? { attachments.first }

    /// The observers after the first, in order.
    @inlinable
    var rest: ContiguousArray<Unmanaged<Attachment>> {
        _read { yield attachments.rest }
    }

    @inlinable
    var isEmpty: Bool { attachments.isEmpty }

    @inlinable
    var count: Int { attachments.count }

    @inlinable
    mutating func append(_ attachment: Attachment) {
        attachments.append(.passRetained(attachment))
    }

    /// Removes `attachment` and returns it (for the caller to release outside the lock), or `nil`
    /// if it is not in the list.
    @inlinable
    mutating func remove(_ attachment: Attachment) -> Attachment? {
        let target = Unmanaged.passUnretained(attachment).toOpaque()
        return attachments.remove(where: { $0.toOpaque() == target })?.takeRetainedValue()
    }

    /// The observer that `handle` detaches, if it is in the list.
    @inlinable
    func first(detachedBy handle: UInt) -> Attachment? {
        attachments.first(where: { $0._withUnsafeGuaranteedRef { $0.isDetached(by: handle) } })?
            .takeUnretainedValue()
    }

    /// Empties the list and returns its observers, in order, handing over the list's +1 on each.
    @inlinable
    mutating func removeAll() -> ContiguousArray<Attachment> {
        guard !attachments.isEmpty else { return [] }
        var all = ContiguousArray<Attachment>()
        all.reserveCapacity(attachments.count)
        attachments.forEach { all.append($0.takeRetainedValue()) }
        attachments.removeAll()
        return all
    }

    /// Delivers `event` to each of `observers`, borrowing each (no retain per observer).
    ///
    /// Called by the turn's owner without the lock, for the observers after the first: nobody
    /// changes the list meanwhile, and the list's +1 keeps each attachment alive.
    @inlinable
    static func deliver(_ event: Signal<Value, Error>.Event, toEach observers: UnsafeBufferPointer<Unmanaged<Attachment>>) {
        var index = observers.startIndex
        while index < observers.endIndex {
            observers[index]._withUnsafeGuaranteedRef { $0.deliver(event) }
            index += 1
        }
    }
}
