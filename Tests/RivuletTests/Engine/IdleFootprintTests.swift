import Testing

@testable import Rivulet

#if canImport(Glibc)
import Glibc
import RivuletContracts

/// What an idle hot source with one observer costs (`Signal.pipe()` and one `observeValues`,
/// compare's workload 10), object by object, as the allocator counts it (`malloc_usable_size`:
/// glibc rounds each request up to 8 bytes short of a multiple of 16).
@Suite(.checksLiveObjects) struct IdleFootprintTests {
    /// glibc's `malloc_usable_size`, which the Glibc module does not import (`malloc.h`).
    static let mallocUsableSize: @convention(c) (UnsafeMutableRawPointer?) -> Int = {
        // RTLD_DEFAULT is the null handle on glibc.
        guard let symbol = dlsym(nil, "malloc_usable_size") else {
            preconditionFailure("Rivulet: IdleFootprintTests: glibc has no malloc_usable_size")
        }
        return unsafeBitCast(symbol, to: (@convention(c) (UnsafeMutableRawPointer?) -> Int).self)
    }()

    /// The usable size of the allocation that holds `object`.
    static func usableSize(_ object: AnyObject) -> Int {
        mallocUsableSize(Unmanaged.passUnretained(object).toOpaque())
    }

    @Test func anIdleMailboxQueueIsOneReference() {
        #expect(MemoryLayout<MailboxQueue<Signal<Int, Never>.Event>>.size == MemoryLayout<UInt>.size)
        var queue = MailboxQueue<Int>()
        #expect(queue.backlog == nil)
        #expect(!queue.needsOwnerAttention)
        #expect(queue.popQueued() == nil)
        queue.enqueue(1)
        #expect(queue.backlog != nil)
        #expect(queue.needsOwnerAttention)
        #expect(queue.queued.count == 1)
        #expect(queue.popQueued() == 1)
        #expect(!queue.needsOwnerAttention)
        #expect(queue.queued.isEmpty)
    }

    @Test func anIdlePipeWithOneValuesObserverFitsIn200Bytes() throws {
        let (signal, input) = Signal<Int, Never>.pipe()
        let disposable = try #require(signal.observeValues { _ in })
        let storage = signal.core.storage
        let attachment = try #require(storage.withLock { $0.observers.first?.takeUnretainedValue() })
        let parts: [(String, Int)] = [
            ("signal storage", Self.usableSize(storage)),
            ("Signal", Self.usableSize(signal)),
            ("input Observer", Self.usableSize(input)),
            ("ObserverAttachment", Self.usableSize(attachment)),
            ("ObservationHandle", Self.usableSize(disposable as AnyObject)),
        ]
        let total = parts.reduce(0) { $0 + $1.1 }
        // Was 296 (storage 152: 40 of it the pthread mutex, 32 the mailbox queue, 16 the observer
        // list), then 232 (attachment 56: two optional closures; input observer 40: its release
        // closure and its core).
        #expect(total <= 200, "\(parts)")
        #expect(Self.usableSize(storage) <= 88, "\(parts)")
        #expect(Self.usableSize(signal) <= 24, "\(parts)")
        #expect(Self.usableSize(input) <= 24, "\(parts)")
        #expect(Self.usableSize(attachment) <= 40, "\(parts)")
        #expect(Self.usableSize(disposable as AnyObject) <= 24, "\(parts)")
        disposable.dispose()
        withExtendedLifetime(input) {}
    }

    /// An attachment is 40 bytes whichever kind of closure it holds, and so is the view through
    /// which an observer of values is called; any observer is one word.
    @Test func anAttachmentIsFortyBytesAndAnObserverTwentyFour() {
        let values = ObserverAttachment<String, Never>(values: { _ in }, handle: nil)
        let events = ObserverAttachment<String, Never>(action: { _ in }, handle: nil)
        #expect(Self.usableSize(values) == 40)
        #expect(Self.usableSize(events) == 40)
        #expect(Self.usableSize(Signal<String, Never>.Observer { _ in }) == 24)
        let (_, input) = Signal<[Int], Never>.pipe()
        #expect(Self.usableSize(input) == 24)
    }
}
#endif
