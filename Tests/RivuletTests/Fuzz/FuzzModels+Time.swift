import Foundation
@testable import Rivulet

// Reference models of the flattening strategies and of the time-based operators, on the virtual
// clock of ModelClock, written from FlattenStrategy's and the timing operators' documentation and
// ReactiveSwift's behaviour (the time-based operators deliver on the scheduler, terminal events
// included: one hop "now", run at the next tick).

/// The inner stream flattening makes of an outer value `v`: `1 + v % 3` values `v * 10 + i`, one
/// every `gap` ticks, then completion (a failure with code 5 for `v == 5`). Test data, shared by
/// the model and the real inner producer.
struct FuzzInner {
    let timeline: [(offset: Int, event: ModelEvent<Int>)]

    init(_ value: Int) {
        let gap = 1 + (value / 3) % 2
        let count = 1 + value % 3
        var timeline = (0..<count).map { ((($0 + 1) * gap), ModelEvent<Int>.value(value * 10 + $0)) }
        timeline.append(((count + 1) * gap, value == 5 ? .failed(5) : .completed))
        self.timeline = timeline
    }

    /// The inner producer: schedules its timeline on the test scheduler at each start, and
    /// counts its starts and ends.
    static func producer(_ value: Int, _ inputs: FuzzInputs) -> SignalProducer<Int, TestError> {
        let timeline = FuzzInner(value).timeline
        return SignalProducer { observer, lifetime in
            inputs.innerStarts.increment()
            let scheduler = inputs.scheduler
            let start = scheduler.currentDate
            let scheduled = CompositeDisposable()
            for (offset, event) in timeline {
                scheduled += scheduler.schedule(after: start.addingTimeInterval(TimeInterval(offset))) {
                    observer.send(event.signalEvent)
                }
            }
            _ = lifetime.observeEnded {
                scheduled.dispose()
                inputs.innerEnds.increment()
            }
        }
    }
}

enum FlattenModelStrategy: Sendable {
    case merge, concat, concurrent(Int), latest, race, throttle
}

private struct FlattenState: Sendable {
    var running: [Int] = []
    var scheduled: [Int: [Int]] = [:]
    var waiting: [Int] = []
    var outerDone = false
    var raceWon = false
    var nextInner = 0
}

enum TimeModels {
    /// `flatten(strategy)` of the inner streams of FuzzInner.
    static func flatten(_ strategy: FlattenModelStrategy) -> FuzzModel<Int> {
        typealias Clock = ModelClock<(inner: Int, event: ModelEvent<Int>)>
        @Sendable func start(_ value: Int, _ state: inout FlattenState, _ clock: inout Clock) {
            let inner = state.nextInner
            state.nextInner += 1
            state.running.append(inner)
            state.scheduled[inner] = FuzzInner(value).timeline.map { clock.schedule(after: $0.offset, (inner, $0.event)) }
        }
        @Sendable func stop(_ inner: Int, _ state: inout FlattenState, _ clock: inout Clock) {
            state.scheduled.removeValue(forKey: inner)?.forEach { clock.cancel($0) }
            state.running.removeAll { $0 == inner }
        }
        @Sendable func finishIfDone(_ state: FlattenState, _ output: inout [ModelEvent<Int>]) {
            if state.outerDone, state.running.isEmpty, state.waiting.isEmpty { output.append(.completed) }
        }
        let limit: Int? =
            switch strategy {
            case .concat: 1
            case .concurrent(let limit): limit
            default: nil
            }
        return clockedModel(
            initial: FlattenState(),
            onInput: { state, clock, port, event, output in
                guard port == 0 else { return }
                switch event {
                case .value(let value):
                    switch strategy {
                    case .merge: start(value, &state, &clock)
                    case .concat, .concurrent:
                        if state.running.count < limit! { start(value, &state, &clock) } else { state.waiting.append(value) }
                    case .latest:
                        for inner in state.running { stop(inner, &state, &clock) }
                        start(value, &state, &clock)
                    case .race: if !state.raceWon { start(value, &state, &clock) }
                    case .throttle: if state.running.isEmpty { start(value, &state, &clock) }
                    }
                case .completed:
                    state.outerDone = true
                    finishIfDone(state, &output)
                case .failed, .interrupted:
                    clock.cancelAll()
                    output.append(event)
                }
            },
            onAction: { state, clock, action, output in
                let (inner, event) = action
                if case .race = strategy, !state.raceWon {
                    state.raceWon = true
                    for other in state.running where other != inner { stop(other, &state, &clock) }
                }
                switch event {
                case .value: output.append(event)
                case .failed, .interrupted: output.append(event)
                case .completed:
                    stop(inner, &state, &clock)
                    if let limit {
                        while state.running.count < limit, !state.waiting.isEmpty {
                            start(state.waiting.removeFirst(), &state, &clock)
                        }
                    }
                    finishIfDone(state, &output)
                }
            })
    }

    /// The shared part of the time-based operators: a failure or an interruption drops what is
    /// waiting and goes out on the scheduler's next turn.
    private static func hopsTerminal(_ event: ModelEvent<Int>, _ clock: inout ModelClock<ModelEvent<Int>>) {
        clock.cancelAll()
        clock.schedule(event)
    }

    /// `delay(interval)`: values and completion `interval` ticks later.
    static func delay(_ interval: Int) -> FuzzModel<Int> {
        clockedModel(
            initial: 0,
            onInput: { _, clock, port, event, _ in
                guard port == 0 else { return }
                switch event {
                case .value, .completed: clock.schedule(after: interval, event)
                case .failed, .interrupted: hopsTerminal(event, &clock)
                }
            },
            onAction: { _, _, event, output in output.append(event) },
            onDisposal: disposal)
    }

