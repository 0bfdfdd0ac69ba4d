/// The sending end of a channel. Sends never wait (A9); each returns `nil` when its result was
/// delivered or queued, or why it went nowhere.
///
/// A plain input is single-use: before its channel's first activation its sends report
/// `inactive` (A5); once that activation ends they report `disconnected`. Releasing the input, or
/// calling `cancel()`, ends its channel with `ChannelEnd.cancelled` (A7).
public class ChannelInput<Value>: Disposable {
    /// The memory of `generation` and `ended`: the first stored property, never read or written
    /// directly after `init` (see Rivulet's AtomicWord.swift).
    @usableFromInline var atomicsStorage: AtomicWordAndFlagStorage
    @usableFromInline let channel: Channel<Value>
    /// The activation this input sends for: `ChannelGeneration.unbound` until the channel decides
    /// it (its first activation), then that generation; `revoked` once replaced.
    @inlinable
    final var generation: AtomicWord { AtomicWord(pairIn: self) }
    /// Whether the input sent its end or was cancelled or revoked: releasing it sends nothing.
    @inlinable
    final var ended: AtomicFlag { AtomicFlag(pairIn: self) }
    /// The end that releasing the input sends.
    @usableFromInline let releaseEnd: ChannelEnd
    /// Sends `releaseEnd` for `deinit`. A deinitializer of a generic class is never specialised,
    /// so it calls this closure, formed where the input is made (specialised for `Value`),
    /// rather than the channel's generic code, which would look up type metadata on each release.
    @usableFromInline let sendReleaseEnd: (ChannelInput<Value>) -> Void

    @inlinable
    init(channel: Channel<Value>, generation: UInt, releaseEnd: ChannelEnd = .cancelled) {
        atomicsStorage = AtomicWordAndFlagStorage(word: generation, flag: false)
        self.channel = channel
        self.releaseEnd = releaseEnd
        sendReleaseEnd = { input in
            _ = input.channel.deliver(.failure(input.releaseEnd), from: input, cancelling: true)
        }
    }

    deinit {
        if !ended.loadRelaxed() { sendReleaseEnd(self) }
    }

    /// Sends `result`; an end (a failure) ends the channel and uses up the input.
    ///
    /// - Parameter result: A value, or the end (`.failure`) that ends the channel.
    /// - Returns: `nil` when the result was delivered or queued for delivery; `.inactive` when no
    ///   output is attached; `.disconnected` when this input's activation has ended.
    @inlinable @discardableResult
    public final func send(result: sending Result<Value, ChannelEnd>) -> ChannelSendError? {
        let error = channel.deliver(result, from: self)
        // An end that got through uses the input up: releasing it has nothing left to end.
        if error == nil, case .failure = result { ended.storeRelaxed(true) }
        return error
    }

    /// Sends `value`.
    ///
    /// - Parameter value: The value to send.
    /// - Returns: `nil` when the value was delivered or queued, else why it went nowhere.
    @inlinable @discardableResult
    public final func send(value: sending Value) -> ChannelSendError? {
        channel.deliver(.success(value), from: self)
    }

    /// Ends the channel with `.other(error)` (or `error` itself if it is a `ChannelEnd`).
    ///
    /// - Parameter error: Why the channel ends.
    /// - Returns: `nil` when the end was delivered or queued, else why it went nowhere.
    @discardableResult
    public final func send(error: any Error) -> ChannelSendError? {
        send(result: .failure(ChannelEnd(error)))
    }

    /// Ends the channel with `end`.
    ///
    /// - Parameter end: How the channel ends.
    /// - Returns: `nil` when the end was delivered or queued, else why it went nowhere.
    @discardableResult
    public final func send(end: ChannelEnd) -> ChannelSendError? {
        send(result: .failure(end))
    }

    /// Ends the channel with `.complete`.
    ///
    /// - Returns: `nil` when the end was delivered or queued, else why it went nowhere.
    @discardableResult
    public final func complete() -> ChannelSendError? {
        send(result: .failure(.complete))
    }

    /// Ends the channel with `.complete` (CwlSignal's older name).
    ///
    /// - Returns: `nil` when the end was delivered or queued, else why it went nowhere.
    @discardableResult
    public final func close() -> ChannelSendError? {
        complete()
    }

    /// Ends the channel with `.cancelled`, as releasing the input does (A7).
    public final func cancel() {
        guard !ended.exchangeAcquiringAndReleasing(true) else { return }
        _ = sendCancellation()
    }

    func sendCancellation() -> ChannelSendError? {
        channel.deliver(.failure(.cancelled), from: self, cancelling: true)
    }

    /// Remembers the activation the channel bound this input to, so later sends take the
    /// uncontended path.
    @usableFromInline
    func learnBinding(_ bound: UInt) {
        _ = generation.compareExchangeReleasing(
            expected: ChannelGeneration.unbound, desired: bound)
    }

    /// Whether the input can no longer deliver: it was cancelled, its end got through, or a
    /// junction replaced it.
    public var isDisposed: Bool {
        ended.loadAcquiring() || generation.loadAcquiring() == ChannelGeneration.revoked
    }

    /// Same as `cancel()`.
    public func dispose() {
        cancel()
    }

    /// Stops this input for good without ending its channel (a junction took its place).
    func revoke() {
        ended.storeReleasing(true)
        generation.storeReleasing(ChannelGeneration.revoked)
    }
}

// @unchecked Sendable: an input's own state is atomic (`atomicsStorage` is never accessed after
// `init` but through `generation`'s and `ended`'s atomic operations), and its channel is Sendable.
// For any `Value`: the sends take their value as `sending`, so a value sent from another thread
// is handed over whole, and the input exposes no value of its own.
extension ChannelInput: @unchecked Sendable {}

extension Channel {
    /// Makes an input and the channel it sends into.
    ///
    /// - Returns: The input and its channel; the channel is inert until an output attaches below it
    ///   (A1).
    public static func create() -> (input: ChannelInput<Value>, channel: Channel<Value>) {
        let channel = Channel(source: .inert())
        let input = ChannelInput(channel: channel, generation: ChannelGeneration.unbound)
        channel.storage.withLock { $0.firstInput = ObjectIdentifier(input) }
        return (input, channel)
    }

    /// Makes an input and a channel, and hands the channel to `compose` (for example
    /// `create { $0.continuous() }`).
    ///
    /// - Parameter compose: Builds on the new channel (operators, `multicast`, …); called once,
    ///   now.
    /// - Returns: The input and what `compose` returned.
    public static func create<U>(
        _ compose: (Channel<Value>) throws -> U
    ) rethrows -> (input: ChannelInput<Value>, composed: U) {
        let (input, channel) = create()
        return (input, try compose(channel))
    }
}
