import Dispatch
import Foundation
import RivuletChannels

// Channel operators that each break one activation or event clause, written with the public API
// only, the way a user might get them wrong. BrokenChannelOperatorTests checks that the contract
// kit names the clause each one breaks.

/// An operator's own state behind a lock, as a user would write it.
final class OperatorState<State>: @unchecked Sendable {
    // @unchecked Sendable: `state` is only read or written while `lock` is held (`withLock`).
    private let lock = NSLock()
    private var state: State

    init(_ state: State) {
        self.state = state
    }

    func withLock<Result>(_ body: (inout State) -> Result) -> Result {
        lock.lock()
        defer { lock.unlock() }
        return body(&state)
    }
}

/// The usual state of an operator built on `generate`: its output's input and its upstream output.
struct RelayState<Value> {
    var input: ChannelInput<Value>?
    var upstream: ChannelOutput<Value>?
    var started = false
    var connecting = false
    var held: [Result<Value, ChannelEnd>] = []
    var last: Value?
    var ended = false
}

extension Channel where Value: Sendable {
    /// A1: peeks at its upstream when applied (subscribes and lets go at once), so applying it
    /// activates the graph before any output attaches.
    func peekingWhenApplied() -> Channel<Value> {
        let peek = subscribe { _ in }
        peek.cancel()
        return map { $0 }
    }

    /// A2: values that arrive while it is still connecting upstream are held until the next value,
    /// so activation values come late instead of inside `subscribe`.
    func holdingValuesWhileConnecting() -> Channel<Value> {
        let upstream = self
        let state = OperatorState(RelayState<Value>())
        return Channel.generate { input in
            guard let input else {
                let output = state.withLock { s -> ChannelOutput<Value>? in
                    defer { s.upstream = nil }
                    return s.upstream
                }
                output?.cancel()
                return
            }
            state.withLock { $0.connecting = true }
            let output = upstream.subscribe { result in
                let held = state.withLock { s -> [Result<Value, ChannelEnd>]? in
                    if s.connecting {
                        s.held.append(result)
                        return nil
                    }
                    defer { s.held = [] }
                    return s.held
                }
                guard let held else { return }
                for earlier in held { input.send(result: earlier) }
                input.send(result: result)
            }
            state.withLock {
                $0.connecting = false
                $0.upstream = output
            }
        }
    }

    /// A3: connects upstream on its first activation only; later activations reuse nothing and
    /// never activate the source again.
    func connectingOnce() -> Channel<Value> {
        let upstream = self
        let state = OperatorState(RelayState<Value>())
        return Channel.generate { input in
            guard let input else {
                let output = state.withLock { s -> ChannelOutput<Value>? in
                    s.input = nil
                    defer { s.upstream = nil }
                    return s.upstream
                }
                output?.cancel()
                return
            }
            let connect = state.withLock { s -> Bool in
                s.input = input
                defer { s.started = true }
                return !s.started
            }
            guard connect else { return }
            let output = upstream.subscribe { result in
                state.withLock { $0.input }?.send(result: result)
            }
            state.withLock { $0.upstream = output }
        }
    }

    /// A5 (with A1 and A6): subscribes upstream as soon as it is applied and keeps that
    /// subscription, without saying so: a send with no output attached is taken.
    func relayingEagerly() -> Channel<Value> {
        let state = OperatorState(RelayState<Value>())
        let output = subscribe { result in
            state.withLock { $0.input }?.send(result: result)
        }
        return Channel.generate { input in
            withExtendedLifetime(output) {}
            state.withLock { $0.input = input }
        }
    }

    /// A6: never cancels its upstream subscription when its output goes away.
    func leakingUpstream() -> Channel<Value> {
        let upstream = self
        let state = OperatorState([ChannelOutput<Value>]())
        return Channel.generate { input in
            guard let input else { return }
            let output = upstream.subscribe { result in input.send(result: result) }
            state.withLock { $0.append(output) }
        }
    }

    /// A7: forwards values only; its input's end never reaches its output.
    func swallowingEnds() -> Channel<Value> {
        transform { result in
            guard case .success = result else { return .none }
            return .result(result)
        }
    }

