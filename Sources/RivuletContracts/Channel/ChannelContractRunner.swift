import Dispatch
import Foundation
import Rivulet
import RivuletChannels

/// Runs `ChannelContract`'s scenarios, each on a fresh source and a fresh application of the
/// operator, on a kit thread under the deadline, and gathers the report.
enum ChannelContractRunner {
    static func report<Input: Sendable, Output: Sendable>(
        _ name: String,
        inputs: [Input],
        options: ChannelContractOptions,
        probed: Bool,
        _ makeOperator: @escaping ChannelRun<Input, Output>.Operator
    ) -> ContractReport {
        precondition(
            inputs.count >= 3,
            "RivuletContracts: ChannelContract.verify: inputs.count is \(inputs.count); it must be 3 or more")
        let scenarios = ChannelScenarios(inputs: inputs, options: options, makeOperator: makeOperator)
        var names: [String] = []
        var violations: [ContractViolation] = []
        for (scenario, concurrent, body) in scenarios.all(probed: probed) {
            names.append(scenario)
            let run = ChannelRun<Input, Output>(scenario, options: options, concurrent: concurrent, makeOperator)
            run.run { run in
                body(run)
                run.tearDown()
            }
            violations += run.violations
            // Every later scenario would wait out the deadline too.
            if run.isStuck { break }
        }
        var clauses: [ContractClause] = [.a1, .a2, .a3, .a4, .a5, .a6, .a7, .a9, .a10, .e1, .e5, .e6, .o6, .o7]
        clauses.sort()
        return ContractReport(subject: name, clausesChecked: clauses, scenarios: names, violations: violations)
    }
}

/// The scenarios of `ChannelContract`.
struct ChannelScenarios<Input: Sendable, Output: Sendable>: Sendable {
    typealias Run = ChannelRun<Input, Output>

    let inputs: [Input]
    let options: ChannelContractOptions
    let makeOperator: Run.Operator

    private var replay: ChannelReplay<Input, Output> { ChannelReplay(options: options, makeOperator: makeOperator) }
    private var values: [ChannelKitEvent<Input>] { inputs.map { .value($0) } }
    private var eager: Bool { options.activatesUpstreamAtCreation }

    func all(probed: Bool) -> [(String, Bool, @Sendable (Run) -> Void)] {
        var list: [(String, Bool, @Sendable (Run) -> Void)] = [
            ("applying the operator", false, applying),
            ("a send before any output", false, sendBeforeAnyOutput),
            ("values then complete", false, { valuesThen(.complete, $0) }),
            ("values then an error", false, { valuesThen(.error("ContractError(1)"), $0) }),
            (
                eager
                    ? "output released, then subscribed again (upstream kept active by declaration)"
                    : "output released, then subscribed again",
                false, releasedThenSubscribedAgain
            ),
            (options.returnsMulti ? "a second output (a multi by declaration)" : "a second output", false, secondOutput),
            (
                options.swallowsInputEnds
                    ? "input released (ends swallowed by declaration)"
                    : options.turnsInputEndsIntoValues
                        ? "input released (ends turned into values by declaration)" : "input released",
                false,
                inputReleased
            ),
            ("a send from inside the handler", false, sendFromInsideTheHandler),
            ("activation values of a continuous upstream", false, activationValues),
            ("concurrent senders and a loopback send", true, concurrentSenders),
            ("cancel from inside the handler", false, { cancelFromInside(userCode: false, $0) }),
        ]
        if probed {
            list.append(("cancel and send from inside the operator's closure", false, { cancelFromInside(userCode: true, $0) }))
        }
        return list
    }

    // MARK: A1, A4 (declaration), A5

    /// A1: applying the operator activates nothing (or, declared eager, activates the source).
    private func applying(_ run: Run) {
        let channel = run.apply(to: run.makeSource())
        let activations = run.activations
        if !eager, activations > 0 {
            run.violation(.a1, "applying the operator activated the source before any output attached")
        } else if eager, activations == 0 {
            run.violation(
                .a1,
                "the operator is declared to activate its upstream at creation (activatesUpstreamAtCreation), but applying it did not activate the source"
            )
        }
        let isMulti = channel is ChannelMulti<Output>
        if isMulti != options.returnsMulti {
            run.violation(
                .a4,
                isMulti
                    ? "the operator returns a ChannelMulti, but is not declared to (returnsMulti): its outputs fan out where a plain channel answers duplicate"
                    : "the operator is declared to return a multi (returnsMulti), but returns a plain Channel")
        }
    }

