/// One step of a generated event script. Ports are the operator's inputs (0 is the receiver, 1 the
/// other stream of a binary operator: the trigger, sampler or second source).
enum FuzzStep: Equatable, Sendable {
    case send(port: Int, Int)
    case fail(port: Int, Int)
    case complete(port: Int)
    case interrupt(port: Int)
    /// Advances the `TestScheduler` by this many one-second ticks, one at a time.
    case advance(Int)
    /// A new observer starts observing the operator's signal (signal form only).
    case join
    /// The observer that joined `n`-th (0 is the first) stops observing (signal form only).
    case leave(Int)
    /// Every observer of the signal form stops observing; the producer form's start is disposed.
    case dispose
    /// The first observer, at its next value, sends this value into port 0 (a re-entrant send).
    case reenter(Int)
    /// At its next value, the first observer disposes of its own observation (signal form) or of
    /// the start it observes (producer form), from inside its delivery. Once per script.
    case disposeFromInside

    /// The step as a line of Swift-like code, for a failure's reproduction.
    var code: String {
        switch self {
        case .send(let port, let value): "\(Self.input(port)).send(value: \(value))"
        case .fail(let port, let code): "\(Self.input(port)).send(error: TestError(\(code)))"
        case .complete(let port): "\(Self.input(port)).sendCompleted()"
        case .interrupt(let port): "\(Self.input(port)).sendInterrupted()"
        case .advance(let ticks): "scheduler.advance(by: \(ticks))  // \(ticks) one-second ticks"
        case .join: "observers.append(output.observe(recorder()))  // signal form only"
        case .leave(let index): "observers[\(index)].dispose()  // signal form only"
        case .dispose: "disposeEverything()  // signal: every observer leaves; producer: dispose the start"
        case .reenter(let value): "reenterNextValue { input.send(value: \(value)) }  // from observer 0"
        case .disposeFromInside: "atNextValue { observers[0].dispose() }  // from inside; producer: dispose the start"
        }
    }

    private static func input(_ port: Int) -> String { port == 0 ? "input" : "other" }
}

/// What kinds of steps a family's scripts contain.
struct FuzzShape: Sendable {
    /// How many input streams the operators take (1 or 2).
    var ports = 1
    /// Whether scripts advance a `TestScheduler`.
    var timed = false
    /// Values are drawn from `0..<valueRange`: small, so that repeats and predicates both happen.
    var valueRange = 6
    /// The longest script.
    var maxSteps = 16
    /// Whether observers send re-entrantly.
    var reentrant = true
}

/// A generated script: its seed and its steps.
struct FuzzScript: Sendable, CustomStringConvertible {
    var seed: UInt64
    var steps: [FuzzStep]

    /// Generates the script of `seed` for a family of `shape`.
    init(seed: UInt64, shape: FuzzShape) {
        self.seed = seed
        var random = FuzzRandom(seed: seed)
        var steps: [FuzzStep] = []
        let count = random.below(shape.maxSteps + 1)
        var observers = 1
        for _ in 0..<count {
            let port = shape.ports > 1 && random.chance(35) ? 1 : 0
            let roll = random.below(100)
            switch roll {
            case 0..<50:
                steps.append(.send(port: port, random.below(shape.valueRange)))
            case 50..<54:
                steps.append(.fail(port: port, random.below(3)))
            case 54..<59:
                steps.append(.complete(port: port))
            case 59..<61:
                steps.append(.interrupt(port: port))
            case 61..<66:
                steps.append(.join)
                observers += 1
            case 66..<70:
                steps.append(.leave(random.below(observers)))
            case 70..<72:
                steps.append(.dispose)
            case 72..<77 where shape.reentrant:
                steps.append(.reenter(random.below(shape.valueRange)))
            case 77..<80:
                steps.append(.disposeFromInside)
            case 80..<100 where shape.timed:
                steps.append(.advance(1 + random.below(4)))
            default:
                steps.append(.send(port: port, random.below(shape.valueRange)))
            }
        }
        if shape.timed { steps.append(.advance(12)) }
        self.steps = steps
    }

    init(seed: UInt64, steps: [FuzzStep]) {
        self.seed = seed
        self.steps = steps
    }

    var description: String {
        (["// seed \(seed) (replay: RIVULET_FUZZ_SEED=\(seed))"] + steps.map(\.code)).joined(separator: "\n")
    }
}
