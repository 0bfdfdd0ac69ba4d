import Dispatch
import Foundation
import Rivulet

// The scenarios every property goes through, each against a fresh subject. Every observer reads
// the value from inside each emission (R3: a read that never returns is reported) and, except
// where threads race, compares it with the emitted value (R2).

extension PropertyRun {
    /// Making and reading the subject: the value is readable; `producer` sends it first, at once
    /// (R1); observing `signal` sends nothing (S3: a late observer would see events earlier ones
    /// did not). A composed subject causes nothing on its source (R4).
    func reading() {
        guard makeSubject() else { return }
        step { [self] in
            let current = read()
            observeSignal()
            startProducer()
            let first = probe.values(of: "producer").first
            if first != current {
                probe.violation(
                    .r1,
                    "starting the producer sent \(first.map { "value(\($0))" } ?? "nothing") at once, not the current value \(current)"
                )
            }
            if let sent = probe.values(of: "signal").first {
                probe.violation(.s3, "observing the signal sent value(\(sent)) at once; the signal sends changes only")
            }
            disposeObservations()
            _ = read()
        }
        guard !isStuck, let source = fixture.source else { return }
        if source.emissions() > 0 {
            probe.violation(.r4, "making, reading and observing the subject made its source emit \(source.emissions()) value(s)")
        }
        if let now = source.currentValue(), now != source.initialValue {
            probe.violation(
                .r4, "making, reading and observing the subject changed its source from \(source.initialValue) to \(now)")
        }
    }

    /// Each set emits the change synchronously, with the value visible inside the observer
    /// (R2), and afterwards the value is the last one emitted (R1); the producer sends the same
    /// changes after the current value (R2).
    func sets() {
        guard makeSubject() else { return }
        step { [self] in
            let initial = read()
            observeSignal()
            startProducer()
            for index in fixture.inputs.indices {
                set(index)
                let now = read(" after the set")
                let expected = probe.values(of: "signal").last ?? initial
                if now != expected {
                    probe.violation(
                        .r1, "after the set returned the value was \(now), but the latest value emitted was \(expected)")
                }
            }
            let changes = probe.values(of: "signal")
            let fromProducer = Array(probe.values(of: "producer").dropFirst())
            if changes != fromProducer {
                probe.violation(
                    .r2,
                    "the producer sent the changes \(fromProducer) after the current value, but the signal emitted \(changes)")
            }
            disposeObservations()
        }
    }

    /// Sets from several threads at once are emitted one at a time (E5), and afterwards the
    /// value is the last one emitted (E5: the emissions' order is the values' order).
    func concurrentSets() {
        guard makeSubject() else { return }
        setComparesInsideObserver(false)
        step { [self] in
            observeSignal()
            probe.lingerInNextEmissions(3)
            let group = DispatchGroup()
            let start = DispatchSemaphore(value: 0)
            for thread in 1...options.senderThreads {
                group.enter()
                Thread { [self] in
                    probe.label(currentThreadAs: "sender \(thread)")
                    start.wait()
                    for index in fixture.inputs.indices { set(index) }
                    group.leave()
                }.start()
            }
            for _ in 1...options.senderThreads { start.signal() }
            group.wait()
            let now = read(" after the sets")
            if let last = probe.values(of: "signal").last, now != last {
                probe.violation(.e5, "after the concurrent sets the value was \(now), but the last value emitted was \(last)")
            }
            disposeObservations()
        }
    }

    /// A set from inside the signal observer is emitted after the current emission, not
    /// inside it (E6), without deadlock, and afterwards the value is the last emitted (R1).
    func setFromInsideTheObserver() {
        guard makeSubject(), fixture.inputs.count >= 2 else { return }
        setReentrantInput(fixture.inputs.count - 1)
        step { [self] in
            observeSignal()
            set(0)
            let now = read(" after the set")
            if let last = probe.values(of: "signal").last, now != last {
                probe.violation(.r1, "after the re-entrant set the value was \(now), but the latest value emitted was \(last)")
            }
            disposeObservations()
        }
    }

    /// A composed subject does not keep its source alive (R4), completes when the source ends
    /// and sends nothing after (E1), and stays readable with its last value (R4).
    func sourceEnds() {
        guard makeSubject(), let source = fixture.source else { return }
        step { [self] in
            observeSignal()
            startProducer()
            if !fixture.inputs.isEmpty { set(0) }
            let before = read(" before the source ends")
            probe.kitCall(.action, "let go of the source") { source.release() }
            guard source.isGone() else {
                probe.violation(.r4, "the source was not deinitialized when the kit let go of it: the subject retains it")
                return
            }
            for observer in ["signal", "producer"] where probe.end(of: observer) != "completed" {
                let end = probe.end(of: observer).map { "got \($0)" } ?? "did not end"
                probe.violation(.e1, "the subject's \(observer) \(end) when its source ended; it should complete")
            }
            let after = read(" after the source ended")
            if after != before {
                probe.violation(
                    .r4,
                    "the value changed from \(before) to \(after) when the source ended; a composed property keeps its last value"
                )
            }
        }
    }
}