    /// A disposed start of a stage that delivers on the scheduler: what it holds is dropped and
    /// the interruption goes out on the scheduler, even after the source ended.
    private static let disposal: @Sendable (inout Int, inout ModelClock<ModelEvent<Int>>, inout [ModelEvent<Int>]) -> Void = {
        _, clock, _ in hopsTerminal(.interrupted, &clock)
    }

    /// `debounce(interval)` (dropping the pending value at completion): a value goes out once
    /// `interval` ticks pass without a newer one.
    static func debounce(_ interval: Int) -> FuzzModel<Int> {
        clockedModel(
            initial: 0,
            onInput: { _, clock, port, event, _ in
                guard port == 0 else { return }
                if case .value = event {
                    clock.cancelAll()
                    clock.schedule(after: interval, event)
                } else {
                    hopsTerminal(event, &clock)
                }
            },
            onAction: { _, _, event, output in output.append(event) },
            onDisposal: disposal)
    }

    private struct ThrottleState: Sendable {
        var pending: Int?
        var previous: Int?
    }

    /// `throttle(interval)`: the latest value at most once per `interval` ticks; at once (on the
    /// scheduler) if `interval` has passed since the last one went out.
    static func throttle(_ interval: Int) -> FuzzModel<Int> {
        clockedModel(
            initial: ThrottleState(),
            onInput: { state, clock, port, event, _ in
                guard port == 0 else { return }
                // A terminal event hops onto the scheduler and leaves the timer in place: a value
                // due now (scheduled earlier) still goes out first, one due later never does (as
                // in ReactiveSwift's Throttle).
                guard case .value(let value) = event else {
                    clock.schedule(event)
                    return
                }
                state.pending = value
                let due = state.previous.map { max(clock.now, $0 + interval) } ?? clock.now
                clock.cancelAll()
                clock.schedule(after: due - clock.now, .value(due))
            },
            onAction: { state, clock, action, output in
                guard case .value(let due) = action else { return output.append(action) }
                if let pending = state.pending {
                    output.append(.value(pending))
                    state.pending = nil
                    state.previous = due
                }
            },
            onDisposal: { _, clock, _ in hopsTerminal(.interrupted, &clock) })
    }

    /// `timeout(after: interval, raising: TestError(code))`: passes events through, and fails if
    /// no terminal event came within `interval` ticks of the start.
    static func timeout(_ interval: Int, code: Int) -> FuzzModel<Int> {
        clockedModel(
            initial: 0,
            onInput: { _, clock, port, event, output in
                guard port == 0 else { return }
                if event.isTerminal { clock.cancelAll() }
                output.append(event)
            },
            onAction: { (_: inout Int, _: inout ModelClock<Int>, _: Int, output: inout [ModelEvent<Int>]) in
                output.append(.failed(code))
            },
            onStart: { _, clock in clock.schedule(after: interval, code) })
    }

    private struct CollectEveryState: Sendable {
        var batch: [Int] = []
    }

    /// `collect(every: interval)` (sending empty arrays, dropping what was gathered at completion):
    /// a tick every `interval` from the start sends the values gathered since the last one.
    static func collectEvery(_ interval: Int) -> FuzzModel<[Int]> {
        clockedModel(
            initial: CollectEveryState(),
            onInput: { state, clock, port, event, _ in
                guard port == 0 else { return }
                switch event {
                case .value(let value): state.batch.append(value)
                case .completed, .failed, .interrupted:
                    clock.cancelAll()
                    clock.schedule(event)
                }
            },
            onAction: {
                (
                    state: inout CollectEveryState, clock: inout ModelClock<ModelEvent<Int>>, action: ModelEvent<Int>,
                    output: inout [ModelEvent<[Int]>]
                )
                in
                guard case .value = action else { return output.append(action.retyped()) }
                output.append(.value(state.batch))
                state.batch = []
                clock.schedule(after: interval, .value(0))
            },
            onDisposal: { _, clock, _ in
                clock.cancelAll()
                clock.schedule(.interrupted)
            },
            onStart: { _, clock in clock.schedule(after: interval, .value(0)) })
    }

    private struct LazyMapState: Sendable {
        var pending: Int?
    }

    /// `lazyMap(on:) { $0 * 2 }`: the latest value is transformed on the scheduler's next turn, the
    /// values it superseded never are; completion and failure follow the last value; interruption
    /// cancels a transform not yet run.
    static let lazyMap: FuzzModel<Int> = clockedModel(
        initial: LazyMapState(),
        onInput: { state, clock, port, event, _ in
            guard port == 0 else { return }
            switch event {
            case .value(let value):
                if state.pending == nil { clock.schedule(.value(0)) }
                state.pending = value
            case .completed, .failed: clock.schedule(event)
            case .interrupted:
                state.pending = nil
                hopsTerminal(event, &clock)
            }
        },
        onAction: {
            (
                state: inout LazyMapState, _: inout ModelClock<ModelEvent<Int>>, action: ModelEvent<Int>,
                output: inout [ModelEvent<Int>]
            ) in
            if case .value = action {
                if let pending = state.pending { output.append(.value(pending * 2)) }
                state.pending = nil
            } else {
                output.append(action)
            }
        },
        onDisposal: { state, clock, _ in
            state.pending = nil
            hopsTerminal(.interrupted, &clock)
        })

    /// `observe(on:)`: every event on the scheduler's next turn, in order; a disposed start drops
    /// what is waiting and is interrupted on the scheduler.
    static let observeOn: FuzzModel<Int> = clockedModel(
        initial: 0,
        onInput: { _, clock, port, event, _ in if port == 0 { clock.schedule(event) } },
        onAction: { _, _, event, output in output.append(event) },
        onDisposal: disposal)
}
