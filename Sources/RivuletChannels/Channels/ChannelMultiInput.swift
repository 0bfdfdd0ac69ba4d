/// An input that stays valid across deactivations (`inactive` while nothing listens) and can
/// also take whole channels as sources: `add(_:)` makes a channel feed this input's channel,
/// and a source's end only detaches that source. `cancel()` or releasing the input ends the
/// channel with `.cancelled`.
public class ChannelMultiInput<Value>: ChannelInput<Value> {
    let sources: MultiInputSource<Value>

    init(channel: Channel<Value>, sources: MultiInputSource<Value>, releaseEnd: ChannelEnd = .cancelled) {
        self.sources = sources
        super.init(channel: channel, generation: ChannelGeneration.current, releaseEnd: releaseEnd)
    }

    /// Makes `source` feed this input's channel until `source` ends or is removed.
    ///
    /// - Parameter source: The channel to add; it is activated while this channel is active.
    public func add(_ source: sending Channel<Value>) {
        sources.add(source, propagation: .none, removeOnDeactivate: false)
    }

    /// Stops `source` feeding this input's channel.
    ///
    /// - Parameter source: A channel added before.
    public func remove(_ source: Channel<Value>) {
        sources.remove(source)
    }

    /// A separate single-use input into the same channel; its end only detaches it.
    ///
    /// - Returns: The new input.
    public func singleInput() -> ChannelInput<Value> {
        let (input, channel) = Channel<Value>.create()
        add(channel)
        return input
    }
}

/// A multi-input whose sources may end the channel: `add(_:closePropagation:)` says which of a
/// source's ends get through, `onLastInputClosed` ends the channel when its last source ends,
/// and releasing the input ends it with `onDeinit`.
public final class ChannelMergedInput<Value>: ChannelMultiInput<Value> {
    /// Adds `source`, letting the ends that `closePropagation` names end the channel.
    ///
    /// - Parameters:
    ///   - source: The channel to add.
    ///   - closePropagation: Which of its ends reach the channel.
    public func add(_ source: sending Channel<Value>, closePropagation: ChannelEndPropagation) {
        sources.add(source, propagation: closePropagation, removeOnDeactivate: false)
    }

    /// Adds `source` as `add(_:closePropagation:)` does; with `removeOnDeactivate`, the source
    /// is removed when the channel deactivates.
    ///
    /// - Parameters:
    ///   - source: The channel to add.
    ///   - closePropagation: Which of its ends reach the channel.
    ///   - removeOnDeactivate: Whether deactivation removes the source.
    public func add(
        _ source: sending Channel<Value>, closePropagation: ChannelEndPropagation, removeOnDeactivate: Bool
    ) {
        sources.add(source, propagation: closePropagation, removeOnDeactivate: removeOnDeactivate)
    }
}

extension Channel {
    /// Makes a multi-input and the channel it feeds.
    ///
    /// - Returns: The input and its channel.
    public static func createMultiInput() -> (input: ChannelMultiInput<Value>, channel: Channel<Value>) {
        let sources = MultiInputSource<Value>(onLastInputClosed: nil)
        let channel = Channel(source: .of(sources))
        return (ChannelMultiInput(channel: channel, sources: sources), channel)
    }

    /// Makes a merged input and the channel it feeds.
    ///
    /// - Parameters:
    ///   - onLastInputClosed: The end the channel takes when its last source ends (`nil`: none).
    ///   - onDeinit: The end the channel takes when the input is released.
    /// - Returns: The input and its channel.
    public static func createMergedInput(
        onLastInputClosed: ChannelEnd? = nil, onDeinit: ChannelEnd = .cancelled
    ) -> (input: ChannelMergedInput<Value>, channel: Channel<Value>) {
        let sources = MultiInputSource<Value>(onLastInputClosed: onLastInputClosed)
        let channel = Channel(source: .of(sources))
        return (ChannelMergedInput(channel: channel, sources: sources, releaseEnd: onDeinit), channel)
    }
}

// @unchecked Sendable: as `ChannelInput`; the sources' state is under their own lock.
extension ChannelMultiInput: @unchecked Sendable {}

// @unchecked Sendable: as `ChannelMultiInput`.
extension ChannelMergedInput: @unchecked Sendable {}
