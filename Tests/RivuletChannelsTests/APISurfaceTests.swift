import Dispatch
import Testing
import RivuletChannels
import RivuletContracts

/// Every entry of the channel API page, written the way a CwlSignal user writes it (labels,
/// defaults, trailing closures), each call checked for what it returns.
@Suite(.checksLiveObjects) struct APISurfaceTests {
    @Test("types: a multi is a Channel, inputs are classes, ends and errors have their cases")
    func types() {
        let multi: Channel<Int> = Channel<Int>.preclosed(1, 2)
        #expect(multi is ChannelMulti<Int>)
        let (input, _) = Channel<Int>.create()
        let same: ChannelInput<Int> = input
        #expect(same === input)
        let (multiInput, _) = Channel<Int>.createMultiInput()
        let asInput: ChannelInput<Int> = multiInput
        #expect(asInput === multiInput)
        let (mergedInput, _) = Channel<Int>.createMergedInput()
        let asMulti: ChannelMultiInput<Int> = mergedInput
        #expect(asMulti === mergedInput)
        let ends: [ChannelEnd] = [.complete, .cancelled, .other(ChannelTestError(1))]
        #expect(ends.map { ChannelLog<Int>.describe($0) } == ["complete", "cancelled", "other(E1)"])
        // These cases are checked by compiling them (their behaviour has tests of its own).
        _ = [ChannelSendError.inactive, .disconnected]
        _ = [ChannelBindError<Int>.cancelled, .loop, .duplicate(nil), .duplicate(input)]
        _ = [ChannelActivationSelection.all, .deferred, .first, .last, .none]
        _ = [ChannelEndPropagation.none, .errors, .all]
        #expect(ChannelReactiveError.timeout == .timeout)
        let either: EitherResult3<Int, String, Bool> = .result3(.success(true))
        if case .result3(.success(true)) = either {} else { Issue.record("EitherResult3") }
        let contexts: [Exec] = [.direct, .global, .main, .mainAsync, .queue(.main, .serialAsync), Exec(ImmediateScheduler())]
        #expect(contexts.map(\.isDirect) == [true, false, false, false, false, false])
    }

    @Test("ChannelNext builders")
    func next() {
        func describe(_ next: ChannelNext<Int>) -> [String] {
            let log = ChannelLog<Int>()
            switch next {
            case .none: break
            case let .single(result): log.append(result)
            case let .array(results): results.forEach(log.append)
            }
            return log.all
        }
        #expect(describe(.value(1)) == ["1"])
        #expect(describe(.value(1, end: .complete)) == ["1", "complete"])
        #expect(describe(.values(1, 2)) == ["1", "2"])
        #expect(describe(.values(1, 2, end: .cancelled)) == ["1", "2", "cancelled"])
        #expect(describe(.values(sequence: [3, 4])) == ["3", "4"])
        #expect(describe(.error(ChannelTestError(2))) == ["other(E2)"])
        #expect(describe(.end(.cancelled)) == ["cancelled"])
        #expect(describe(.complete()) == ["complete"])
        #expect(describe(.none).isEmpty)
    }

    @Test("making channels: create, create with a trailing closure, generate, preclosed")
    func making() {
        let (input, composed) = Channel<Int>.create { $0.continuous() }
        input.send(value: 5)
        #expect(composed.peek() == 5)
        let log = ChannelLog<Int>()
        let outputs = [
            Channel<Int>.preclosed(1, 2, end: .cancelled).subscribe(log.handler),
            Channel<Int>.preclosed(end: .complete).subscribe(log.handler),
            Channel<Int>.preclosed(3).subscribe(log.handler),
        ]
        #expect(log.all == ["1", "2", "cancelled", "complete", "3", "complete"])
        let held = Shared<ChannelInput<Int>?>(nil)
        let generated = Channel<Int>.generate(context: .direct) { held.set($0) }
        let output = generated.subscribeValues { _ in }
        #expect(held.current != nil)
        withExtendedLifetime((outputs, output)) {}
    }

