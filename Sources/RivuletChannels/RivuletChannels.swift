import Rivulet

/// Activation channels (CwlSignal's model) built on Rivulet's core.
///
/// Placeholder: the channel types (`Channel`, `ChannelInput`, `ChannelOutput`, `ChannelMulti`, ...)
/// arrive with their own issue. This namespace exists so that the product and its import are
/// stable from the start.
public enum RivuletChannels {
    /// Whether the channel types are available yet. They are not: see the project's issues.
    public static let isAvailable = false
}
