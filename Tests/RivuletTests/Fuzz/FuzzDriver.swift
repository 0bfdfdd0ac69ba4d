import Foundation
import Testing

// The fuzz suite's driver.
//
// By default (CI) every family runs the scripts of seeds 0..<1000 (0..<250 under a sanitizer),
// each against every operator of the family, in its signal and its producer form. Two environment
// variables change that:
//
//   RIVULET_FUZZ_SCRIPTS=100000  runs seeds 0..<100000 (the nightly-style mode);
//   RIVULET_FUZZ_SEED=<n>        replays the one script of seed n (a failure prints its seed).
//
// A failing script is shrunk (steps dropped, values simplified, while the failure persists) and
// reported as readable Swift-like steps with its seed.
//
// The files: FuzzRandom (the seeded generator), FuzzScript (steps and the script generator),
// FuzzModel and FuzzModels+* (the reference models and the virtual clock of the timed ones),
// FuzzOperator (an operator's forms and model), FuzzRunner (runs a script, checks E1, E5, E6, S5),
// this driver with the shrinker, the family tests, and FuzzConcurrencyTests (item 3).
//
// A limit: the models see a clock tick as one step, so an input made in the middle of a tick
// cannot be placed; observers therefore send re-entrantly (and the producer form disposes of its
// start from inside a delivery) only outside ticks.

/// The seeds to run, from the environment (see the top of this file).
func fuzzSeeds() -> [UInt64] {
    let environment = ProcessInfo.processInfo.environment
    if let seed = environment["RIVULET_FUZZ_SEED"].flatMap(UInt64.init) { return [seed] }
    // Under a sanitizer (CI runs the whole suite under Thread and Address Sanitizer too) every
    // event costs many times more; a quarter of the range keeps that run short.
    let count = environment["RIVULET_FUZZ_SCRIPTS"].flatMap(UInt64.init) ?? (isRunningUnderAMemorySanitizer ? 250 : 1000)
    return Array(0..<count)
}

/// Runs the family's scripts against each of its operators; records one issue per failing
/// operator, with its shrunk reproduction. Returns how many scripts were generated.
@discardableResult
func fuzzFamily(_ family: String, shape: FuzzShape, _ cases: [FuzzCase], sourceLocation: SourceLocation = #_sourceLocation) -> Int
{
    let seeds = fuzzSeeds()
    var failed = Set<String>()
    for seed in seeds {
        let script = FuzzScript(seed: seed, shape: shape)
        for fuzzCase in cases where !failed.contains(fuzzCase.name) {
            guard let problem = fuzzCase.run(script) else { continue }
            failed.insert(fuzzCase.name)
            let (shrunk, shrunkProblem) = shrink(script, problem, fuzzCase.run)
            Issue.record(
                """
                \(family) / \(fuzzCase.name): \(shrunkProblem)
                shrunk from \(script.steps.count) to \(shrunk.steps.count) steps:
                \(shrunk)
                """,
                sourceLocation: sourceLocation)
        }
    }
    print("Fuzz \(family): \(seeds.count) scripts × \(cases.count) operators (\(cases.map(\.name).joined(separator: ", ")))")
    return seeds.count
}

/// Shrinks a failing script: drops runs of steps (halving the run length), then simplifies single
/// steps, for as long as the script still fails.
func shrink(_ script: FuzzScript, _ problem: String, _ run: (FuzzScript) -> String?) -> (FuzzScript, String) {
    var best = (script, problem)
    var budget = 3000
    func attempt(_ steps: [FuzzStep]) -> Bool {
        guard budget > 0 else { return false }
        budget -= 1
        let candidate = FuzzScript(seed: script.seed, steps: steps)
        guard let failure = run(candidate) else { return false }
        best = (candidate, failure)
        return true
    }
    var changed = true
    while changed && budget > 0 {
        changed = false
        var length = max(1, best.0.steps.count / 2)
        while length >= 1 {
            var start = 0
            while start + length <= best.0.steps.count {
                var steps = best.0.steps
                steps.removeSubrange(start..<start + length)
                if attempt(steps) { changed = true } else { start += 1 }
            }
            length /= 2
        }
        for index in best.0.steps.indices {
            for simpler in simplifications(of: best.0.steps[index]) {
                var steps = best.0.steps
                steps[index] = simpler
                if attempt(steps) {
                    changed = true
                    break
                }
            }
        }
    }
    return best
}

private func simplifications(of step: FuzzStep) -> [FuzzStep] {
    switch step {
    case .send(let port, let value) where value > 0: [.send(port: port, 0), .send(port: port, value - 1)]
    case .fail(let port, let code) where code > 0: [.fail(port: port, 0)]
    case .fail(let port, _): [.complete(port: port)]
    case .interrupt(let port): [.complete(port: port)]
    case .advance(let ticks) where ticks > 1: [.advance(1), .advance(ticks - 1)]
    case .reenter(let value) where value > 0: [.reenter(0)]
    case .reenter: [.disposeFromInside]
    case .leave(let index) where index > 0: [.leave(0)]
    default: []
    }
}
