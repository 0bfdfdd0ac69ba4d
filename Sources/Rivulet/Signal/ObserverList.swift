/// A signal's attached observers, in the order they were attached, in one word.
///
/// Most signals have one observer, so the list is one word: 0 when empty, the address of the one
/// attachment, or (lowest bit set) the address of an `ObserverBuffer` holding them all, made
/// for a second observer. An idle signal with one observer costs no buffer and 8 bytes in its
/// storage, and a delivery to it retains nothing. The list owns a +1 on the attachment or the
/// buffer, taken and given back by hand.
///
/// Once made, the buffer is kept while any observer is attached (so that a signal with a
/// permanent observer and a churning one allocates nothing per observe), and released when the
/// last observer goes.
///
/// Lives inside `DeliveryState`, which is never copied: it stays in its `SignalStorage` header.
@usableFromInline
struct ObserverList<Value, Error: Swift.Error> {
    @usableFromInline typealias Attachment = ObserverAttachment<Value, Error>
    @usableFromInline typealias Buffer = ObserverBuffer<Value, Error>

    /// 0, an attachment's address, or a buffer's address with the lowest bit set (see above).
    @usableFromInline var bits: UInt = 0

    @inlinable
    init() {}

    /// The buffer, if the list has one.
    @inlinable @inline(__always)
    var buffer: Unmanaged<Buffer>? {
        guard bits & 1 != 0 else { return nil }
        return Unmanaged.fromOpaque(UnsafeRawPointer(bitPattern: bits & ~1).unsafelyUnwrapped)
    }

    /// The first observer, not retained: the list keeps it alive until it changes.
    @inlinable @inline(__always)
    var first: Unmanaged<Attachment>? {
        if bits & 1 == 0 {
            guard let pointer = UnsafeRawPointer(bitPattern: bits) else { return nil }
            return Unmanaged.fromOpaque(pointer)
        }
        return firstInBuffer()
    }

    /// `first` when the list has a buffer. Out of line, so that a delivery to a single observer
    /// stays small enough to be inlined into its callers.
    @inlinable @inline(never)
    func firstInBuffer() -> Unmanaged<Attachment>? {
        buffer.unsafelyUnwrapped._withUnsafeGuaranteedRef { $0.first }
    }

    /// The observers after the first, borrowed from the list: read them only while the list
    /// cannot change (under the lock, or as the turn's owner).
    @inlinable @inline(__always)
    var rest: Rest {
        if bits & 1 == 0 { return Rest(start: nil, count: 0) }
        return restInBuffer()
    }

    /// `rest` when the list has a buffer.
    @inlinable
    func restInBuffer() -> Rest {
        buffer.unsafelyUnwrapped._withUnsafeGuaranteedRef { $0.rest }
    }

    @inlinable
    var isEmpty: Bool { bits == 0 }

    @inlinable
    var count: Int {
        if bits & 1 == 0 { return bits == 0 ? 0 : 1 }
        return buffer.unsafelyUnwrapped._withUnsafeGuaranteedRef { $0.count }
    }

    @inlinable
    mutating func append(_ attachment: Attachment) {
        append(retained: Unmanaged.passRetained(attachment))
    }

    /// Appends an attachment retained by the caller: the list takes over that +1.
    @inlinable
    mutating func append(retained attachment: Unmanaged<Attachment>) {
        let address = UInt(bitPattern: attachment.toOpaque())
        if bits == 0 {
            bits = address
            return
        }
        if let buffer {
            let grown = buffer._withUnsafeGuaranteedRef { $0.appending(takingOwnershipOf: address) }
            if let grown { replaceBuffer(with: grown) }
            return
        }
        // A second observer: move the first into a new buffer (which takes over its +1).
        let made = Buffer.make(minimumCapacity: 2)
        made.appendTakingOwnership(bits)
        made.appendTakingOwnership(address)
        bits = UInt(bitPattern: Unmanaged.passRetained(made).toOpaque()) | 1
    }

    /// Makes `grown` (holding every observer) the list's buffer and releases the old one, whose
    /// observers `grown` took over.
    @inlinable
    mutating func replaceBuffer(with grown: Buffer) {
        let old = buffer.unsafelyUnwrapped
        bits = UInt(bitPattern: Unmanaged.passRetained(grown).toOpaque()) | 1
        old.release()
    }

    /// Removes `attachment` and returns it (for the caller to release outside the lock), or `nil`
    /// if it is not in the list.
    @inlinable
    mutating func remove(_ attachment: Attachment) -> Attachment? {
        remove(address: UInt(bitPattern: Unmanaged.passUnretained(attachment).toOpaque()))
    }

