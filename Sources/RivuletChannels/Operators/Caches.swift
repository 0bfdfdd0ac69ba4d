extension Channel {
    /// The channel's current activation value, if it has one: it is captured and the capture let
    /// go at once, so on a plain channel this uses up its output (use it on multis).
    ///
    /// - Returns: The last activation value, or `nil`.
    public func peek() -> Value? {
        capture().peek()
    }

    /// A plain channel that activates this channel now and keeps every result until an output
    /// attaches; that output receives them first, in order.
    ///
    /// - Returns: The caching channel.
    public func cacheUntilActive() -> Channel<Value> {
        capture().resume(resend: .all)
    }

    /// Subscribes and keeps the latest value, readable at any time.
    ///
    /// - Returns: The cache; releasing it cancels its output.
    public func cacheLatest() -> ChannelLatest<Value> where Value: Sendable {
        ChannelLatest(self)
    }
}

/// The latest value of a channel, kept by an output of its own (`cacheLatest()`).
public final class ChannelLatest<Value: Sendable>: Disposable {
    private let latest = Locked<Value?>(nil)
    private var output: ChannelOutput<Value>?

    init(_ channel: Channel<Value>) {
        output = channel.subscribeValues { [latest] value in
            var replaced: Value? = value
            latest.withLock { swap(&$0, &replaced) }
            // The previous value is released here, after the lock (O7).
            withExtendedLifetime(replaced) {}
        }
    }

    /// The latest value received, or `nil` before the first.
    public var latestValue: Value? {
        latest.withLock { $0 }
    }

    /// Whether the cache's output was cancelled or its channel ended.
    public var isDisposed: Bool { output?.isClosed ?? true }

    /// Cancels the cache's output; `latestValue` keeps the last value.
    public func dispose() {
        output?.cancel()
    }
}

// @unchecked Sendable: the value is under its lock; `output` is set once in `init`. Its values
// are Sendable (`latestValue` hands them to any thread).
extension ChannelLatest: @unchecked Sendable {}
