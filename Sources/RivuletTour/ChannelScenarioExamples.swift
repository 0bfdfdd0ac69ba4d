import Dispatch
import Foundation
import RivuletChannels

// Docs/Activation.md, "Three scenarios": a button enabled by two states, a thread-safe store, and
// a connection attempt with a timeout, written with channels.

func activationEnabledButton() {
    let ui = TestScheduler() // stands in for the main thread's scheduler
    let (login, loggedIn) = Channel<Bool>.create { $0.continuous(initialValue: false) }
    let (folder, selection) = Channel<[String]>.create { $0.continuous(initialValue: []) }

    let button = loggedIn
        .combineLatestWith(selection) { isLoggedIn, files in isLoggedIn && !files.isEmpty }
        .subscribe(context: Exec(ui)) { result in
            print("favourite button enabled: \((try? result.get()) ?? false)")
        }
    let done = DispatchSemaphore(value: 0)
    DispatchQueue.global().async { // the login status changes on a background thread
        login.send(value: true)
        done.signal()
    }
    done.wait()
    folder.send(value: ["notes.txt"])
    print("two changes sent")
    ui.run() // the UI's scheduler applies both, in order
    button.cancel()
}

final class DocumentValues: Sendable {
    typealias Change = (key: String, value: Int?)

    private let input: ChannelInput<Change>
    let values: ChannelMulti<[String: Int]> // the current values first, then each new state

    init() {
        (input, values) = Channel<Change>.create {
            $0.reduce(initialState: [:]) { state, change in
                var state = state
                state[change.key] = change.value // every change goes through here, one at a time
                return state
            }
        }
    }

    func setValue(_ value: Int, forKey key: String) {
        input.send(value: (key, value))
    }

    func removeValue(forKey key: String) {
        input.send(value: (key, nil))
    }
}

func activationKeyValueStore() {
    let document = DocumentValues()
    let statesSeen = Atomic(0) // read below while the handler may run on another thread
    let output = document.values.subscribeValues { _ in statesSeen.modify { $0 += 1 } }

    DispatchQueue.concurrentPerform(iterations: 4) { worker in
        for count in 1...25 { document.setValue(count, forKey: "thread \(worker)") }
    }
    document.removeValue(forKey: "thread 3")

    let final = document.values.peek() ?? [:]
    print(final.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }.joined(separator: ", "))
    print("states seen: \(statesSeen.value)") // the initial state, then one per change
    output.cancel()
}

final class ConnectionService {
    private let input: ChannelInput<DispatchTimeInterval>
    let results: ChannelMulti<Result<String, ChannelEnd>> // every attempt's outcome

    init(clock: Exec, connect: @escaping @Sendable () -> Channel<String>) {
        (input, results) = Channel<DispatchTimeInterval>.create { limits in
            limits.map { limit in
                connect().timeout(interval: limit, resetOnValue: false, context: clock).materialize()
            }
            .switchLatest() // only the latest attempt counts; a new one cancels the previous
            .multicast()
        }
    }

    func connect(timeout: DispatchTimeInterval) {
        input.send(value: timeout)
    }
}

func activationTimeout() {
    let clock = TestScheduler() // virtual time: the same output on every run
    let service = ConnectionService(clock: Exec(clock)) {
        Channel<String>.timer(interval: .seconds(2), value: "connected", context: Exec(clock)) // answers after 2 s
    }
    let output = service.results.subscribeValues { result in
        let time = "t=\(Int(clock.currentDate.timeIntervalSinceReferenceDate)) s:"
        switch result {
        case let .success(message): print(time, message)
        case .failure(.complete): print(time, "attempt over")
        case .failure(.other(ChannelReactiveError.timeout)): print(time, "timed out")
        case let .failure(end): print(time, "ended: \(end)")
        }
    }
    service.connect(timeout: .seconds(1))
    clock.advance(by: .seconds(3))
    service.connect(timeout: .seconds(5))
    clock.advance(by: .seconds(3))
    service.connect(timeout: .seconds(5))
    clock.advance(by: .seconds(1))
    service.connect(timeout: .seconds(1)) // replaces the attempt still running
    clock.advance(by: .seconds(3))
    output.cancel()
}
