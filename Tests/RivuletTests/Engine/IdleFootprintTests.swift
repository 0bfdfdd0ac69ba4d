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

    /// How many of a kind of object a measure makes, keeping them all alive. glibc hands out a
    /// larger chunk than asked for when splitting the free one it found would leave a remainder
    /// too small to keep, which depends on what the other tests running meanwhile freed: the
    /// smallest of several is the request rounded up to the allocator's granularity.
    static let samples = 16

    /// The smallest usable size of `samples` objects made by `make`.
    static func smallestUsableSize(_ make: () -> AnyObject) -> Int {
        let objects = (0..<samples).map { _ in make() }
        return objects.map(usableSize).min()!
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
        var sizes: [String: [Int]] = [:]
        var keptAlive: [(Signal<Int, Never>, Signal<Int, Never>.Observer, Disposable)] = []
        for _ in 0..<Self.samples {
            let (signal, input) = Signal<Int, Never>.pipe()
            let disposable = try #require(signal.observeValues { _ in })
            let storage = signal.core.storage
            let attachment = try #require(storage.withLock { $0.observers.first?.takeUnretainedValue() })
            sizes["signal storage", default: []].append(Self.usableSize(storage))
            sizes["Signal", default: []].append(Self.usableSize(signal))
            sizes["input Observer", default: []].append(Self.usableSize(input))
            sizes["ObserverAttachment", default: []].append(Self.usableSize(attachment))
            sizes["ObservationHandle", default: []].append(Self.usableSize(disposable as AnyObject))
            keptAlive.append((signal, input, disposable))
        }
        let parts = sizes.mapValues { $0.min()! }
        let total = parts.values.reduce(0, +)
        // Was 296 (storage 152: 40 of it the pthread mutex, 32 the mailbox queue, 16 the observer
        // list), then 232 (attachment 56: two optional closures; input observer 40: its release
        // closure and its core).
        #expect(total <= 200, "\(parts)")
        #expect(parts["signal storage"]! <= 88, "\(parts)")
        #expect(parts["Signal"]! <= 24, "\(parts)")
        #expect(parts["input Observer"]! <= 24, "\(parts)")
        #expect(parts["ObserverAttachment"]! <= 40, "\(parts)")
        #expect(parts["ObservationHandle"]! <= 24, "\(parts)")
        for (_, _, disposable) in keptAlive { disposable.dispose() }
    }

    /// An attachment is 40 bytes whichever kind of closure it holds, and so is the view through
    /// which an observer of values is called; any observer is one word.
    @Test func anAttachmentIsFortyBytesAndAnObserverTwentyFour() {
        #expect(Self.smallestUsableSize { ObserverAttachment<String, Never>(values: { _ in }, handle: nil) } == 40)
        #expect(Self.smallestUsableSize { ObserverAttachment<String, Never>(action: { _ in }, handle: nil) } == 40)
        #expect(Self.smallestUsableSize { Signal<String, Never>.Observer { _ in } } == 24)
        let inputs = (0..<Self.samples).map { _ in Signal<[Int], Never>.pipe() }
        #expect(inputs.map { Self.usableSize($0.input) }.min() == 24)
    }
}
#endif
