// Reference models of the two-input operators (combining and gating) and of the error handling
// operators, written from Docs/Operators.md, the operators' documentation and ReactiveSwift's
// documented behaviour. Port 1 reaches the gating operators as a stream that cannot fail (its
// failure becomes a completion), so the models read a failure of port 1 as a completion.

enum CombiningModels {
    /// The inputs of both ports in order, each port cut after its terminal event.
    static func events(_ inputs: [ModelInput]) -> [(port: Int, event: ModelEvent<Int>)] {
        var ended: Set<Int> = []
        return inputs.compactMap { input in
            guard case .event(let port, let event) = input.asSourceEvent, !ended.contains(port) else { return nil }
            if event.isTerminal { ended.insert(port) }
            return (port, event)
        }
    }

    /// `merge`: every value; fails at once; an interrupted input stops contributing; completes
    /// once both inputs have ended.
    static let merge: FuzzModel<Int> = { inputs in
        var done = 0
        var output: [ModelEvent<Int>] = []
        for (_, event) in events(inputs) {
            switch event {
            case .value, .failed: output.append(event)
            case .completed, .interrupted:
                done += 1
                if done == 2 { output.append(.completed) }
            }
        }
        return grammatical(output)
    }

    /// `combineLatest`: pairs of the latest values once both have one; completes when both have
    /// completed; fails or is interrupted as soon as either is.
    static let combineLatest: FuzzModel<[Int]> = { inputs in
        var latest: [Int?] = [nil, nil]
        var completed = 0
        var output: [ModelEvent<[Int]>] = []
        for (port, event) in events(inputs) {
            switch event {
            case .value(let value):
                latest[port] = value
                if let first = latest[0], let second = latest[1] { output.append(.value([first, second])) }
            case .completed:
                completed += 1
                if completed == 2 { output.append(.completed) }
            case .failed, .interrupted: output.append(event.retyped())
            }
        }
        return grammatical(output)
    }

    /// `zip`: pairs by position; completes as soon as a completed input has no unpaired value
    /// left; fails or is interrupted as soon as either is.
    static let zip: FuzzModel<[Int]> = { inputs in
        var buffers: [[Int]] = [[], []]
        var completed: [Bool] = [false, false]
        var output: [ModelEvent<[Int]>] = []
        for (port, event) in events(inputs) {
            switch event {
            case .value(let value):
                buffers[port].append(value)
                if !buffers[0].isEmpty && !buffers[1].isEmpty {
                    output.append(.value([buffers[0].removeFirst(), buffers[1].removeFirst()]))
                }
            case .completed: completed[port] = true
            case .failed, .interrupted: output.append(event.retyped())
            }
            if (0..<2).contains(where: { completed[$0] && buffers[$0].isEmpty }) { output.append(.completed) }
        }
        return grammatical(output)
    }

    /// `take(until: trigger)`: forwards port 0 until port 1 sends a value or completes, then
    /// completes; an interruption of the trigger is ignored.
    static let takeUntil: FuzzModel<Int> = { inputs in
        var output: [ModelEvent<Int>] = []
        for (port, event) in events(inputs) {
            if port == 0 {
                output.append(event)
            } else if event != .interrupted {
                output.append(.completed)
            }
        }
        return grammatical(output)
    }

    /// `skip(until: trigger)`: drops port 0's values until port 1 sends a value or completes;
    /// port 0's terminal events pass at once; the trigger's interruption before it fired
    /// interrupts the result.
    static let skipUntil: FuzzModel<Int> = { inputs in
        var open = false
        var output: [ModelEvent<Int>] = []
        for (port, event) in events(inputs) {
            if port == 0 {
                if open || event.isTerminal { output.append(event) }
            } else if !open {
                if event == .interrupted { output.append(.interrupted) } else { open = true }
            }
        }
        return grammatical(output)
    }

    /// `sample(with:)` (pairs) or `sample(on:)` (values): at each port-1 value, the latest port-0
    /// value if there is one; completes once both have completed; fails when port 0 fails;
    /// interrupted when either is.
    static func sample(paired: Bool) -> FuzzModel<[Int]> {
        { inputs in
            var latest: Int?
            var completed = 0
            var output: [ModelEvent<[Int]>] = []
            for (port, event) in events(inputs) {
                switch (port, event) {
                case (0, .value(let value)): latest = value
                case (_, .value(let value)):
                    if let latest { output.append(.value(paired ? [latest, value] : [latest])) }
                case (_, .interrupted): output.append(.interrupted)
                case (0, .failed(let code)): output.append(.failed(code))
                case (_, .failed), (_, .completed):
                    completed += 1
                    if completed == 2 { output.append(.completed) }
                }
            }
            return grammatical(output)
        }
    }

    /// `withLatest(from:)`: pairs each port-0 value with port 1's latest value (dropped before
    /// there is one); ends with port 0; port 1's terminal events are ignored.
    static let withLatest: FuzzModel<[Int]> = { inputs in
        var latest: Int?
        var output: [ModelEvent<[Int]>] = []
        for (port, event) in events(inputs) {
            switch (port, event) {
            case (1, .value(let value)): latest = value
            case (1, _): break
            case (_, .value(let value)): if let latest { output.append(.value([value, latest])) }
            default: output.append(event.retyped())
            }
        }
        return grammatical(output)
    }
}

enum ErrorModels {
    /// `mapError`: failures carry `transform(code)`.
    static func mapError(_ transform: @escaping @Sendable (Int) -> Int) -> FuzzModel<Int> {
        unaryModel { events in events.map { if case .failed(let code) = $0 { .failed(transform(code)) } else { $0 } } }
    }

    /// `flatMapError` switching to a producer of `recovery(code)` that then completes (or, with
    /// `refail`, fails with `code + 1`).
    static func flatMapError(_ recovery: @escaping @Sendable (Int) -> [Int], refail: Bool = false) -> FuzzModel<Int> {
        unaryModel { events in
            events.flatMap { event -> [ModelEvent<Int>] in
                guard case .failed(let code) = event else { return [event] }
                return recovery(code).map { .value($0) } + [refail ? .failed(code + 1) : .completed]
            }
        }
    }
}
