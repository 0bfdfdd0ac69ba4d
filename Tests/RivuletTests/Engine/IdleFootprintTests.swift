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

    /// The usable size of each object of an idle pipe with one observer of values.
    static func idlePipeParts() -> [String: Int] {
        let (signal, input) = Signal<Int, Never>.pipe()
        let disposable = signal.observeValues { _ in }!
        let storage = signal.core.storage
        let attachment = storage.withLock { $0.observers.first?.takeUnretainedValue() }!
        defer {
            disposable.dispose()
            withExtendedLifetime(input) {}
        }
        return [
            "signal storage": usableSize(storage), "Signal": usableSize(signal), "input Observer": usableSize(input),
            "ObserverAttachment": usableSize(attachment), "ObservationHandle": usableSize(disposable as AnyObject),
        ]
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

    // Both measures run in a child process (an exit test), on a fresh heap: in the test process
    // glibc hands out a larger chunk than asked for when the free one it finds is too small to
    // split, and which chunks are free there depends on the tests running beside this one (a full
    // run once gave every one of 16 signal storages 104 bytes instead of 88).

    @Test func anIdlePipeWithOneValuesObserverFitsIn200Bytes() async {
        await #expect(processExitsWith: .success) {
            let parts = IdleFootprintTests.idlePipeParts()
            // Was 296 (storage 152: 40 of it the pthread mutex, 32 the mailbox queue, 16 the
            // observer list), then 232 (attachment 56: two optional closures; input observer 40:
            // its release closure and its core).
            let bounds = [
                "signal storage": 88, "Signal": 24, "input Observer": 24, "ObserverAttachment": 40, "ObservationHandle": 24,
            ]
            precondition(parts.values.reduce(0, +) <= 200, "IdleFootprintTests: more than 200 bytes: \(parts)")
            for (part, bound) in bounds {
                precondition(parts[part]! <= bound, "IdleFootprintTests: \(part) is over \(bound) bytes: \(parts)")
            }
        }
    }

    /// An attachment is 40 bytes whichever kind of closure it holds; any observer is one word.
    @Test func anAttachmentIsFortyBytesAndAnObserverTwentyFour() async {
        await #expect(processExitsWith: .success) {
            // One of each made first: making a generic class's metadata allocates, and the first
            // object made after it may land in a larger leftover chunk.
            _ = ValuesObserverAttachment<String, Never>(values: { _ in }, handle: nil)
            _ = EventObserverAttachment<String, Never>(action: { _ in }, handle: nil)
            precondition(
                IdleFootprintTests.usableSize(ValuesObserverAttachment<String, Never>(values: { _ in }, handle: nil)) == 40)
            precondition(
                IdleFootprintTests.usableSize(EventObserverAttachment<String, Never>(action: { _ in }, handle: nil)) == 40)
            precondition(IdleFootprintTests.usableSize(Signal<String, Never>.Observer { _ in }) == 24)
            let (_, input) = Signal<[Int], Never>.pipe()
            precondition(IdleFootprintTests.usableSize(input) == 24)
        }
    }
}
#endif
