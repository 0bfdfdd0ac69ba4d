// The floor under compare's chain workload (2): eight alternating map and filter stages run
// three ways in plain Swift, per value, in this thread's CPU time.
//
//   swiftc -O Tools/bench/chain-floor.swift -o /tmp/chain-floor && /tmp/chain-floor
//
// - flat: one closure with the eight stages inlined (compare's baseline);
// - nested: one closure per stage, each calling the next through a stored closure of a concrete
//   type (values in registers);
// - nested generic: the same, with the stages built by generic functions and kept in a generic
//   class, as any library whose operators return a type-erased stream keeps them (values go
//   through memory, and every call crosses a reabstraction thunk);
// - nested generic, events: the same, passing each stage an event (a value, or one of three
//   terminal cases) instead of the bare value, as a stream whose stages also carry its end does.
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

final class Sink { var total = 0 }

final class Next<T> {
    let call: (T) -> Void
    init(_ call: @escaping (T) -> Void) { self.call = call }
}

final class ConcreteNext {
    let call: (Int) -> Void
    init(_ call: @escaping (Int) -> Void) { self.call = call }
}

@inline(never) func mapStage<T, U>(_ transform: @escaping (T) -> U, _ next: Next<U>) -> Next<T> {
    Next { next.call(transform($0)) }
}

@inline(never) func filterStage<T>(_ isIncluded: @escaping (T) -> Bool, _ next: Next<T>) -> Next<T> {
    Next { if isIncluded($0) { next.call($0) } }
}

/// An event as a stream passes it: a value or one of three terminal cases.
enum Ev<T> { case value(T), failed(Never), completed, interrupted }

final class EvNext<T> {
    let call: (Ev<T>) -> Void
    init(_ call: @escaping (Ev<T>) -> Void) { self.call = call }
}

@inline(never) func evMapStage<T, U>(_ transform: @escaping (T) -> U, _ next: EvNext<U>) -> EvNext<T> {
    EvNext { event in
        switch event {
        case let .value(v): next.call(.value(transform(v)))
        case .completed: next.call(.completed)
        case .interrupted: next.call(.interrupted)
        }
    }
}

@inline(never) func evFilterStage<T>(_ isIncluded: @escaping (T) -> Bool, _ next: EvNext<T>) -> EvNext<T> {
    EvNext { event in
        switch event {
        case let .value(v): if isIncluded(v) { next.call(.value(v)) }
        case .completed: next.call(.completed)
        case .interrupted: next.call(.interrupted)
        }
    }
}

@inline(never) func nestedGenericEvents(_ sink: Sink) -> (Int) -> Void {
    var next = EvNext<Int> { if case let .value(v) = $0 { sink.total &+= v } }
    for stage in 0..<8 {
        next = stage.isMultiple(of: 2) ? evMapStage({ $0 &+ 1 }, next) : evFilterStage({ $0 >= 0 }, next)
    }
    let first = next
    return { first.call(.value($0)) }
}

@inline(never) func nestedGeneric(_ sink: Sink) -> (Int) -> Void {
    var next = Next<Int> { sink.total &+= $0 }
    for stage in 0..<8 {
        next = stage.isMultiple(of: 2) ? mapStage({ $0 &+ 1 }, next) : filterStage({ $0 >= 0 }, next)
    }
    return next.call
}

@inline(never) func nested(_ sink: Sink) -> (Int) -> Void {
    var next = ConcreteNext { sink.total &+= $0 }
    for stage in 0..<8 {
        let after = next
        next = stage.isMultiple(of: 2) ? ConcreteNext { after.call($0 &+ 1) } : ConcreteNext { if $0 >= 0 { after.call($0) } }
    }
    return next.call
}

@inline(never) func flat(_ sink: Sink) -> (Int) -> Void {
    { value in
        var current = value
        for stage in 0..<8 {
            if stage.isMultiple(of: 2) { current &+= 1 } else if current < 0 { return }
        }
        sink.total &+= current
    }
}

func threadNanoseconds() -> UInt64 {
    var time = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
    return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
}

func measure(_ name: String, _ make: (Sink) -> (Int) -> Void) {
    let sink = Sink()
    let send = make(sink)
    let count = 5_000_000
    var best = Double.infinity
    for _ in 0..<5 {
        let start = threadNanoseconds()
        for value in 0..<count { send(value) }
        best = min(best, Double(threadNanoseconds() - start) / Double(count))
    }
    // The sink's total keeps the work from being optimised away.
    print(name, (best * 10).rounded() / 10, "ns per value", sink.total == 42 ? "(!)" : "")
}

measure("flat:          ", flat)
measure("nested:        ", nested)
measure("nested generic:", nestedGeneric)
measure("nested generic, events:", nestedGenericEvents)
