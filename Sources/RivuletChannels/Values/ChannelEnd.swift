/// How a channel ends: the failure side of every `Result` a channel carries.
///
/// A channel's stream is any number of values and then at most one end. `complete` is success,
/// `cancelled` says that the sending side went away (an input was released or cancelled), and
/// `other` carries an error from a processor or a sender.
public enum ChannelEnd: Error {
    /// The stream finished normally.
    case complete
    /// The sending side was released or cancelled before it finished (A7).
    case cancelled
    /// The stream failed with `error`.
    case other(any Error)

    /// Whether this end is `complete`.
    public var isComplete: Bool {
        if case .complete = self { return true }
        return false
    }

    /// Whether this end is `cancelled`.
    public var isCancelled: Bool {
        if case .cancelled = self { return true }
        return false
    }

    /// The error of an `other` end, else `nil`.
    public var otherError: (any Error)? {
        if case let .other(error) = self { return error }
        return nil
    }
}

/// Why a value sent into a `ChannelInput` went nowhere. A send returns `nil` when its value was
/// delivered or queued for delivery.
public enum ChannelSendError: Error, Equatable, Sendable {
    /// No output is attached to the channel (yet): the value was dropped (A5).
    case inactive
    /// The input's activation has ended (its graph deactivated, its channel ended, or it was
    /// replaced by a junction); it will never deliver again.
    case disconnected
}

/// Why `ChannelJunction.bind(to:)` or `ChannelCapture.bind(to:)` failed.
public enum ChannelBindError<Value>: Error {
    /// The input is no longer its channel's current input (it was replaced, or its channel ended).
    case cancelled
    /// Binding would connect the channel to itself.
    case loop
    /// The junction or capture is already bound, or the channel already has an output; carries
    /// the input given to `bind(to:)`, if any.
    case duplicate(ChannelInput<Value>?)
}

/// Which of a capture's activation values are sent again when it resumes.
public enum ChannelActivationSelection: Sendable {
    /// Every captured value, in order.
    case all
    /// Every captured value, in order (CwlSignal's name for replaying them as ordinary values).
    case deferred
    /// Every captured value, in order, with the first of them leading.
    case first
    /// Only the last captured value.
    case last
    /// Nothing.
    case none
}

/// Which ends of a merged input's source reach the merged channel.
public enum ChannelEndPropagation: Sendable {
    /// No end of the source ends the channel; the source is only detached.
    case none
    /// Only `other` ends (errors) end the channel.
    case errors
    /// Every end ends the channel.
    case all

    func propagates(_ end: ChannelEnd) -> Bool {
        switch (self, end) {
        case (.all, _): return true
        case (.errors, .other): return true
        default: return false
        }
    }
}

/// Errors raised by Rivulet's built-in channel operators.
public enum ChannelReactiveError: Error, Equatable, Sendable {
    /// `timeout(interval:resetOnValue:context:)` saw no value in time.
    case timeout
}