    /// A5: a send with no output attached goes nowhere: it returns an error and no node sees it.
    private func sendBeforeAnyOutput(_ run: Run) {
        let (input, source) = Channel<Input>.create()
        run.apply(
            to: source.transform { [weak run] result in
                run?.noteTapped(result)
                return .single(result)
            })
        let result = run.send(.value(inputs[0]), on: input, " (no output attached)")
        guard !eager else { return }
        if result == nil {
            run.violation(.a5, "a send with no output attached returned nil (delivered), not inactive")
        }
        if !run.tapped.isEmpty {
            run.violation(.a5, "a value sent with no output attached reached the operator")
        }
        withExtendedLifetime(input) {}
    }

    // MARK: E1, A3

    /// Values, then an end: nothing after the end (E1, checked by the handler), and the source
    /// hears `nil` once the stream has ended (A3).
    private func valuesThen(_ end: ChannelKitEvent<Input>, _ run: Run) {
        run.apply(to: run.makeSource())
        run.subscribe()
        guard let input = run.waitForInput(after: "subscribing") else { return }
        for value in values { run.send(value, on: input) }
        let deactivations = run.deactivations
        run.send(end, on: input)
        if !wait(upTo: options.deadline, until: { run.deactivations > deactivations }) {
            run.violation(.a3, "the source's stream ended, but its closure never got nil")
        }
    }

    // MARK: A3, A5, A6, A10

    private func releasedThenSubscribedAgain(_ run: Run) {
        run.apply(to: run.makeSource())
        run.subscribe()
        guard let first = run.waitForInput(after: "subscribing") else { return }
        let firstValues = Array(values.prefix(2))
        for value in firstValues { run.send(value, on: first) }
        let firstOutputs = run.outputs
        let deactivations = run.deactivations
        run.cancelOutput()
        if eager {
            // Declared: the operator keeps its upstream active without outputs.
            if run.deactivations > deactivations {
                run.violation(
                    .a6,
                    "the operator is declared to keep its upstream active (activatesUpstreamAtCreation), but releasing its output deactivated the source"
                )
            }
            run.resetOutput()
            run.subscribe()
            return
        }
        guard wait(upTo: options.deadline, until: { run.deactivations > deactivations }) else {
            run.violation(.a6, "the output was released, but the source stayed active: its closure never got nil")
            reSubscribeWithStaleInput(first, run, checkFresh: false)
            return
        }
        let tappedBefore = run.tapped.count
        if run.send(.value(inputs[2]), on: first, " with no output attached") == nil {
            run.violation(.a5, "a send on the input of a deactivated source returned nil (delivered), not inactive")
        } else if run.tapped.count > tappedBefore {
            run.violation(.a5, "a value sent on the input of a deactivated source reached the operator")
        }
        let activations = run.activations
        reSubscribeWithStaleInput(first, run, checkFresh: true)
        guard run.activations == activations + 1, let second = run.currentInput, second !== first else { return }
        for value in firstValues { run.send(value, on: second) }
        let secondOutputs = run.outputs
        if secondOutputs != firstOutputs {
            run.violation(
                .a6,
                "after re-subscribing, the same values gave \(secondOutputs), where the first activation gave \(firstOutputs): the operator's state was not reset"
            )
        }
    }

    /// Subscribes again and sends on the first activation's input: the value must not reach the
    /// new output (A10); with `checkFresh`, the source must have been activated afresh (A3).
    private func reSubscribeWithStaleInput(_ first: ChannelInput<Input>, _ run: Run, checkFresh: Bool) {
        run.resetOutput()
        let activations = run.activations
        run.subscribe()
        if checkFresh {
            let fresh = wait(upTo: options.deadline, until: { run.activations > activations })
            if !fresh {
                run.violation(.a3, "re-subscribing did not activate the source afresh: its closure got no new input")
            } else if run.currentInput === first {
                run.violation(.a3, "re-subscribing gave the source's closure the same input again, not a fresh one")
            }
        }
        let before = run.outputs
        run.send(.value(inputs[1]), on: first, " on the first activation's input")
        let after = run.outputs
        if after.count > before.count {
            run.violation(
                .a10,
                "a value sent on the first activation's input reached the new output (\(after.suffix(after.count - before.count))): a stale connection delivered"
            )
        }
        run.resetOutput()
    }