    @Test("inputs: every send form and its outcome")
    func inputs() {
        let (input, channel) = Channel<Int>.create()
        let log = ChannelLog<Int>()
        let output = channel.subscribe(context: .direct, log.handler)
        let sent: ChannelSendError? = input.send(value: 1)
        #expect(sent == nil)
        #expect(input.send(result: .success(2)) == nil)
        input.complete()
        #expect(input.send(value: 3) == .disconnected)
        #expect(log.all == ["1", "2", "complete"])
        let (other, otherChannel) = Channel<Int>.create()
        let otherLog = ChannelLog<Int>()
        let otherOutput = otherChannel.subscribe(otherLog.handler)
        other.send(error: ChannelTestError(7))
        #expect(otherLog.all == ["other(E7)"])
        let (third, thirdChannel) = Channel<Int>.create()
        let thirdLog = ChannelLog<Int>()
        let thirdOutput = thirdChannel.subscribe(thirdLog.handler)
        third.send(end: .cancelled)
        #expect(thirdLog.all == ["cancelled"])
        let (fourth, fourthChannel) = Channel<Int>.create()
        let fourthLog = ChannelLog<Int>()
        let fourthOutput = fourthChannel.subscribe(fourthLog.handler)
        fourth.cancel()
        #expect(fourthLog.all == ["cancelled"])
        #expect(fourth.isDisposed)
        let disposable: any Disposable = fourth
        disposable.dispose()
        withExtendedLifetime((output, otherOutput, thirdOutput, fourthOutput)) {}
    }

    @Test("multi and merged inputs: add, remove, singleInput, closePropagation")
    func multiInputs() {
        let (multi, channel) = Channel<Int>.createMultiInput()
        #expect(multi.send(value: 0) == .inactive)
        let log = ChannelLog<Int>()
        let output = channel.subscribe(log.handler)
        let (a, source) = Channel<Int>.create()
        multi.add(source)
        a.send(value: 1)
        multi.remove(source)
        #expect(a.send(value: 2) == .disconnected)
        let single = multi.singleInput()
        single.send(value: 3)
        single.complete()
        multi.send(value: 4)
        #expect(log.all == ["1", "3", "4"])

        let (merged, mergedChannel) = Channel<Int>.createMergedInput(onLastInputClosed: .complete, onDeinit: .cancelled)
        let mergedLog = ChannelLog<Int>()
        let mergedOutput = mergedChannel.subscribe(mergedLog.handler)
        let (b, bSource) = Channel<Int>.create()
        let (c, cSource) = Channel<Int>.create()
        merged.add(bSource, closePropagation: .errors)
        merged.add(cSource, closePropagation: .none, removeOnDeactivate: true)
        b.send(value: 1)
        b.complete()
        c.send(value: 2)
        c.complete()
        #expect(mergedLog.all == ["1", "2", "complete"])
        withExtendedLifetime((output, mergedOutput)) {}
    }

    @Test("subscribing: subscribe, subscribeValues, subscribeWhile, ChannelOutput")
    func subscribing() {
        let (input, multi) = Channel<Int>.create { $0.multicast() }
        let log = ChannelLog<Int>()
        let values = multi.subscribeValues(context: .direct) { log.appendText("v\($0)") }
        let seen = Shared<[Int]>([])
        multi.subscribeWhile(context: .direct) { result in
            seen.withLock { seen in
                if case let .success(value) = result { seen.append(value) }
                return seen.count < 2
            }
        }
        input.send(value: 1)
        input.send(value: 2)
        input.send(value: 3)
        #expect(seen.current == [1, 2])
        #expect(log.all == ["v1", "v2", "v3"])
        #expect(values.isClosed == false)
        values.cancel()
        #expect(values.isClosed)
        let disposable: any Disposable = values
        #expect(disposable.isDisposed)
    }

