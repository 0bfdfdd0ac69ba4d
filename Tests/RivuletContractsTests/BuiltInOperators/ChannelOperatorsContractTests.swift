import RivuletChannels
import RivuletContracts
import Testing

/// One built-in channel operator as the kit checks it: its name, how to apply it to the kit's
/// channel, and the options that describe it.
struct ChannelOperatorCase: Sendable, CustomTestStringConvertible {
    let name: String
    let options: ChannelContractOptions
    let check: @Sendable (_ name: String, _ options: ChannelContractOptions) -> ContractReport

    var testDescription: String { name }

    var report: ContractReport { check(name, options) }

    /// An operator on `Int` channels (inputs 1, 2, 3, 4).
    static func op<O: Sendable>(
        _ name: String, _ options: ChannelContractOptions = .default,
        _ apply: @escaping @Sendable (Channel<Int>) -> Channel<O>
    ) -> ChannelOperatorCase {
        ChannelOperatorCase(name: name, options: options) { ChannelContract.verify($0, options: $1, apply) }
    }

    /// An operator whose closures are wrapped in the kit's probe.
    static func probed<O: Sendable>(
        _ name: String, _ options: ChannelContractOptions = .default,
        _ apply: @escaping @Sendable (Channel<Int>, UserCodeProbe) -> Channel<O>
    ) -> ChannelOperatorCase {
        ChannelOperatorCase(name: name, options: options) { ChannelContract.verify($0, options: $1, apply) }
    }
}

/// Rivulet's built-in channel operators, one line each. Add a line for every new operator; the
/// test below and Docs/ContractMatrix.md (section Channels) pick it up.
enum BuiltInChannelOperators {
    /// Multis that activate their upstream as soon as they are made.
    static let eagerMulti = ChannelContractOptions(returnsMulti: true, activatesUpstreamAtCreation: true)
    /// Multis that activate their upstream with their first output.
    static let lazyMulti = ChannelContractOptions(returnsMulti: true)

