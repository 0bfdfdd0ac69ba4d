// Reference models of the operators that work value by value (transforming, filtering,
// aggregating), written from Docs/Operators.md and ReactiveSwift's documented behaviour.

/// Models keyed by operator, each a plain function from inputs to outputs.
enum ValueModels {
    /// `scan(initial, +)`: every running total.
    static func runningSum(from initial: Int) -> FuzzModel<Int> {
        unaryModel { events in
            var total = initial
            return events.map { event in
                guard case .value(let value) = event else { return event }
                total += value
                return .value(total)
            }
        }
    }

    /// `combinePrevious(initial)` (or, without one, pairs only from the second value on).
    static func pairs(initial: Int?) -> FuzzModel<[Int]> {
        unaryModel { events in
            var previous = initial
            return events.compactMap { event in
                guard case .value(let value) = event else { return event.retyped() }
                defer { previous = value }
                return previous.map { .value([$0, value]) }
            }
        }
    }

    /// `materialize()`: each event as a value; a terminal event then ends the stream, with
    /// `interrupted` after an interruption and `completed` otherwise.
    static let materialized: FuzzModel<String> = unaryModel { events in
        events.flatMap { event -> [ModelEvent<String>] in
            switch event {
            case .value: [.value(event.description)]
            case .interrupted: [.value(event.description), .interrupted]
            case .failed, .completed: [.value(event.description), .completed]
            }
        }
    }

    /// Forwards values while `keep` says so (dropping the one that fails it, or sending it when
    /// `sendsLast`), then completes.
    static func taking(while keep: @escaping @Sendable (Int) -> Bool, sendsLast: Bool = false) -> FuzzModel<Int> {
        unaryModel { events in
            var output: [ModelEvent<Int>] = []
            for event in events {
                guard case .value(let value) = event else { return output + [event] }
                if keep(value) {
                    output.append(event)
                } else {
                    return output + (sendsLast ? [event] : []) + [.completed]
                }
            }
            return output
        }
    }

    /// `take(first: count)`.
    static func takingFirst(_ count: Int) -> FuzzModel<Int> {
        unaryModel { events in
            var output: [ModelEvent<Int>] = []
            var taken = 0
            if count <= 0 { return [.completed] }
            for event in events {
                output.append(event)
                guard case .value = event else { break }
                taken += 1
                if taken == count {
                    output.append(.completed)
                    break
                }
            }
            return output
        }
    }

    /// `take(last: count)`: the last values, sent at completion; a failure or an interruption
    /// drops them.
    static func takingLast(_ count: Int) -> FuzzModel<Int> {
        unaryModel { events in
            var kept: [Int] = []
            for event in events {
                switch event {
                case .value(let value):
                    kept.append(value)
                    if kept.count > count { kept.removeFirst() }
                case .completed: return kept.map { .value($0) } + [.completed]
                case .failed, .interrupted: return [event]
                }
            }
            return []
        }
    }

    /// Drops values while `stateful` returns `false`; `stateful` sees each value in order and
    /// may keep state (skipping, repeats, unique values).
    static func keeping(_ makeTest: @escaping @Sendable () -> (Int) -> Bool) -> FuzzModel<Int> {
        unaryModel { events in
            let test = makeTest()
            return events.filter { event in
                guard case .value(let value) = event else { return true }
                return test(value)
            }
        }
    }

    /// `skip(first: count)`.
    static func skippingFirst(_ count: Int) -> FuzzModel<Int> {
        keeping {
            var seen = 0
            return { _ in
                seen += 1
                return seen > count
            }
        }
    }

    /// `skip(while: test)`.
    static func skipping(while test: @escaping @Sendable (Int) -> Bool) -> FuzzModel<Int> {
        keeping {
            var open = false
            return { value in
                if !open && !test(value) { open = true }
                return open
            }
        }
    }

