import Rivulet

/// A channel node's storage counts as a `channelNode` among `LiveObjects` (debug builds).
extension ChannelNodeState: LiveObjectKindOfState {
    package static var liveObjectKind: LiveObjects.Kind { .channelNode }
}