    /// Removes the attachment at `address` and returns it (see `remove(_:)`).
    @inlinable
    mutating func remove(address: UInt) -> Attachment? {
        guard let buffer else {
            guard bits != 0, bits == address else { return nil }
            bits = 0
            return Unmanaged<Attachment>.fromOpaque(UnsafeRawPointer(bitPattern: address).unsafelyUnwrapped)
                .takeRetainedValue()
        }
        let removed = buffer._withUnsafeGuaranteedRef { $0.remove(address: address) }
        guard let removed else { return nil }
        if buffer._withUnsafeGuaranteedRef({ $0.count == 0 }) {
            bits = 0
            buffer.release()
        }
        return Unmanaged<Attachment>.fromOpaque(UnsafeRawPointer(bitPattern: removed).unsafelyUnwrapped)
            .takeRetainedValue()
    }

    /// Removes the newest observer that `handle` detaches and returns it (see `last(detachedBy:)`
    /// and `remove(_:)`), or `nil` if none is in the list.
    @inlinable
    mutating func removeNewest(detachedBy handle: UInt) -> Attachment? {
        guard let buffer else {
            guard let head = first, head._withUnsafeGuaranteedRef({ $0.isDetached(by: handle) }) else { return nil }
            bits = 0
            return head.takeRetainedValue()
        }
        guard let found = buffer._withUnsafeGuaranteedRef({ $0.last(detachedBy: handle) }) else { return nil }
        return remove(address: UInt(bitPattern: found.toOpaque()))
    }

    /// The newest observer that `handle` detaches, if one is in the list (see
    /// `ObserverAttachment.handle`); not retained (the list keeps it).
    @inlinable
    func last(detachedBy handle: UInt) -> Unmanaged<Attachment>? {
        guard let buffer else {
            guard let head = first else { return nil }
            return head._withUnsafeGuaranteedRef { $0.isDetached(by: handle) } ? head : nil
        }
        return buffer._withUnsafeGuaranteedRef { $0.last(detachedBy: handle) }
    }

    /// Empties the list and returns its observers, in order.
    @inlinable
    mutating func removeAll() -> ContiguousArray<Attachment> {
        if bits == 0 { return [] }
        guard let buffer else {
            let head = Unmanaged<Attachment>.fromOpaque(UnsafeRawPointer(bitPattern: bits).unsafelyUnwrapped)
            bits = 0
            return [head.takeRetainedValue()]
        }
        bits = 0
        let all = buffer._withUnsafeGuaranteedRef { $0.removeAll() }
        buffer.release()
        return all
    }

    /// The observers after the first, borrowed from the list's buffer (see `rest`).
    @usableFromInline
    struct Rest {
        @usableFromInline let start: UnsafePointer<Attachment>?
        @usableFromInline let count: Int

        @inlinable
        init(start: UnsafePointer<Attachment>?, count: Int) {
            self.start = start
            self.count = count
        }

        @inlinable
        var isEmpty: Bool { count == 0 }

        @inlinable
        func withUnsafeBufferPointer<Result>(_ body: (UnsafeBufferPointer<Attachment>) throws -> Result) rethrows -> Result {
            try body(UnsafeBufferPointer(start: start, count: count))
        }
    }

    /// Delivers `event` to each of `observers`, borrowing each (no retain per observer).
    ///
    /// Called by the turn's owner without the lock, for the observers after the first: nobody
    /// changes the list meanwhile, and the list keeps each attachment alive.
    @inlinable
    static func deliver(_ event: Signal<Value, Error>.Event, toEach observers: UnsafeBufferPointer<Attachment>) {
        // The start and the end are checked once, not per observer.
        guard let start = observers.baseAddress else { return }
        var slot = UnsafeRawPointer(start)
        let end = slot + observers.count * MemoryLayout<Unmanaged<Attachment>>.stride
        while slot < end {
            slot.load(as: Unmanaged<Attachment>.self)._withUnsafeGuaranteedRef { $0.deliver(event) }
            slot += MemoryLayout<Unmanaged<Attachment>>.stride
        }
    }
}

/// The observers of a signal that has had two at once: their addresses, each retained by hand,
/// in order, in one allocation (the count in the header). Changed only under the signal's lock;
/// read by the turn's owner (see `ObserverList`).
@usableFromInline
final class ObserverBuffer<Value, Error: Swift.Error>: ManagedBuffer<Int, UInt> {
    @usableFromInline typealias Attachment = ObserverAttachment<Value, Error>