    static let all: [ChannelOperatorCase] = [
        .probed("transform") { c, p in c.transform(p.wrap { (r: Result<Int, ChannelEnd>) in ChannelNext.result(r) }) },
        .probed("transform(initialState:)") { c, p in
            c.transform(initialState: 0) { (s: inout Int, r: Result<Int, ChannelEnd>) -> ChannelNext<Int> in
                guard case let .success(v) = r else { return .result(r) }
                s += p.wrap { (x: Int) in x }(v)
                return .value(s)
            }
        },
        .probed("map") { c, p in c.map(p.wrap { $0 * 2 }) },
        .probed("map(initialState:)") { c, p in
            c.map(initialState: 0) { (s: inout Int, v: Int) -> Int in
                s += p.wrap { (x: Int) in x }(v)
                return s
            }
        },
        .probed("filter") { c, p in c.filter(p.wrap { $0 % 2 == 0 }) },
        .probed("filter(matching:)") { c, p in c.filter(matching: p.wrap { $0 > 1 }) },
        .probed("compactMap") { c, p in c.compactMap(p.wrap { $0 == 3 ? nil : $0 * 10 }) },
        .probed("compactMap(initialState:)") { c, p in
            c.compactMap(initialState: 0) { (s: inout Int, v: Int) -> Int? in
                s += p.wrap { (x: Int) in x }(v)
                return s % 2 == 0 ? s : nil
            }
        },
        .op("continuous", eagerMulti) { $0.continuous() },
        .op("continuous(initialValue:)", eagerMulti) { $0.continuous(initialValue: 0) },
        .op("continuousWhileActive", lazyMulti) { $0.continuousWhileActive() },
        .op("playback", eagerMulti) { $0.playback() },
        .op("multicast", lazyMulti) { $0.multicast() },
        .probed("customActivation", eagerMulti) { c, p in
            c.customActivation { (values: inout [Int], end: inout ChannelEnd?, r: Result<Int, ChannelEnd>) in
                switch r {
                case let .success(v): values = [p.wrap { (x: Int) in x }(v)]
                case let .failure(e): end = e
                }
            }
        },
        .probed("reduce", eagerMulti) { c, p in c.reduce(initialState: 0, p.wrap { $0 + $1 }) },
        // An end becomes a value followed by `.complete`: the input's end is turned, not forwarded.
        .op("materialize", ChannelContractOptions(turnsInputEndsIntoValues: true)) { $0.materialize().map { "\($0)" } },
        .op("merge") { Channel<Int>.merge($0, Channel<Int>.preclosed(end: .complete)) }, // swiftlang/swift#80146
        .op("merge (instance)") { $0.merge(Channel<Int>.preclosed(end: .complete)) },
        .probed("combine") { c, p in
            c.combine(Channel<String>.preclosed(end: .complete)) { (either: EitherResult2<Int, String>) -> ChannelNext<Int> in
                switch either {
                case let .result1(.success(v)): return .value(p.wrap { (x: Int) in x }(v))
                case let .result1(.failure(end)): return .end(end)
                case .result2: return .none
                }
            }
        },
        .probed("combineLatestWith") { c, p in
            let (input, side) = Channel<Int>.create { $0.continuous(initialValue: 100) }
            return c.combineLatestWith(side) { a, b in withExtendedLifetime(input) { p.wrap { (x: Int) in x }(a + b) } }
        },
        .op("zip") { Channel.zip($0, Channel<Int>.preclosed(values: Array(100..<200), end: .complete)).map { $0 + $1 } },
        .op("switchLatest") { $0.map { Channel<Int>.preclosed($0) }.switchLatest() },
        .op("flatMap") { $0.flatMap { Channel<Int>.preclosed($0, $0) } },
        .op("flatMapLatest") { $0.flatMapLatest { Channel<Int>.preclosed($0) } },
        .op("concatMap") { $0.concatMap { Channel<Int>.preclosed($0) } },
        .op("buffer(count:)") { $0.buffer(count: 2).map { $0.reduce(0, +) } },
        .op("timeout (not reached)") { $0.timeout(interval: .seconds(3_600)) },
        .op("cacheUntilActive", ChannelContractOptions(activatesUpstreamAtCreation: true)) { $0.cacheUntilActive() },
        // `resend: .all`: with the default `.none` the captured activation values are, by design,
        // not delivered again (A8), which A2's check would read as lost activation values.
        .op("capture().resume(resend: .all)", ChannelContractOptions(activatesUpstreamAtCreation: true)) {
            $0.capture().resume(resend: .all)
        },
        .op("junction().bind(to:)") { channel in
            let (input, target) = Channel<Int>.create()
            try? channel.junction().bind(to: input)
            return target
        },
        .op("createMergedInput, closePropagation: .all") { channel in
            let (input, merged) = Channel<Int>.createMergedInput()
            input.add(channel, closePropagation: .all)
            return merged.map { value in withExtendedLifetime(input) { value } }
        },
        .op("createMultiInput", ChannelContractOptions(swallowsInputEnds: true)) { channel in
            let (input, merged) = Channel<Int>.createMultiInput()
            input.add(channel)
            return merged.map { value in withExtendedLifetime(input) { value } }
        },
    ]
}

@Suite("Contract kit: built-in channel operators")
struct ChannelOperatorsContractTests {
    @Test(arguments: BuiltInChannelOperators.all)
    func keepsTheActivationContracts(_ operatorCase: ChannelOperatorCase) {
        let report = operatorCase.report
        #expect(report.isConforming, "\(report)")
        #expect(report.clausesChecked.contains(.a1) && report.clausesChecked.contains(.a9))
    }

    @Test func everyOperatorIsListedOnce() {
        let names = BuiltInChannelOperators.all.map(\.name)
        #expect(Set(names).count == names.count, "duplicate channel operators: \(names)")
    }
}