    // MARK: A4

    private func secondOutput(_ run: Run) {
        let channel = run.apply(to: run.makeSource())
        run.subscribe()
        guard let input = run.waitForInput(after: "subscribing") else { return }
        run.send(values[0], on: input)
        let firstBefore = run.outputs.count
        run.subscribeSecond()
        let secondAtOnce = run.secondOutputs
        for value in values.dropFirst() { run.send(value, on: input) }
        run.send(.complete, on: input)
        let first = run.outputs
        let second = run.secondOutputs
        let isMulti = channel is ChannelMulti<Output>
        if !isMulti {
            if options.returnsMulti {
                run.violation(
                    .a4, "the operator is declared to return a multi (returnsMulti), but its second output got \(secondAtOnce)")
            } else if secondAtOnce.count != 1 || !Run.isDuplicate(secondAtOnce[0]) {
                run.violation(
                    .a4, "a second output of a plain channel got \(secondAtOnce) inside subscribe, not one duplicate error")
            } else if second != secondAtOnce {
                run.violation(.a4, "after its duplicate error, the second output got more: \(second)")
            }
            let expected = replay.play(run.tapped).outputs
            if first != expected {
                run.violation(
                    .a4, "the second subscriber affected the first output: it got \(first), where alone it gets \(expected)")
            }
        } else {
            if second.contains(where: Run.isDuplicate) {
                run.violation(.a4, "a second output of a multi got a duplicate error: \(second)")
            }
            let tail = Array(first.dropFirst(firstBefore))
            if !second.reversed().starts(with: tail.reversed()) {
                run.violation(
                    .a4,
                    "the two outputs of a multi disagree: after the second attached, the first got \(tail), the second \(second)")
            }
        }
    }

    // MARK: A7

    private func inputReleased(_ run: Run) {
        run.apply(to: run.makeSource())
        run.subscribe()
        guard run.waitForInput(after: "subscribing") != nil else { return }
        for value in values.prefix(2) { run.send(value, on: run.currentInput) }
        let outputsBefore = run.outputs.count
        run.kitCall(.action, "release the source's input") {
            let inputs = run.takeInputs()
            withExtendedLifetime(inputs) {}
        }
        if options.swallowsInputEnds {
            if let end = run.outputs.last, run.ended {
                run.violation(
                    .a7,
                    "the operator is declared to swallow its input's ends (swallowsInputEnds), but its output ended with \(end)")
            }
            return
        }
        _ = wait(upTo: options.deadline, until: { run.ended })
        let last = run.outputs.last
        if options.turnsInputEndsIntoValues {
            if !run.ended || last != "complete" || run.outputs.count < outputsBefore + 2 {
                run.violation(
                    .a7,
                    "the operator is declared to turn its input's end into a value and complete (turnsInputEndsIntoValues), but after the input was released the output showed \(Array(run.outputs.dropFirst(outputsBefore)))"
                )
            }
            return
        }
        if !run.ended {
            run.violation(.a7, "the source's input was released, but the output did not end")
        } else if last != "cancelled" {
            run.violation(.a7, "the source's input was released, but the output ended with \(last ?? "nothing"), not cancelled")
        }
    }

    // MARK: E6

    private func sendFromInsideTheHandler(_ run: Run) {
        run.apply(to: run.makeSource())
        run.setReactions(Run.Reactions(loopbackFromHandler: inputs[inputs.count - 1]))
        run.subscribe()
        guard let input = run.waitForInput(after: "subscribing") else { return }
        for value in values { run.send(value, on: input) }
        run.send(.complete, on: input)
        let expected = replay.play(run.tapped).outputs
        let seen = run.outputs
        if seen != expected {
            run.violation(
                .e6,
                "with a value sent from inside the handler the output was \(seen); queued after the handler returned, it would be \(expected)"
            )
        }
    }