    @inlinable
    static func make(minimumCapacity: Int) -> ObserverBuffer {
        unsafeDowncast(create(minimumCapacity: minimumCapacity) { _ in 0 }, to: ObserverBuffer.self)
    }

    deinit {
        // The list empties the buffer before releasing it; release whatever is left regardless.
        _ = removeAll()
    }

    @inlinable
    var count: Int { withUnsafeMutablePointerToHeader { $0.pointee } }

    /// Reads the slots (the attachments' addresses, each retained by hand) and the count with
    /// plain loads, never an `inout` access: the turn's owner reads them without the lock while a
    /// lock holder may read them too (`last(detachedBy:)`), and Thread Sanitizer treats an
    /// `inout` access as a write. Only reads happen concurrently: the slots change only under the
    /// lock, by the turn's owner or while no turn is held (see `DeliveryState`).
    @inlinable
    func readSlots<Result>(_ body: (UnsafeMutablePointer<UInt>, Int) -> Result) -> Result {
        withUnsafeMutablePointers { count, slots in body(slots, count.pointee) }
    }

    /// Changes the slots and the count (under the lock, see `readSlots`).
    @inlinable
    func withSlots<Result>(_ body: (UnsafeMutablePointer<UInt>, inout Int) -> Result) -> Result {
        withUnsafeMutablePointers { count, slots in body(slots, &count.pointee) }
    }

    @inlinable
    var first: Unmanaged<Attachment>? {
        readSlots { slots, count in
            count == 0 ? nil : Unmanaged.fromOpaque(UnsafeRawPointer(bitPattern: slots[0]).unsafelyUnwrapped)
        }
    }

    /// The slots after the first, seen as attachments: `ObserverList.deliver` only loads them as
    /// raw `Unmanaged` references.
    @inlinable
    var rest: ObserverList<Value, Error>.Rest {
        readSlots { slots, count in
            guard count > 1 else { return .init(start: nil, count: 0) }
            let start = UnsafeRawPointer(slots + 1).assumingMemoryBound(to: Attachment.self)
            return .init(start: start, count: count - 1)
        }
    }

    /// Appends a retained attachment's address (the buffer takes over the +1). The caller made
    /// sure there is room.
    @inlinable
    func appendTakingOwnership(_ address: UInt) {
        withSlots { slots, count in
            precondition(
                count < capacity,
                "Rivulet: an observer buffer was appended to beyond its capacity (internal error)")
            slots[count] = address
            count += 1
        }
    }

    /// Appends a retained attachment's address (the buffer takes over the +1) if there is room
    /// and returns `nil`; otherwise returns a new, larger buffer that holds every observer (this
    /// one's +1s move to it; this one is left empty).
    @inlinable
    func appending(takingOwnershipOf address: UInt) -> ObserverBuffer? {
        if count < capacity {
            appendTakingOwnership(address)
            return nil
        }
        let grown = ObserverBuffer.make(minimumCapacity: capacity * 2)
        withSlots { slots, count in
            for index in 0..<count { grown.appendTakingOwnership(slots[index]) }
            count = 0
        }
        grown.appendTakingOwnership(address)
        return grown
    }

    /// Removes the slot holding `address`, keeping the order, and returns the address (its +1
    /// now the caller's), or `nil` if no slot holds it.
    @inlinable
    func remove(address: UInt) -> UInt? {
        withSlots { slots, count in
            var index = 0
            while index < count, slots[index] != address { index += 1 }
            guard index < count else { return nil }
            (slots + index).update(from: slots + index + 1, count: count - index - 1)
            count -= 1
            return address
        }
    }

    /// The newest attachment that `handle` detaches, if any; not retained (the buffer keeps it).
    @inlinable
    func last(detachedBy handle: UInt) -> Unmanaged<Attachment>? {
        readSlots { slots, count in
            for index in (0..<count).reversed() {
                let attachment = Unmanaged<Attachment>.fromOpaque(UnsafeRawPointer(bitPattern: slots[index]).unsafelyUnwrapped)
                if attachment._withUnsafeGuaranteedRef({ $0.isDetached(by: handle) }) {
                    return attachment
                }
            }
            return nil
        }
    }

    /// Empties the buffer and returns its attachments, in order (their +1s now the array's).
    @inlinable
    func removeAll() -> ContiguousArray<Attachment> {
        withSlots { slots, count in
            var all = ContiguousArray<Attachment>()
            all.reserveCapacity(count)
            for index in 0..<count {
                all.append(
                    Unmanaged<Attachment>.fromOpaque(UnsafeRawPointer(bitPattern: slots[index]).unsafelyUnwrapped)
                        .takeRetainedValue())
            }
            count = 0
            return all
        }
    }
}
