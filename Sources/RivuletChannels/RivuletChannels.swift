// Activation channels (CwlSignal's model) built on Rivulet's core: the channel types live in this
// module, and the core is re-exported so that one import gives both models and their bridges.
@_exported import Rivulet