    static let withoutRepeats: FuzzModel<Int> = keeping {
        var last: Int?
        return { value in
            defer { last = value }
            return last != value
        }
    }

    static let uniques: FuzzModel<Int> = uniques { $0 }

    /// `uniqueValues(key)`: drops a value whose key was seen before.
    static func uniques(_ key: @escaping @Sendable (Int) -> Int) -> FuzzModel<Int> {
        keeping {
            var seen = Set<Int>()
            return { seen.insert(key($0)).inserted }
        }
    }

    /// `skipRepeats(isEquivalent)` with equivalence by `key`.
    static func withoutRepeats(by key: @escaping @Sendable (Int) -> Int) -> FuzzModel<Int> {
        keeping {
            var last: Int?
            return { value in
                defer { last = key(value) }
                return last != key(value)
            }
        }
    }

    /// `scanMap(initial) { state, value in (state + value, state * 10 + value) }`.
    static func scanMapped(from initial: Int) -> FuzzModel<Int> {
        unaryModel { events in
            var state = initial
            return events.map { event in
                guard case .value(let value) = event else { return event }
                defer { state += value }
                return .value(state * 10 + value)
            }
        }
    }

    /// What a producer-only operator does at the source's terminal event: `completed` becomes
    /// `onCompletion`, `failed` becomes `onFailure` (unchanged by default); values pass unless
    /// `dropsValues`; `startsWith` goes out first; with `interruptedCompletes`, an interruption is
    /// handled as a completion (concatenation is flattening, E4).
    static func producerEnding(
        startsWith: [Int] = [],
        dropsValues: Bool = false,
        onCompletion: [ModelEvent<Int>] = [.completed],
        onFailure: (@Sendable (Int) -> [ModelEvent<Int>])? = nil,
        interruptedCompletes: Bool = false
    ) -> FuzzModel<Int> {
        unaryModel { events in
            startsWith.map { .value($0) }
                + events.flatMap { event -> [ModelEvent<Int>] in
                    switch event {
                    case .value: dropsValues ? [] : [event]
                    case .completed: onCompletion
                    case .failed(let code): onFailure?(code) ?? [event]
                    case .interrupted: interruptedCompletes ? onCompletion : [event]
                    }
                }
        }
    }

    /// `collect(count:)`, `collect()` and `collect(shouldEmit)`: the gathered values are sent
    /// whenever `emits` holds for them (after adding each value), and what is left at completion if
    /// not empty, or an empty array if no value arrived at all (ReactiveSwift's `Collect` does the
    /// same for every variant).
    static func collecting(when emits: @escaping @Sendable ([Int]) -> Bool) -> FuzzModel<[Int]> {
        unaryModel { events in
            var output: [ModelEvent<[Int]>] = []
            var batch: [Int] = []
            for event in events {
                switch event {
                case .value(let value):
                    batch.append(value)
                    if emits(batch) {
                        output.append(.value(batch))
                        batch = []
                    }
                case .completed:
                    if !batch.isEmpty || !events.contains(where: { !$0.isTerminal }) { output.append(.value(batch)) }
                    output.append(.completed)
                case .failed, .interrupted:
                    output.append(event.retyped())
                }
            }
            return output
        }
    }

    /// `reduce(initial, +)`: one value, the total, at completion.
    static func total(from initial: Int) -> FuzzModel<Int> {
        unaryModel { events in
            var total = initial
            for event in events {
                switch event {
                case .value(let value): total += value
                case .completed: return [.value(total), .completed]
                case .failed, .interrupted: return [event]
                }
            }
            return []
        }
    }
}

extension ModelEvent {
    /// A terminal event as one of another value type (values are not allowed here).
    func retyped<U>() -> ModelEvent<U> {
        switch self {
        case .value: preconditionFailure("Fuzz: retyped() is for terminal events")
        case .failed(let code): .failed(code)
        case .completed: .completed
        case .interrupted: .interrupted
        }
    }
}
