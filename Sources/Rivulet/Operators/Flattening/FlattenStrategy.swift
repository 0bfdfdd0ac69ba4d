/// How `flatten(_:)` and `flatMap(_:_:)` turn a stream of streams into one stream of values.
///
/// Every strategy forwards a failure of the outer stream or of a running inner stream at once
/// (E2), and forwards an interruption of the outer stream at once (E4). An inner stream that is
/// interrupted simply stops: the flattened stream goes on as if that inner stream had completed;
/// only `.race` and `.throttle`, whose output is one inner stream's events, forward it instead.
/// Disposing of the flattened stream disposes of the outer stream and of every inner stream (P4).
public struct FlattenStrategy: Sendable, Hashable, CustomStringConvertible {
    /// The strategies, as the flattening state machine sees them.
    @usableFromInline
    enum Kind: Sendable, Hashable {
        /// At most `limit` inner streams run at once; later ones wait in arrival order.
        case concurrent(limit: UInt)
        /// Only the newest inner stream runs; a new one replaces it.
        case latest
        /// The first inner stream to send an event wins; the others are dropped.
        case race
        /// A new inner stream is dropped while one is running.
        case throttle
    }

    @usableFromInline let kind: Kind

    @usableFromInline
    init(kind: Kind) {
        self.kind = kind
    }

    /// Runs every inner stream as soon as it arrives and forwards all their values as they come.
    ///
    /// Completes once the outer stream and every inner stream have completed.
    public static let merge = FlattenStrategy(kind: .concurrent(limit: .max))

    /// Runs the inner streams one after the other, in arrival order: an inner stream that
    /// arrives while another runs waits until every earlier one has completed.
    ///
    /// Completes once the outer stream and every inner stream have completed.
    public static let concat = FlattenStrategy(kind: .concurrent(limit: 1))

    /// Runs at most `limit` inner streams at once; the others wait in arrival order and start
    /// as running ones complete. `.concurrent(limit: 1)` is `.concat`.
    ///
    /// Completes once the outer stream and every inner stream have completed.
    ///
    /// - Parameter limit: The most inner streams that run at once; greater than 0 (precondition).
    /// - Returns: The strategy; `.concurrent(limit: 1)` equals `.concat`, and a limit of
    ///   `UInt.max` equals `.merge`.
    /// - Precondition: `limit` is greater than zero.
    public static func concurrent(limit: UInt) -> FlattenStrategy {
        precondition(limit > 0, "Rivulet: FlattenStrategy.concurrent(limit:): limit is \(limit); it must be greater than 0")
        return FlattenStrategy(kind: .concurrent(limit: limit))
    }

    /// Forwards only the newest inner stream: when another arrives, the running one is disposed of
    /// and nothing it sends afterwards is forwarded.
    ///
    /// Completes once the outer stream and the newest inner stream have completed.
    public static let latest = FlattenStrategy(kind: .latest)

    /// Runs the inner streams that arrive until one of them sends its first event; that one wins,
    /// the others are disposed of, and later inner streams are ignored.
    ///
    /// Completes once the outer stream and the winner have completed. An interruption is an event
    /// like any other: a contender whose first event is `interrupted` wins, and the interruption of
    /// the winner interrupts the flattened stream, as in ReactiveSwift.
    public static let race = FlattenStrategy(kind: .race)

    /// Ignores every inner stream that arrives while one is running; once the running one
    /// completes, the next inner stream to arrive runs.
    ///
    /// Completes once the outer stream and the running inner stream (if any) have completed. The
    /// interruption of the running inner stream interrupts the flattened stream, as in
    /// ReactiveSwift.
    public static let throttle = FlattenStrategy(kind: .throttle)

    /// The strategy's name, as written in code: `merge`, `concat`, `concurrent(limit: 3)`, ….
    public var description: String {
        switch kind {
        case .concurrent(limit: .max): "merge"
        case .concurrent(limit: 1): "concat"
        case let .concurrent(limit): "concurrent(limit: \(limit))"
        case .latest: "latest"
        case .race: "race"
        case .throttle: "throttle"
        }
    }
}
