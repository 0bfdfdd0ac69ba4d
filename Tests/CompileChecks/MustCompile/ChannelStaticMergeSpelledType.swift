// Sound pattern, channels: the static `merge` with its type's argument spelled out. Because
// `Channel` is `Sendable` only where its values are, Swift 6.3 cannot infer the argument of
// `Channel.merge(a, b)` (swiftlang/swift#80146: an instance `merge` exists too); `Channel<Int>`
// or the instance form compiles.

import RivuletChannels

func merged(_ first: Channel<Int>, _ second: Channel<Int>) -> (Channel<Int>, Channel<Int>) {
    (Channel<Int>.merge(first, second), first.merge(second))
}
