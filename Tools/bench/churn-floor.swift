// The floor under compare's churn workload (5): add one observer closure to a list and remove it
// again, per cycle, in plain Swift, in this thread's CPU time.
//
//   swiftc -O Tools/bench/churn-floor.swift -o /tmp/churn-floor && /tmp/churn-floor
//
// - unsynchronised: compare's baseline, an array of closures that one thread owns;
// - locked: the same list behind a mutex, as any list that several threads may change needs
//   (one lock round trip to add, one to remove);
// - locked, with a token: the same, where `add` returns an object that removes the observer
//   when asked, as a disposable does (one more allocation per cycle);
// - locked, with a token and a box: the same, with the closure in an object of its own that the
//   list keeps and the token does not, so that removing the observer releases the closure even
//   while someone keeps the token (Rivulet's S5; two allocations per cycle).
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization

final class Sink { var total = 0 }

final class ClosureList {
    private var observers: [(id: Int, observer: (Int) -> Void)] = []
    private var nextID = 0

    var count: Int { observers.count }

    @inline(never) func add(_ observer: @escaping (Int) -> Void) -> Int {
        nextID += 1
        observers.append((nextID, observer))
        return nextID
    }

    @inline(never) func remove(_ id: Int) {
        observers.removeAll { $0.id == id }
    }
}

final class LockedClosureList: Sendable {
    private struct State {
        var observers: [(id: Int, observer: (Int) -> Void)] = []
        var nextID = 0
    }
    private let state = Mutex(State())

    var count: Int { state.withLock { $0.observers.count } }

    @inline(never) func add(_ observer: @escaping (Int) -> Void) -> Int {
        state.withLock { state in
            state.nextID += 1
            state.observers.append((state.nextID, observer))
            return state.nextID
        }
    }

    @inline(never) func remove(_ id: Int) {
        // Taken out under the lock, released after it, as a library that runs no user code
        // (a closure's captures may have a deinit) under its lock must.
        let removed = state.withLock { state -> ((Int) -> Void)? in
            guard let index = state.observers.firstIndex(where: { $0.id == id }) else { return nil }
            return state.observers.remove(at: index).observer
        }
        withExtendedLifetime(removed) {}
    }
}

final class Token: Sendable {
    let list: LockedClosureList
    let id: Int
    init(list: LockedClosureList, id: Int) {
        self.list = list
        self.id = id
    }
    @inline(never) func dispose() { list.remove(id) }
}

// The box variant repeats the list and the token with concrete types on purpose: one generic
// list for both (entries of a generic type) measured 51 and 59 ns for the first two variants,
// against 40-42 and 48-51 for these in runs minutes apart: a floor raised by the abstraction,
// not by the work.
final class ObserverBox {
    let observer: (Int) -> Void
    init(_ observer: @escaping (Int) -> Void) { self.observer = observer }
}

final class LockedBoxList: Sendable {
    private struct State {
        var observers: [(id: Int, box: ObserverBox)] = []
        var nextID = 0
    }
    private let state = Mutex(State())

    var count: Int { state.withLock { $0.observers.count } }

    @inline(never) func add(_ observer: @escaping (Int) -> Void) -> Int {
        let box = ObserverBox(observer)
        return state.withLock { state in
            state.nextID += 1
            state.observers.append((state.nextID, box))
            return state.nextID
        }
    }

    @inline(never) func remove(_ id: Int) {
        let removed = state.withLock { state -> ObserverBox? in
            guard let index = state.observers.firstIndex(where: { $0.id == id }) else { return nil }
            return state.observers.remove(at: index).box
        }
        withExtendedLifetime(removed) {}
    }
}

final class BoxToken: Sendable {
    let list: LockedBoxList
    let id: Int
    init(list: LockedBoxList, id: Int) {
        self.list = list
        self.id = id
    }
    @inline(never) func dispose() { list.remove(id) }
}

func threadNanoseconds() -> UInt64 {
    var time = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
    return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
}

func measure(_ name: String, _ cycles: (Int, Sink) -> Int) {
    let sink = Sink()
    let count = 2_000_000
    var best = Double.infinity
    var check = 0
    for _ in 0..<5 {
        let start = threadNanoseconds()
        check &+= cycles(count, sink)
        best = min(best, Double(threadNanoseconds() - start) / Double(count))
    }
    // The check keeps the work from being optimised away.
    print(name, (best * 10).rounded() / 10, "ns per cycle", check == 42 ? "(!)" : "")
}

measure("unsynchronised:         ") { count, sink in
    let list = ClosureList()
    for _ in 0..<count { list.remove(list.add { sink.total &+= $0 }) }
    return list.count
}
measure("locked:                 ") { count, sink in
    let list = LockedClosureList()
    for _ in 0..<count { list.remove(list.add { sink.total &+= $0 }) }
    return list.count
}
measure("locked, with token:     ") { count, sink in
    let list = LockedClosureList()
    for _ in 0..<count { Token(list: list, id: list.add { sink.total &+= $0 }).dispose() }
    return list.count
}
measure("locked, token and box: ") { count, sink in
    let list = LockedBoxList()
    for _ in 0..<count { BoxToken(list: list, id: list.add { sink.total &+= $0 }).dispose() }
    return list.count
}
