import Testing
@testable import Rivulet
import RivuletContracts

/// Collects what `logEvents` hands to its logger.
private final class LogCollector: Sendable {
    struct Record: Equatable {
        let identifier: String
        let event: String
        let fileName: String
        let functionName: String
        let lineNumber: Int
    }
    private let records = Locked<[Record]>([])
    var all: [Record] { records.withLock { $0 } }
    var events: [String] { all.map(\.event) }

    var logger: EventLogger {
        { [self] identifier, event, fileName, functionName, lineNumber in
            let record = Record(
                identifier: identifier, event: event, fileName: fileName,
                functionName: functionName, lineNumber: lineNumber
            )
            records.withLock { $0.append(record) }
        }
    }
}

@Suite(.checksLiveObjects) struct LogEventsTests {
    @Test func signalLogsEveryKindByDefault() {
        let collector = LogCollector()
        let (signal, input) = Signal<Int, TestError>.pipe()
        let recorder = EventRecorder<Int, TestError>()
        signal.logEvents(identifier: "sig", logger: collector.logger).observe(recorder.observer)
        input.send(value: 1)
        input.send(error: TestError(2))
        #expect(collector.events == ["value 1", "failed TestError(code: 2)", "terminated", "disposed"])
        #expect(collector.all.allSatisfy { $0.identifier == "sig" })
        #expect(recorder.events == [.value(1), .failed(TestError(2))])
    }

    @Test func signalLogsOnlyTheChosenKinds() {
        let collector = LogCollector()
        let (signal, input) = Signal<Int, Never>.pipe()
        signal.logEvents(events: [.completed, .value], logger: collector.logger).observe { _ in }
        input.send(value: 1)
        input.sendCompleted()
        #expect(collector.events == ["value 1", "completed"])
    }

    @Test func theCallSiteIsRecorded() {
        let collector = LogCollector()
        let (signal, input) = Signal<Int, Never>.pipe()
        let line = #line + 1
        signal.logEvents(events: [.interrupted], logger: collector.logger).observe { _ in }
        input.sendInterrupted()
        let record = collector.all.first
        #expect(collector.all.count == 1)
        #expect(record?.event == "interrupted")
        #expect(record?.lineNumber == line)
        #expect(record?.functionName == "theCallSiteIsRecorded()")
        #expect(record?.fileName.hasSuffix("LogEventsTests.swift") == true)
        let explicit = LogCollector()
        let (other, otherInput) = Signal<Int, Never>.pipe()
        other.logEvents(fileName: "F", functionName: "G", lineNumber: 3, logger: explicit.logger).observe { _ in }
        otherInput.sendCompleted()
        #expect(explicit.all.first == .init(identifier: "", event: "completed", fileName: "F", functionName: "G", lineNumber: 3))
    }

    @Test func producerLogsStartingAndStartedAroundTheEvents() {
        let collector = LogCollector()
        SignalProducer<Int, Never>(values: [1, 2])
            .logEvents(identifier: "p", logger: collector.logger)
            .start()
        #expect(
            collector.events == [
                "starting", "value 1", "value 2", "completed", "terminated", "disposed", "started",
            ])
    }

    @Test func producerLogsInterruptionOnDisposal_P4() {
        let collector = LogCollector()
        let probe = GateProbe<Int, Never>()
        let disposable = probe.producer
            .logEvents(events: [.value, .interrupted, .disposed], logger: collector.logger)
            .start()
        probe.send(.value(1))
        disposable.dispose()
        #expect(collector.events == ["value 1", "interrupted", "disposed"])
    }

    @Test func logEventsForwardsEverythingUnchanged_P3() {
        let collector = LogCollector()
        expectOperator(
            [.value(1), .completed] as [Signal<Int, TestError>.Event],
            signal: { $0.logEvents(logger: collector.logger) },
            producer: { $0.logEvents(logger: collector.logger) },
            yields: [.value(1), .completed]
        )
    }

    @Test func allEventsListsEveryKind() {
        #expect(LoggingEvent.Signal.allEvents.count == 6)
        #expect(LoggingEvent.SignalProducer.allEvents.count == 8)
        #expect(LoggingEvent.SignalProducer.allEvents.contains(.starting))
    }
}
