import Testing

@testable import Rivulet
import RivuletContracts

/// `ObserverList`, the one-word list of a signal's observers: one observer inline, a buffer from
/// the second on; order, removal and growth.
@Suite(.checksLiveObjects) struct ObserverListTests {
    /// A recorder of which observer saw which value.
    final class Log: @unchecked Sendable {
        // @unchecked Sendable: only touched on the test's thread (every send is synchronous).
        var entries: [String] = []
    }

    @Test func observersKeepTheirOrderThroughGrowthAndRemoval() {
        let (signal, input) = Signal<Int, Never>.pipe()
        let log = Log()
        var disposables: [Disposable?] = []
        for index in 0..<12 {
            disposables.append(signal.observeValues { log.entries.append("\(index):\($0)") })
        }
        #expect(signal.core.observerCount == 12)
        input.send(value: 1)
        #expect(log.entries == (0..<12).map { "\($0):1" })
        log.entries = []
        // Remove the first, one in the middle and the last.
        disposables[0]?.dispose()
        disposables[5]?.dispose()
        disposables[11]?.dispose()
        #expect(signal.core.observerCount == 9)
        input.send(value: 2)
        #expect(log.entries == [1, 2, 3, 4, 6, 7, 8, 9, 10].map { "\($0):2" })
        log.entries = []
        for index in [1, 2, 3, 4, 6, 7, 8, 9] { disposables[index]?.dispose() }
        #expect(signal.core.observerCount == 1)
        input.send(value: 3)
        #expect(log.entries == ["10:3"])
        disposables[10]?.dispose()
        #expect(signal.core.observerCount == 0)
        // Empty again: a new observer is stored inline.
        log.entries = []
        let again = signal.observeValues { log.entries.append("again:\($0)") }
        input.send(value: 4)
        #expect(log.entries == ["again:4"])
        again?.dispose()
    }

    @Test func aPermanentObserverAndAChurningOneBothReceiveEveryValue() {
        let (signal, input) = Signal<Int, Never>.pipe()
        let log = Log()
        signal.observeValues { log.entries.append("permanent:\($0)") }
        for value in 0..<50 {
            let churning = signal.observeValues { log.entries.append("churning:\($0)") }
            input.send(value: value)
            churning?.dispose()
        }
        #expect(log.entries == (0..<50).flatMap { ["permanent:\($0)", "churning:\($0)"] })
        #expect(signal.core.observerCount == 1)
    }

    @Test func terminationReleasesEveryObserverInOrder() {
        let (signal, input) = Signal<Int, Never>.pipe()
        let log = Log()
        weak var released: Log?
        do {
            let captured = Log()
            released = captured
            for index in 0..<5 {
                signal.observe { event in
                    if event.isTerminating { log.entries.append("\(index):end") }
                    withExtendedLifetime(captured) {}
                }
            }
        }
        #expect(released != nil)
        input.sendCompleted()
        #expect(log.entries == (0..<5).map { "\($0):end" })
        #expect(released == nil)
        #expect(signal.core.observerCount == 0)
    }

    @Test func anIdleSignalsObserverListIsOneWord() {
        #expect(MemoryLayout<ObserverList<Int, Never>>.size == MemoryLayout<UInt>.size)
    }
}
