import Dispatch
import Foundation
import Testing

@testable import Rivulet
import RivuletContracts

/// `DeadlockDiagnostics`: a thread waiting for a delivery turn that a blocked observer holds is
/// reported, naming the signal or property and the thread holding the turn.
///
/// Each test builds the deadlock the diagnostic is for (an observer that waits until another
/// thread's send to the same signal has gone through) and lets the report break it: the handler
/// releases the blocked observer. Without a report the observer would wait out its limit and the
/// test would fail.
@Suite(.checksLiveObjects, .serialized) struct DeadlockDiagnosticsTests {
    /// What one deadlock scenario saw.
    struct Outcome: Sendable {
        var reports: [DeadlockDiagnostics.Report] = []
        var ownerThread: UInt = 0
        var waitingThread: UInt = 0
        var observerWasReleasedByTheReport = false
    }

    /// Runs `start` on a thread of its own; `start` sends (or writes) the first value, whose
    /// observer calls `blockUntilReported` after starting the second sender on another thread
    /// (`sendFromAnotherThread`). Reports about anything but `resourceAddress` (another test's
    /// long wait) are left out.
    static func runDeadlock(
        resourceAddress: String,
        start: @escaping @Sendable () -> Void,
        observerBlocks register: (_ blockUntilReported: @escaping @Sendable () -> Void) -> Void,
        secondSend: @escaping @Sendable () -> Void
    ) -> Outcome {
        let outcome = Atomic(Outcome())
        let reported = DispatchSemaphore(value: 0)
        let secondSendDone = DispatchSemaphore(value: 0)
        let firstSendDone = DispatchSemaphore(value: 0)
        let previous = (DeadlockDiagnostics.waitThreshold, DeadlockDiagnostics.reportHandler)
        DeadlockDiagnostics.waitThreshold = .milliseconds(100)
        DeadlockDiagnostics.reportHandler = { report in
            guard report.resource.hasSuffix(resourceAddress) else { return }
            outcome.modify { $0.reports.append(report) }
            reported.signal()
        }
        defer { (DeadlockDiagnostics.waitThreshold, DeadlockDiagnostics.reportHandler) = previous }
        register {
            outcome.modify { $0.ownerThread = ThreadID.current.rawValue }
            Thread {
                outcome.modify { $0.waitingThread = ThreadID.current.rawValue }
                secondSend()
                secondSendDone.signal()
            }.start()
            // The deadlock: this observer waits for the other thread, which waits for this turn.
            let released = reported.wait(timeout: .now() + 300) == .success
            outcome.modify { $0.observerWasReleasedByTheReport = released }
        }
        Thread {
            start()
            firstSendDone.signal()
        }.start()
        #expect(firstSendDone.wait(timeout: .now() + 300) == .success)
        #expect(secondSendDone.wait(timeout: .now() + 300) == .success)
        return outcome.value
    }

    @Test(
        .keepsLiveObjects(
            "the blocking observer captures the second send, which captures the signal's input: a cycle the test makes on purpose, as an observer that keeps its own signal's sender does"
        )
    )
    func aSenderWaitingForASignalsTurnIsReportedWithTheSignalAndTheThreadHoldingTheTurn() {
        let (signal, input) = Signal<Int, Never>.pipe()
        let received = Atomic<[Int]>([])
        let outcome = Self.runDeadlock(
            resourceAddress: signal.core.storage.addressForDiagnostics,
            start: { input.send(value: 1) },
            observerBlocks: { blockUntilReported in
                signal.observeValues { value in
                    received.modify { $0.append(value) }
                    if value == 1 { blockUntilReported() }
                }
            },
            secondSend: { input.send(value: 2) })
        #expect(outcome.observerWasReleasedByTheReport)
        #expect(outcome.reports.count == 1)
        let report = outcome.reports.first
        #expect(report?.resource.hasPrefix("Signal<Int, Never> 0x") == true)
        #expect(report?.owningThread?.hasPrefix("thread 0x\(String(outcome.ownerThread, radix: 16))") == true)
        #expect(report?.waitingThread.hasPrefix("thread 0x\(String(outcome.waitingThread, radix: 16))") == true)
        #expect(report?.waited == .milliseconds(100))
        #expect(report?.description.contains("deadlock") == true)
        // The waiting value is delivered once the turn is free: the report only reports.
        #expect(received.value == [1, 2])
    }

    @Test(
        .keepsLiveObjects(
            "the blocking observer captures the second send, which captures the property: a cycle the test makes on purpose, as an observer that keeps its own signal's sender does"
        )
    )
    func aWriterWaitingForAPropertysTurnIsReported() {
        let property = MutableProperty(0)
        let seen = Atomic<[Int]>([])
        let outcome = Self.runDeadlock(
            resourceAddress: property.storage.state.addressForDiagnostics,
            start: { property.value = 1 },
            observerBlocks: { blockUntilReported in
                property.signal.observeValues { value in
                    seen.modify { $0.append(value) }
                    if value == 1 { blockUntilReported() }
                }
            },
            secondSend: { property.value = 2 })
        #expect(outcome.observerWasReleasedByTheReport)
        #expect(outcome.reports.count == 1)
        #expect(outcome.reports.first?.resource.hasPrefix("MutableProperty<Int> 0x") == true)
        #expect(outcome.reports.first?.owningThread?.hasPrefix("thread 0x\(String(outcome.ownerThread, radix: 16))") == true)
        #expect(seen.value == [1, 2])
        #expect(property.value == 2)
    }

    #if canImport(Glibc)
    /// glibc's `pthread_setname_np`, which its Swift module does not import (it needs
    /// `_GNU_SOURCE`). Foundation's `Thread.name` does not reliably name the thread on Linux (a
    /// new thread keeps the name of the thread that made it).
    static let setThreadName: @convention(c) (pthread_t, UnsafePointer<CChar>) -> Int32 = {
        guard let symbol = dlsym(nil, "pthread_setname_np") else {
            preconditionFailure("Rivulet: DeadlockDiagnosticsTests: glibc has no pthread_setname_np")
        }
        return unsafeBitCast(symbol, to: (@convention(c) (pthread_t, UnsafePointer<CChar>) -> Int32).self)
    }()

    @Test func aThreadNameIsPartOfTheReport() {
        let named = DispatchSemaphore(value: 0)
        let description = Atomic("")
        let thread = Thread {
            #expect(Self.setThreadName(pthread_self(), "rv-named") == 0)
            description.value = DeadlockDiagnostics.describeThread(ThreadID.current.rawValue)
            named.signal()
        }
        thread.start()
        #expect(named.wait(timeout: .now() + 300) == .success)
        #expect(description.value.hasSuffix("(rv-named)"), "\(description.value)")
    }
    #endif

    @Test func theDefaultThresholdIsFiveSeconds() {
        #expect(DeadlockDiagnostics.waitThreshold == .seconds(5))
    }

    @Test func aThresholdThatIsNotPositiveIsRejected() async {
        await #expect(processExitsWith: .failure) {
            DeadlockDiagnostics.waitThreshold = .zero
        }
    }
}