    // MARK: A2

    private func activationValues(_ run: Run) {
        let (source, input) = run.kitCall(.action, "make a continuous source") {
            () -> (ChannelMulti<Input>, ChannelInput<Input>?) in
            let source = run.makeSource().continuous()
            return (source, run.currentInput)
        }
        guard let input else {
            run.violation(.a1, "a continuous source did not activate when made (the kit cannot check A2)")
            return
        }
        run.send(values[0], on: input)
        run.apply(to: source)
        run.setReactions(Run.Reactions(loopbackFromHandler: inputs[1]))
        run.subscribe()
        let inside = run.deliveredDuringSubscribe
        for value in values.dropFirst(2) { run.send(value, on: input) }
        run.send(.complete, on: input)
        let tapped = run.tapped
        // An operator that activates its upstream at creation saw the first value before the
        // output attached; one that does not sees it as an activation value.
        let played = replay.play(tapped, beforeSubscribing: eager ? 1 : 0)
        // What the first value makes, owed inside subscribe.
        let owed = eager ? played.counts[0] : (played.counts.count > 1 ? played.counts[1] : 0)
        if inside < owed {
            run.violation(
                .a2,
                "the continuous upstream's latest value makes \(owed) result(s), but only \(inside) arrived inside subscribe")
        }
        let seen = run.outputs
        if seen != played.outputs {
            run.violation(
                .a2,
                "with an activation value, a value sent from the handler during activation and later values, the output was \(seen), where it should be \(played.outputs)"
            )
        }
    }

    // MARK: A9, E5, E6

    private func concurrentSenders(_ run: Run) {
        run.apply(to: run.makeSource())
        run.setReactions(Run.Reactions(loopbackFromHandler: inputs[0], lingers: 3))
        run.subscribe()
        guard let input = run.waitForInput(after: "subscribing") else { return }
        let perThread = max(16, inputs.count)
        let group = DispatchGroup()
        for sender in 0..<options.senderThreads {
            group.enter()
            let thread = Thread { [values] in
                run.label(currentThreadAs: "sender \(sender + 2)")
                for index in 0..<perThread {
                    run.send(values[(sender + index) % values.count], on: input)
                }
                group.leave()
            }
            thread.start()
        }
        guard group.wait(timeout: .now() + options.deadline) == .success else {
            run.violation(
                .a9, "sends from \(options.senderThreads) threads did not all return within \(options.deadline) s: they deadlock")
            return
        }
        run.send(.complete, on: input)
        let expected = replay.play(run.tapped).outputs
        _ = wait(upTo: options.deadline, until: { run.outputs.count >= expected.count })
        let seen = run.outputs
        if seen != expected {
            run.violation(
                .a9,
                "with \(options.senderThreads) threads sending at once and a send from the handler, the output was \(seen); a serial replay of what the source delivered, in its order, gives \(expected): values were lost or reordered"
            )
        }
    }

    // MARK: O7, A6

    private func cancelFromInside(userCode: Bool, _ run: Run) {
        run.apply(to: run.makeSource())
        if userCode {
            run.setReactions(Run.Reactions(loopbackFromUserCode: inputs[1], cancelFromUserCode: true))
        } else {
            run.setReactions(Run.Reactions(loopbackFromHandler: inputs[1], cancelFromHandler: true))
        }
        run.subscribe()
        guard let input = run.waitForInput(after: "subscribing") else { return }
        let deactivations = run.deactivations
        for value in values { run.send(value, on: input) }
        if userCode, run.userCodeCalls == 0 {
            // The operator never ran its closure: nothing was cancelled from inside it.
            return
        }
        if !eager, run.outputs.count > 0 || userCode,
            !wait(upTo: options.deadline, until: { run.deactivations > deactivations })
        {
            run.violation(
                .a6,
                "the output was cancelled from inside the \(userCode ? "operator's closure" : "handler"), but the source stayed active: its closure never got nil"
            )
        }
    }
}

extension ChannelRun {
    /// Records what a tap the scenario made itself delivered.
    func noteTapped(_ result: Result<Input, ChannelEnd>) {
        recordTap(ChannelKitEvent(result))
    }
}