    @Test("transforming: every processor form and label")
    func transforming() {
        let (input, channel) = Channel<Int>.create { $0.playback() }
        for value in 1...4 { input.send(value: value) }
        input.complete()
        func run<U: Sendable>(_ channel: Channel<U>) -> [String] {
            let log = ChannelLog<U>()
            let output = channel.subscribe(log.handler)
            withExtendedLifetime(output) {}
            return log.all
        }
        #expect(run(channel.transform { $0.map { $0 * 2 }.channelNext }) == ["2", "4", "6", "8", "complete"])
        #expect(
            run(
                channel.transform(initialState: 0, context: .direct) { (sum: inout Int, result) -> ChannelNext<Int> in
                    guard case let .success(value) = result else { return .complete() }
                    sum += value
                    return .value(sum)
                }) == ["1", "3", "6", "10", "complete"])
        #expect(run(channel.map { "\($0)" }) == ["1", "2", "3", "4", "complete"])
        #expect(
            run(
                channel.map(initialState: 10) { state, value in
                    state += value; return state
                }) == ["11", "13", "16", "20", "complete"])
        #expect(run(channel.filter { $0.isMultiple(of: 2) }) == ["2", "4", "complete"])
        #expect(run(channel.filter(matching: { $0 > 2 })) == ["3", "4", "complete"])
        #expect(run(channel.compactMap { $0 == 2 ? nil : $0 }) == ["1", "3", "4", "complete"])
        #expect(
            run(
                channel.compactMap(initialState: 0) { count, value in
                    count += 1; return count == 1 ? nil : value
                }) == ["2", "3", "4", "complete"])
        #expect(
            run(
                channel.map { value -> Int in
                    if value == 3 { throw ChannelTestError(3) }; return value
                }) == ["1", "2", "other(E3)"])
        #expect(
            run(channel.materialize()) == [
                "success(1)", "success(2)", "success(3)", "success(4)", "failure(RivuletChannels.ChannelEnd.complete)",
                "complete",
            ])
    }

    @Test("multis and caches: every form")
    func multis() {
        let (input, channel) = Channel<Int>.create()
        let continuous: ChannelMulti<Int> = channel.continuous()
        input.send(value: 1)
        #expect(continuous.peek() == 1)
        let (input2, channel2) = Channel<Int>.create()
        let withInitial = channel2.continuous(initialValue: 0)
        #expect(withInitial.peek() == 0)
        input2.send(value: 2)
        #expect(withInitial.peek() == 2)
        let (_, channel3) = Channel<Int>.create()
        #expect(channel3.continuousWhileActive().peek() == nil)
        let (input4, channel4) = Channel<Int>.create()
        let custom = channel4.customActivation(initialValues: [9], context: .direct) { values, end, result in
            if case let .success(value) = result { values.append(value) }
            if case let .failure(ended) = result { end = ended }
        }
        input4.send(value: 10)
        #expect(custom.capture().values == [9, 10])
        let (input5, channel5) = Channel<Int>.create()
        let reduced = channel5.reduce(initialState: 100) { $0 + $1 }
        input5.send(value: 1)
        #expect(reduced.peek() == 101)
        let (input6, channel6) = Channel<Int>.create()
        let latest = channel6.cacheLatest()
        #expect(latest.latestValue == nil)
        input6.send(value: 6)
        #expect(latest.latestValue == 6)
        let (input7, channel7) = Channel<Int>.create()
        let cached: Channel<Int> = channel7.cacheUntilActive()
        input7.send(value: 7)
        let log = ChannelLog<Int>()
        let output = cached.subscribe(log.handler)
        #expect(log.all == ["7"])
        withExtendedLifetime(output) {}
    }

    @Test("capture: values, end, peek, get, resume, bind, subscribe")
    func capture() throws {
        let (input, multi) = Channel<Int>.create { $0.playback() }
        input.send(value: 1)
        let capture = multi.capture()
        #expect(capture.values == [1])
        #expect(capture.end == nil)
        #expect(capture.peek() == 1)
        #expect(try capture.get() == 1)
        let (target, targetChannel) = Channel<Int>.create()
        let log = ChannelLog<Int>()
        let output = targetChannel.subscribe(log.handler)
        try capture.bind(to: target, resend: .all)
        input.send(value: 2)
        #expect(log.all == ["1", "2"])
        let second = multi.capture()
        let resumed: Channel<Int> = second.resume()
        let other = ChannelLog<Int>()
        let otherOutput = resumed.subscribeValues { other.appendText("\($0)") }
        input.send(value: 3)
        #expect(other.all == ["3"])
        let third = multi.capture()
        let thirdOutput = third.subscribeValues(context: .direct) { _ in }
        let fourth = multi.capture()
        let fourthOutput = fourth.subscribe(context: .direct) { _ in }
        withExtendedLifetime((output, otherOutput, thirdOutput, fourthOutput)) {}
    }

    @Test("junction: bind, bind with onEnd, disconnect, rebind")
    func junction() throws {
        let (source, channel) = Channel<Int>.create()
        let (target, targetChannel) = Channel<Int>.create()
        let log = ChannelLog<Int>()
        let output = targetChannel.subscribe(log.handler)
        let junction: ChannelJunction<Int> = channel.junction()
        var ends: [String] = []
        try junction.bind(to: target) { junction, end, input in
            ends.append(ChannelLog<Int>.describe(end))
            input.send(value: 100)
        }
        source.send(value: 1)
        source.complete()
        #expect(ends == ["complete"])
        // The handler let go of the fresh input, which ends the channel it fed (A7).
        #expect(log.all == ["1", "100", "cancelled"])
        #expect(junction.disconnect() == nil)
        let (source2, channel2) = Channel<Int>.create()
        let junction2 = channel2.junction()
        #expect(throws: ChannelBindError<Int>.self) { try junction2.bind(to: target) }
        junction2.rebind()
        withExtendedLifetime((output, source2)) {}
    }

    @Test("combining: combine (2–5, with state), combineLatestWith, combineLatest, merge, zip")
    func combining() {
        let (a, ca) = Channel<Int>.create { $0.continuous(initialValue: 1) }
        let (b, cb) = Channel<String>.create { $0.continuous(initialValue: "b") }
        let log = ChannelLog<String>()
        var outputs: [ChannelOutput<String>] = []
        outputs.append(
            ca.combine(cb, context: .direct) { (either: EitherResult2<Int, String>) -> ChannelNext<String> in
                switch either {
                case let .result1(.success(value)): return .value("a\(value)")
                case let .result2(.success(value)): return .value(value)
                default: return .none
                }
            }.subscribe(log.handler))
        outputs.append(
            ca.combine(cb, initialState: 0, context: .direct) {
                (count: inout Int, _: EitherResult2<Int, String>) -> ChannelNext<String> in
                count += 1
                return .value("n\(count)")
            }.subscribe(log.handler))
        outputs.append(ca.combine(cb, cb) { (_: EitherResult3<Int, String, String>) in .none }.subscribe(log.handler))
        outputs.append(ca.combine(cb, cb, ca) { (_: EitherResult4<Int, String, String, Int>) in .none }.subscribe(log.handler))
        outputs.append(
            ca.combine(cb, cb, ca, ca) { (_: EitherResult5<Int, String, String, Int, Int>) in .none }.subscribe(log.handler))
        outputs.append(ca.combineLatestWith(cb, context: .direct) { "\($0)\($1)" }.subscribe(log.handler))
        outputs.append(Channel.combineLatest(ca, cb, context: .direct) { "L\($0)\($1)" }.subscribe(log.handler))
        outputs.append(Channel.zip(ca, cb).map { "z\($0)\($1)" }.subscribe(log.handler))
        outputs.append(ca.map { "\($0)" }.merge(cb).subscribe(log.handler))
        // `Channel<String>`, not `Channel`: see swiftlang/swift#80146 in Docs/Concurrency.md.
        outputs.append(Channel<String>.merge(ca.map { "m\($0)" }, cb).subscribe(log.handler))
        #expect(log.all.contains("1b"))
        #expect(log.all.contains("L1b"))
        #expect(log.all.contains("z1b"))
        #expect(log.all.contains("m1"))
        withExtendedLifetime((a, b, outputs)) {}
    }

    @Test("time and higher order: timer, timeout, switchLatest")
    func timeAndHigherOrder() {
        let scheduler = TestScheduler()
        let context = Exec(scheduler)
        let log = ChannelLog<Int>()
        let timer = Channel<Int>.timer(interval: .seconds(1), value: 5, context: context).subscribe(log.handler)
        let (input, channel) = Channel<Int>.create()
        let timeout = channel.timeout(interval: .seconds(2), resetOnValue: true, context: context).subscribe(log.handler)
        scheduler.advance(by: .seconds(1))
        input.send(value: 1)
        scheduler.advance(by: .seconds(3))
        #expect(log.all == ["5", "complete", "1", "timeout"])
        let (outer, outerChannel) = Channel<Channel<Int>>.create()
        let switched = ChannelLog<Int>()
        let switchOutput = outerChannel.switchLatest().subscribe(switched.handler)
        outer.send(value: Channel<Int>.preclosed(1, 2))
        #expect(switched.all == ["1", "2"])
        withExtendedLifetime((timer, timeout, switchOutput)) {}
    }

    @Test("bridges: Channel(producer), producer.channel(), channel.producer, multi.property, Disposable")
    func bridges() {
        let log = ChannelLog<Int>()
        let fromProducer = Channel(SignalProducer<Int, ChannelTestError>(value: 1)).subscribe(log.handler)
        let channelled = SignalProducer<Int, Never>(value: 2).channel().subscribe(log.handler)
        #expect(log.all == ["1", "complete", "2", "complete"])
        let producer: SignalProducer<Int, ChannelEnd> = Channel<Int>.preclosed(3).producer
        let events = Shared<[String]>([])
        producer.start { event in events.withLock { $0.append("\(event)") } }
        #expect(events.current.count == 2)
        let property: Property<Int>? = Channel<Int>.preclosed(4).property
        #expect(property?.value == 4)
        let disposable: any Disposable = fromProducer
        disposable.dispose()
        #expect(fromProducer.isDisposed)
        withExtendedLifetime(channelled) {}
    }
}

extension Result where Failure == ChannelEnd {
    fileprivate var channelNext: ChannelNext<Success> {
        switch self {
        case let .success(value): return .value(value)
        case let .failure(end): return .end(end)
        }
    }
}