    /// A9: assumes it is fed on the thread that activated it, and drops values delivered on any
    /// other thread.
    func assumingItsActivatingThread() -> Channel<Value> {
        let upstream = self
        let state = OperatorState(RelayState<Value>())
        return Channel.generate { input in
            guard let input else {
                let output = state.withLock { s -> ChannelOutput<Value>? in
                    defer { s.upstream = nil }
                    return s.upstream
                }
                output?.cancel()
                return
            }
            let home = pthread_self()
            let output = upstream.subscribe { result in
                if case .success = result, pthread_equal(pthread_self(), home) == 0 { return }
                input.send(result: result)
            }
            state.withLock { $0.upstream = output }
        }
    }

    /// A10 (with A6): keeps its upstream connection across activations and forwards to
    /// whichever output is current, so values from the first activation reach the second.
    func reusingItsConnection() -> Channel<Value> {
        let upstream = self
        let state = OperatorState(RelayState<Value>())
        return Channel.generate { input in
            let connect = state.withLock { s -> Bool in
                s.input = input
                return input != nil && s.upstream == nil
            }
            guard connect else { return }
            let output = upstream.subscribe { result in
                state.withLock { $0.input }?.send(result: result)
            }
            state.withLock { $0.upstream = output }
        }
    }

    /// O6: blocks for good on its first value.
    func blockingOnFirstValue() -> Channel<Value> {
        let never = DispatchSemaphore(value: 0)
        return map { value in
            never.wait()
            return value
        }
    }
}

extension Channel where Value == Int {
    /// E1: forwards its input's end, then runs the closure once more to flush the last value,
    /// after its output has already ended.
    func mapFlushingAfterTheEnd(_ transform: @escaping @Sendable (Int) -> Int) -> Channel<Int> {
        let upstream = self
        let state = OperatorState(RelayState<Int>())
        return Channel<Int>.generate { input in
            guard let input else {
                let output = state.withLock { s -> ChannelOutput<Int>? in
                    defer { s.upstream = nil }
                    return s.upstream
                }
                output?.cancel()
                return
            }
            let output = upstream.subscribe { result in
                switch result {
                case let .success(value):
                    state.withLock { $0.last = value }
                    input.send(value: transform(value))
                case let .failure(end):
                    input.send(end: end)
                    if let last = state.withLock({ $0.last }) {
                        input.send(value: transform(last))
                    }
                }
            }
            state.withLock { $0.upstream = output }
        }
    }

    /// E5: runs the closure ahead on a helper thread while it runs it on the delivering thread.
    func mapWarmingAhead(_ transform: @escaping @Sendable (Int) -> Int) -> Channel<Int> {
        map { value in
            let started = DispatchSemaphore(value: 0)
            let done = DispatchSemaphore(value: 0)
            DispatchQueue.global().async {
                started.signal()
                _ = transform(value)
                done.signal()
            }
            started.wait()
            let result = transform(value)
            done.wait()
            return result
        }
    }

    /// E6: when its output is cancelled, runs the closure on the last value to flush it, even
    /// when the cancellation comes from inside that closure.
    func mapFlushingOnCancel(_ transform: @escaping @Sendable (Int) -> Int) -> Channel<Int> {
        let upstream = self
        let state = OperatorState(RelayState<Int>())
        return Channel<Int>.generate { input in
            guard let input else {
                let (output, flush) = state.withLock { s -> (ChannelOutput<Int>?, Int?) in
                    defer { s.upstream = nil }
                    return (s.upstream, s.ended ? nil : s.last)
                }
                output?.cancel()
                if let flush { _ = transform(flush) }
                return
            }
            let output = upstream.subscribe { result in
                switch result {
                case let .success(value):
                    state.withLock { $0.last = value }
                    input.send(value: transform(value))
                case let .failure(end):
                    state.withLock { $0.ended = true }
                    input.send(end: end)
                }
            }
            state.withLock { $0.upstream = output }
        }
    }

    /// O7: runs the closure while holding the lock that its activation changes also take.
    func mapUnderItsLock(_ transform: @escaping @Sendable (Int) -> Int) -> Channel<Int> {
        let upstream = self
        let lock = NSLock()
        let state = OperatorState(RelayState<Int>())
        return Channel<Int>.generate { input in
            guard let input else {
                lock.lock()
                let output = state.withLock { s -> ChannelOutput<Int>? in
                    defer { s.upstream = nil }
                    return s.upstream
                }
                lock.unlock()
                output?.cancel()
                return
            }
            let output = upstream.subscribe { result in
                switch result {
                case let .success(value):
                    lock.lock()
                    let mapped = transform(value)
                    lock.unlock()
                    input.send(value: mapped)
                case let .failure(end):
                    input.send(end: end)
                }
            }
            state.withLock { $0.upstream = output }
        }
    }
}
