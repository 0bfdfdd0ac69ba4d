import Testing
import RivuletChannels
import RivuletContracts

/// `combine` and `combineLatestWith`.
@Suite(.checksLiveObjects) struct CombineTests {
    @Test("A2 combineLatestWith emits once every side has a value, then on each new value")
    func combineLatestEmitsWhenBothHaveValues() {
        let (a, ca) = Channel<Int>.create()
        let (b, cb) = Channel<String>.create()
        let log = ChannelLog<String>()
        let output = ca.combineLatestWith(cb) { "\($0)\($1)" }.subscribe(log.handler)
        a.send(value: 1)
        a.send(value: 2)
        #expect(log.all == [])
        b.send(value: "x")
        b.send(value: "y")
        a.send(value: 3)
        #expect(log.all == ["2x", "2y", "3y"])
        withExtendedLifetime(output) {}
    }

    @Test("E1 combineLatestWith ends when a side ends, with that end")
    func combineLatestEndsWithASide() {
        let (a, ca) = Channel<Int>.create()
        let (b, cb) = Channel<Int>.create()
        let log = ChannelLog<Int>()
        let output = Channel.combineLatest(ca, cb) { $0 + $1 }.subscribe(log.handler)
        a.send(value: 1)
        a.complete()
        #expect(log.all == ["complete"])
        #expect(b.send(value: 2) != nil)
        withExtendedLifetime(output) {}
    }

    @Test("E2 combineLatestWith: a throwing processor ends with other")
    func combineLatestThrows() {
        let (a, ca) = Channel<Int>.create()
        let (b, cb) = Channel<Int>.create()
        let log = ChannelLog<Int>()
        let output = ca.combineLatestWith(cb) { _, _ -> Int in throw ChannelTestError(4) }.subscribe(log.handler)
        a.send(value: 1)
        b.send(value: 1)
        #expect(log.all == ["other(E4)"])
        withExtendedLifetime(output) {}
    }

    @Test("E1 combine hands every tagged result, ends included, to the processor, which decides the end")
    func combineTagsResults() {
        let (a, ca) = Channel<Int>.create()
        let (b, cb) = Channel<String>.create()
        let (c, cc) = Channel<Double>.create()
        let log = ChannelLog<String>()
        let output = ca.combine(cb, cc) { (either: EitherResult3<Int, String, Double>) -> ChannelNext<String> in
            switch either {
            case let .result1(.success(value)): return .value("a\(value)")
            case let .result2(.success(value)): return .value("b\(value)")
            case let .result3(.success(value)): return .value("c\(value)")
            case let .result1(.failure(end)): return .value("a-\(ChannelLog<Int>.describe(end))")
            case .result2(.failure): return .complete()
            case .result3(.failure): return .none
            }
        }
        .subscribe(log.handler)
        a.send(value: 1)
        b.send(value: "x")
        c.send(value: 1.5)
        a.complete()
        c.complete()
        #expect(log.all == ["a1", "bx", "c1.5", "a-complete"])
        b.complete()
        #expect(log.all == ["a1", "bx", "c1.5", "a-complete", "complete"])
        withExtendedLifetime(output) {}
    }
}
