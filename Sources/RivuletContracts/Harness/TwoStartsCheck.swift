import Rivulet

/// P2: two starts of one producer, one after the other and each fed the same script, see the
/// same events: no state leaks from one start into the next.
struct TwoStartsCheck<Input: Sendable, InputError: Swift.Error, Output, OutputError: Swift.Error> {
    let subject: ContractSubject<Input, InputError, Output, OutputError>
    let options: ContractOptions
    let values: [Input]

    func run() -> [ContractViolation] {
        guard subject.isProducer else { return [] }
        let build = subject.build
        let recorder = ScenarioRecorder()
        let outputs = Locked([[String]]())
        let finished = runOnKitThread(deadline: options.deadline) { [options, values] in
            recorder.label(currentThreadAs: "sender 1")
            let inputs = [KitInput<Input, InputError>(recorder: recorder), KitInput<Input, InputError>(recorder: recorder)]
            let scheduler = subject.usesScheduler ? TestScheduler() : nil
            let context = SubjectContext(scheduler: scheduler, probe: UserCodeProbe())
            let producer: SignalProducer<Output, OutputError>
            switch build {
            case let .producer(make): producer = make(inputs[0].makeProducer(), context)
            case let .producerPair(make): producer = make(inputs[0].makeProducer(), inputs[1].makeProducer(), context)
            case .signal, .signalPair: return
            }
            let used = subject.isPair ? inputs : [inputs[0]]
            for start in 1...2 {
                let events = Locked([String]())
                let disposable = recorder.kitCall(.action, "start #\(start)") {
                    producer.start { event in events.withLock { $0.append(event.auditDescription) } }
                }
                for value in values {
                    for input in used {
                        recorder.kitCall(.input, "value(\(value))") { input.send(.value(value)) }
                    }
                }
                for input in used {
                    recorder.kitCall(.input, "completed") { input.send(.completed) }
                }
                scheduler?.advance(by: options.settleTime)
                disposable.dispose()
                let seen = events.withLock { $0 }
                outputs.withLock { $0.append(seen) }
            }
        }
        let seen = outputs.withLock { $0 }
        guard finished, seen.count == 2, seen[0] != seen[1] else { return [] }
        return [
            ContractViolation(
                clause: .p2,
                scenario: "two starts",
                explanation: "two starts fed the same events saw different output: \(seen[0]) and then \(seen[1])",
                trace: recorder.trace
            )
        ]
    }
}
