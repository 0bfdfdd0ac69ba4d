import RivuletContracts
import Testing

extension Trait where Self == LiveObjectsKept {
    /// The opt-out of a test whose output's handler keeps its own output (to cancel it from
    /// inside): a known leak (issue 19), since a cancelled output's link keeps its handler
    /// (`OutputLink.resultHandler` and the consumer's closures are `let`s), so `cancel()` does not
    /// break the cycle handler → output → link → handler.
    static var cancelledOutputKeepsItsHandler: Self {
        .keepsLiveObjects(
            "a known leak (issue 19): the handler keeps its own output, and a cancelled output's link keeps its handler (OutputLink.resultHandler is a let), so cancel() does not break the cycle"
        )
    }
}
