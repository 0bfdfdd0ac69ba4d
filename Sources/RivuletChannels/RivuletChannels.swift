// Activation channels (CwlSignal's model) built on Rivulet's core.
//
// The channel types (`Channel`, `ChannelInput`, `ChannelOutput`, `ChannelMulti`, ...) land with the
// channels issue, together with their tests (a RivuletChannelsTests target) and `ChannelContract`.
// Until then this module holds no API of its own: it re-exports the core so that the product and its
// import are stable from the start.
@_exported import Rivulet
