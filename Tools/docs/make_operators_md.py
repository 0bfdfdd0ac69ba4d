#!/usr/bin/env python3
"""Builds Docs/Operators.md from the api-surface checklist's peer names, Rivulet's own one-line
meanings (MEANINGS below) and the files that implement and test each row (LINKS below).

Run from anywhere:
    python3 Tools/docs/make_operators_md.py > Docs/Operators.md
    python3 Tools/docs/make_operators_md.py -o Docs/Operators.md      # written only on success
The checklist defaults to Tools/docs/api-surface.md, the repository's copy of the shared reference;
pass another path as the first argument to use a different one. Tools/docs/check_operators_md.sh
fails when the committed Docs/Operators.md differs from what this script generates.

Adding an operator: give its row a meaning in MEANINGS and its source and test files in LINKS.
The script exits non-zero, printing nothing, if a row lacks either or if a linked file is missing."""
import argparse, os, re, sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DEFAULT_SURFACE = os.path.join(ROOT, "Tools", "docs", "api-surface.md")

MEANINGS = {
 1: "Creates a hot signal and runs the generator at once with its input observer and lifetime (S1).",
 2: "A signal and the observer that sends into it; the disposable is disposed of when the signal ends.",
 3: "Source-compatible spellings of the above; Rivulet signals stay serialized and queue re-entrant sends.",
 4: "A signal that never sends anything; a signal that has already completed.",
 5: "A cold producer: the handler runs on every start, with a serialized observer and the start's lifetime.",
 6: "Source-compatible spelling of the above; the observer stays serialized.",
 7: "Producers of one value, of a list or sequence's elements, of a failure, of a `Result`; each then completes.",
 8: "Calls the closure on each start and sends its value (or its failure).",
 9: "A producer that observes a signal on each start; anything convertible to a producer, as a producer.",
 10: "Sends the scheduler's current date every interval; never completes.",
 11: "Sends a sequence's elements one per interval, then completes; or counts 0, 1, 2, … one per interval.",
 12: "Producer of a `Result`; signal of `NotificationCenter` notifications; producer of a `URLSession` load.",
 13: "Attaches an observer to a signal (the closure forms pick the events they care about).",
 14: "Starts a producer with an observer (the closure forms pick the events they care about); disposing interrupts.",
 15: "Starts a producer and hands out its signal and interrupter before any event is sent.",
 16: "Runs each start (the start handler included) on a scheduler; disposing first cancels the start.",
 17: "Delivers every event through a scheduler, in order; senders never wait for the scheduler.",
 18: "Transforms each value.",
 19: "Replaces each value with a constant.",
 20: "Reads a key path of each value.",
 21: "Transforms on a scheduler, skipping the transforms of values superseded before they ran.",
 22: "Transforms each value and drops the `nil` results.",
 23: "Drops `nil` values and unwraps the rest.",
 24: "Accumulates the values, sending every intermediate result.",
 25: "Accumulates state and sends a value derived from state and input each time.",
 26: "Sends each value paired with the previous one (or with the initial value first).",
 27: "Turns every event, terminal ones included, into a value (of type `Event` or `Result`).",
 28: "The inverse of `materialize`: values that are events (or results) become the events themselves.",
 29: "Runs a check on each value that may fail the stream; passes the value on otherwise.",
 30: "Transforms each value with an operation that may fail the stream.",
 31: "Sends the elements of each sequence value, one by one.",
 32: "Boolean logic over Bool streams: not, and, or, all of, any of (the latest values combined).",
 33: "Turns a stream that cannot send values into one of any value type.",
 34: "Write a custom operator as a signal generator that observes its source.",
 35: "Forwards only the values that pass a test.",
 36: "Drops a value equal (or equivalent) to the one received just before it.",
 37: "Drops any value seen before (by identity of the value or of a derived key).",
 38: "Drops the first n values.",
 39: "Drops values while a test holds, then forwards everything.",
 40: "Drops values until a trigger sends a value or completes; the source's terminal events always pass (E2).",
 41: "Forwards the first n values, then completes and stops the upstream.",
 42: "Buffers and, at completion, sends the last n values.",
 43: "Forwards values while a test holds; completes at the first value that fails it (dropped).",
 44: "Forwards values and completes after the first one that fails the test (that one is sent).",
 45: "Forwards events until a trigger sends a value or completes, then completes.",
 46: "Forwards everything until a lifetime ends, then completes.",
 47: "Forwards this stream until the replacement's first event, then only the replacement.",
 48: "At each sampler value, sends the latest value paired with the sampler's value.",
 49: "At each trigger value, sends the latest value.",
 50: "Pairs each value with the other stream's latest value (values before it has one are dropped).",
 51: "Tuples of the latest values of every input, once all have one; completes when all complete; fails or is interrupted as soon as any input is.",
 52: "Tuples matched by position; completes once a completed input has no unpaired value left.",
 53: "One stream of the values of several; fails as soon as one fails, completes when all have completed.",
 54: "Runs another producer (or sends a value, or fails) after this one completes.",
 55: "Runs another producer (or sends a value) before this one.",
 56: "Waits for this producer to complete, ignoring its values, then forwards the replacement; failure and interruption pass at once.",
 57: "Flattening: forwards the values of every inner stream as they arrive.",
 58: "Flattening: runs inner streams one after another, in order.",
 59: "Flattening: runs up to n inner streams at once, queueing the rest.",
 60: "Flattening: forwards only the newest inner stream, disposing of the previous one.",
 61: "Flattening: the first inner stream to send an event wins; the others are disposed of.",
 62: "Flattening: ignores new inner streams while one is running.",
 63: "On failure, switches to the producer that the closure returns for the error.",
 64: "Shifts values and completion later by an interval; failure and interruption are not delayed (E2).",
 65: "Sends the latest value at most once per interval; a value is sent at once if the interval has already passed.",
 66: "Holds back the latest value while a Bool condition is true, and sends it when the condition turns false.",
 67: "Sends the latest value after a quiet interval; on completion the pending value is dropped or sent.",
 68: "Passes events through; fails with the given error if the stream has not terminated in time.",
 69: "Sends, on each tick, an array of the values received since the previous tick.",
 70: "Restarts a failed producer after a wait, up to n times (counted per start).",
 72: "Transforms the error of a failure.",
 73: "Gives a stream that cannot fail an error type.",
 74: "On failure, switches to the producer that the closure returns for the error.",
 75: "On failure, restarts up to n times.",
 76: "See Transforming.",
 78: "Sends all values as one array at completion.",
 79: "Sends the values in arrays of n (and the remainder at completion).",
 80: "Sends the values gathered so far whenever a test on the array (and the next value) says so.",
 81: "Sends one value at completion: the accumulation of all values.",
 82: "Restarts the producer after it completes, n times in all.",
 83: "Starts and blocks until the first / only / last value or the end, as a `Result`; `awaitFirst()`, `awaitSingle()`, `awaitLast()` and `awaitCompletion()` wait without blocking a thread (cancelling the task disposes of the start).",
 85: "Runs side-effect closures for the signal's events and when its lifetime ends.",
 86: "Runs side-effect closures when a start begins and has begun, for its events, and when it ends.",
 87: "Logs the chosen kinds of events, with an identifier and source location, through a logger (prints by default).",
 88: "Shares one lazily started run of the upstream among all starts, replaying up to n latest values and the terminal event to later starts.",
 89: "Applies a signal operator to every start of a producer.",
 90: "Applies a binary signal operator to the starts of two producers.",
}

# Paths from the repository root. Operators live in Sources/Rivulet/Operators/<Family>/, their unit
# tests in Tests/RivuletTests/Operators/<Family>/<Name>Tests.swift, and their contract-kit
# registration in Tests/RivuletContractsTests/BuiltInOperators/<Family>OperatorsContractTests.swift.
def op(name):
    return f"Sources/Rivulet/Operators/{name}.swift"

def op_tests(name):
    return f"Tests/RivuletTests/Operators/{name}Tests.swift"

def kit(family):
    return f"Tests/RivuletContractsTests/BuiltInOperators/{family}OperatorsContractTests.swift"

def src(path):
    return f"Sources/Rivulet/{path}.swift"

def tests(path):
    return f"Tests/RivuletTests/{path}.swift"

PROPERTY = src("Property/PropertyComposition")
PROPERTY_COMBINING = src("Property/PropertyCombining")
PROPERTY_TESTS = tests("Property/PropertyCompositionTests")
SIGNAL, PRODUCER = src("Signal/Signal"), src("SignalProducer/SignalProducer")
SIGNAL_TESTS, PRODUCER_TESTS = tests("Signal/SignalContractTests"), tests("SignalProducer/SignalProducerTests")
FLATTEN = [op("Flattening/FlatMap"), op("Flattening/FlattenStage"), op("Flattening/FlattenStrategy"), op("Flattening/FlattenStateMachine"), PROPERTY]
FLATTEN_TESTS = [op_tests("Flattening/Flatten"), op_tests("Flattening/FlattenStateMachine"),
                 op_tests("Flattening/FlattenSynchronousInner"), kit("Flattening")]

# Row number (as in MEANINGS) -> (files implementing the row, files testing it). Found by reading
# the sources (each operator's `func name(`) and the tests; checked to exist on every run.
LINKS = {
 1: ([SIGNAL], [SIGNAL_TESTS]),
 2: ([SIGNAL], [SIGNAL_TESTS, tests("Signal/EventContractTests")]),
 3: ([src("Signal/Signal+Unserialized")], [tests("Foundation/FoundationReactiveTests")]),
 4: ([SIGNAL, PRODUCER], [SIGNAL_TESTS, PRODUCER_TESTS]),
 5: ([PRODUCER], [PRODUCER_TESTS]),
 6: ([src("Signal/Signal+Unserialized")], [tests("Foundation/FoundationReactiveTests")]),
 7: ([PRODUCER], [PRODUCER_TESTS]),
 8: ([PRODUCER], [PRODUCER_TESTS]),
 9: ([PRODUCER, src("SignalProducer/SignalProducerConvertible")], [PRODUCER_TESTS]),
 10: ([src("SignalProducer/SignalProducer+Timer")], [tests("SignalProducer/SignalProducerTimerTests")]),
 11: ([src("SignalProducer/SignalProducer+Timer")], [tests("SignalProducer/SignalProducerTimerTests")]),
 12: ([PRODUCER, src("Foundation/Foundation+Reactive"), src("Foundation/Reactive")],
      [PRODUCER_TESTS, tests("Foundation/FoundationReactiveTests")]),
 13: ([src("Signal/Signal+Observe")],
      [SIGNAL_TESTS, tests("Signal/EventContractTests"), tests("Signal/ObservationHandleTests")]),
 14: ([src("SignalProducer/SignalProducer+Start")], [PRODUCER_TESTS]),
 15: ([src("SignalProducer/SignalProducer+Start")], [PRODUCER_TESTS]),
 16: ([op("Timing/StartOn")], [op_tests("Timing/StartOn"), kit("Time")]),
 17: ([op("Timing/ObserveOn")], [op_tests("Timing/ObserveOn"), kit("Time")]),
 18: ([op("Transforming/Map"), PROPERTY], [op_tests("Transforming/Map"), PROPERTY_TESTS, kit("Transform")]),
 19: ([op("Transforming/Map"), PROPERTY], [op_tests("Transforming/Map"), PROPERTY_TESTS, kit("Transform")]),
 20: ([op("Transforming/Map"), PROPERTY], [op_tests("Transforming/Map"), PROPERTY_TESTS, kit("Transform")]),
 21: ([op("Transforming/LazyMap")], [op_tests("Transforming/LazyMap"), kit("Time")]),
 22: ([op("Transforming/CompactMap")], [op_tests("Transforming/CompactMap"), kit("Transform")]),
 23: ([op("Transforming/CompactMap")], [op_tests("Transforming/CompactMap"), kit("Transform")]),
 24: ([op("Transforming/Scan")], [op_tests("Transforming/Scan"), kit("Transform")]),
 25: ([op("Transforming/Scan")], [op_tests("Transforming/Scan"), kit("Transform")]),
 26: ([op("Transforming/CombinePrevious"), PROPERTY],
      [op_tests("Transforming/CombinePrevious"), PROPERTY_TESTS, kit("Transform")]),
 27: ([op("Transforming/Materialize")], [op_tests("Transforming/Materialize"), kit("Transform")]),
 28: ([op("Transforming/Materialize")], [op_tests("Transforming/Materialize"), kit("Transform")]),
 29: ([op("Transforming/Attempt")], [op_tests("Transforming/Attempt"), kit("Transform")]),
 30: ([op("Transforming/Attempt")], [op_tests("Transforming/Attempt"), kit("Transform")]),
 31: ([op("Transforming/FlattenSequence")], [op_tests("Transforming/FlattenSequence"), kit("Transform")]),
 32: ([op("Transforming/BooleanOperators"), PROPERTY],
      [op_tests("Transforming/BooleanOperators"), PROPERTY_TESTS, kit("Transform"), kit("Combining")]),
 33: ([op("ErrorHandling/ErrorMapping")], [op_tests("ErrorHandling/ErrorMapping"), kit("Transform")]),
 34: ([SIGNAL], ["Tests/RivuletContractsTests/Docs/ContractKitSampleTests.swift"]),
 # Signal and producer `filter(_:)` are tested by the FilterTests suite in MapTests.swift.
 35: ([op("Filtering/Filter"), PROPERTY], [op_tests("Transforming/Map"), PROPERTY_TESTS, kit("Filter")]),
 36: ([op("Filtering/SkipRepeats"), PROPERTY], [op_tests("Filtering/SkipRepeats"), PROPERTY_TESTS, kit("Filter")]),
 37: ([op("Filtering/UniqueValues"), PROPERTY], [op_tests("Filtering/UniqueValues"), PROPERTY_TESTS, kit("Filter")]),
 38: ([op("Filtering/Skip")], [op_tests("Filtering/Skip"), kit("Filter")]),
 39: ([op("Filtering/Skip")], [op_tests("Filtering/Skip"), kit("Filter")]),
 40: ([op("Filtering/Skip")], [op_tests("Filtering/Skip"), kit("Filter")]),
 41: ([op("Filtering/Take")], [op_tests("Filtering/Take"), kit("Filter")]),
 42: ([op("Filtering/Take")], [op_tests("Filtering/Take"), kit("Filter")]),
 43: ([op("Filtering/Take")], [op_tests("Filtering/Take"), kit("Filter")]),
 44: ([op("Filtering/Take")], [op_tests("Filtering/Take"), kit("Filter")]),
 45: ([op("Filtering/Take")], [op_tests("Filtering/Take"), kit("Filter")]),
 46: ([op("Filtering/Take")], [op_tests("Filtering/Take"), kit("Filter")]),
 47: ([op("Filtering/Take")], [op_tests("Filtering/Take"), kit("Filter")]),
 48: ([op("Filtering/Sample")], [op_tests("Filtering/Sample"), kit("Filter")]),
 49: ([op("Filtering/Sample")], [op_tests("Filtering/Sample"), kit("Filter")]),
 50: ([op("Filtering/WithLatest")], [op_tests("Filtering/WithLatest"), kit("Filter")]),
 51: ([op("Combining/CombineLatest"), op("Combining/CombineLatestStateMachine"), PROPERTY_COMBINING],
      [op_tests("Combining/CombineLatest"), op_tests("Combining/CombineLatestStateMachine"), PROPERTY_TESTS,
       kit("Combining")]),
 52: ([op("Combining/Zip"), op("Combining/ZipStateMachine"), PROPERTY_COMBINING],
      [op_tests("Combining/Zip"), op_tests("Combining/ZipStateMachine"), PROPERTY_TESTS, kit("Combining")]),
 53: ([op("Combining/Merge")], [op_tests("Combining/Merge"), kit("Combining")]),
 54: ([op("Combining/Concat")], [op_tests("Combining/Concat"), kit("Combining")]),
 55: ([op("Combining/Concat")], [op_tests("Combining/Concat"), kit("Combining")]),
 56: ([op("Combining/Concat")], [op_tests("Combining/Concat"), kit("Combining")]),
 57: (FLATTEN, FLATTEN_TESTS),
 58: (FLATTEN, FLATTEN_TESTS),
 59: (FLATTEN, FLATTEN_TESTS),
 60: (FLATTEN, FLATTEN_TESTS[:3] + [PROPERTY_TESTS] + FLATTEN_TESTS[3:]),
 61: (FLATTEN, FLATTEN_TESTS),
 62: (FLATTEN, FLATTEN_TESTS),
 63: ([op("ErrorHandling/FlatMapError")], [op_tests("ErrorHandling/FlatMapError"), kit("Error")]),
 64: ([op("Timing/Delay")], [op_tests("Timing/Delay"), kit("Time")]),
 65: ([op("Timing/Throttle")], [op_tests("Timing/Throttle"), kit("Time")]),
 66: ([op("Timing/Throttle")], [op_tests("Timing/Throttle"), kit("Time")]),
 67: ([op("Timing/Debounce")], [op_tests("Timing/Debounce"), kit("Time")]),
 68: ([op("Timing/Timeout")], [op_tests("Timing/Timeout"), kit("Time")]),
 69: ([op("Timing/CollectEvery")], [op_tests("Timing/CollectEvery"), kit("Time")]),
 70: ([op("Timing/RetryInterval")], [op_tests("Timing/RetryInterval"), kit("Time")]),
 72: ([op("ErrorHandling/ErrorMapping")], [op_tests("ErrorHandling/ErrorMapping"), kit("Error")]),
 73: ([op("ErrorHandling/ErrorMapping")], [op_tests("ErrorHandling/ErrorMapping"), kit("Error")]),
 74: ([op("ErrorHandling/FlatMapError")], [op_tests("ErrorHandling/FlatMapError"), kit("Error")]),
 75: ([op("ErrorHandling/Retry")], [op_tests("ErrorHandling/Retry"), kit("Error")]),
 76: ([op("Transforming/Attempt")], [op_tests("Transforming/Attempt"), kit("Transform")]),
 78: ([op("Aggregating/Collect")], [op_tests("Aggregating/Collect"), kit("Aggregate")]),
 79: ([op("Aggregating/Collect")], [op_tests("Aggregating/Collect"), kit("Aggregate")]),
 80: ([op("Aggregating/Collect")], [op_tests("Aggregating/Collect"), kit("Aggregate")]),
 81: ([op("Aggregating/Reduce")], [op_tests("Aggregating/Reduce"), kit("Aggregate")]),
 # `repeat(_:)` shares retry's restart loop.
 82: ([op("ErrorHandling/Retry")], [op_tests("ErrorHandling/Retry"), kit("Error")]),
 83: ([op("Aggregating/Blocking")], [op_tests("Aggregating/Blocking")]),
 85: ([op("SideEffects/OnEvents")], [op_tests("SideEffects/OnEvents"), kit("Lifecycle")]),
 86: ([op("SideEffects/OnEvents")], [op_tests("SideEffects/OnEvents"), kit("Lifecycle")]),
 87: ([op("SideEffects/LogEvents")], [op_tests("SideEffects/LogEvents"), kit("Lifecycle")]),
 88: ([op("SideEffects/ReplayLazily")], [op_tests("SideEffects/ReplayLazily"), kit("Lifecycle")]),
 89: ([src("Engine/Stages/Lift")], [PRODUCER_TESTS, tests("Engine/LiftingEquivalenceTests"), kit("Lifecycle")]),
 90: ([src("Engine/Stages/Lift")], [PRODUCER_TESTS, kit("Lifecycle")]),
}

# Where each section's operators live, for the introduction (folders, from the repository root).
FAMILIES = [
    ("Creating, observing, starting", ["Sources/Rivulet/Signal", "Sources/Rivulet/SignalProducer", "Sources/Rivulet/Foundation"],
     ["Tests/RivuletTests/Signal", "Tests/RivuletTests/SignalProducer", "Tests/RivuletTests/Foundation"]),
    ("Transforming", ["Sources/Rivulet/Operators/Transforming"], ["Tests/RivuletTests/Operators/Transforming"]),
    ("Filtering and gating", ["Sources/Rivulet/Operators/Filtering"], ["Tests/RivuletTests/Operators/Filtering"]),
    ("Combining", ["Sources/Rivulet/Operators/Combining"], ["Tests/RivuletTests/Operators/Combining"]),
    ("Flattening strategies", ["Sources/Rivulet/Operators/Flattening"], ["Tests/RivuletTests/Operators/Flattening"]),
    ("Time-based", ["Sources/Rivulet/Operators/Timing"], ["Tests/RivuletTests/Operators/Timing"]),
    ("Error handling", ["Sources/Rivulet/Operators/ErrorHandling"], ["Tests/RivuletTests/Operators/ErrorHandling"]),
    ("Aggregation and blocking", ["Sources/Rivulet/Operators/Aggregating"], ["Tests/RivuletTests/Operators/Aggregating"]),
    ("Side effects, debugging, sharing", ["Sources/Rivulet/Operators/SideEffects"], ["Tests/RivuletTests/Operators/SideEffects"]),
    ("Lifting", ["Sources/Rivulet/Engine/Stages"], ["Tests/RivuletTests/SignalProducer", "Tests/RivuletTests/Engine"]),
    ("Property forms (**Pr**)", ["Sources/Rivulet/Property"], ["Tests/RivuletTests/Property"]),
]
ENGINE = ["Sources/Rivulet/Engine/Serialization", "Sources/Rivulet/Engine/Collections", "Sources/Rivulet/Engine/Stages"]
CONTRACT_TESTS = "Tests/RivuletContractsTests/BuiltInOperators"

def without_remarks(cell):
    """Drops parenthesised remarks that sit outside code spans; keeps `names(with:parens)`."""
    out, depth, in_code = [], 0, False
    for ch in cell:
        if ch == "`" and depth == 0:
            in_code = not in_code
        elif not in_code and ch == "(":
            depth += 1
            continue
        elif not in_code and ch == ")" and depth:
            depth -= 1
            continue
        if depth == 0:
            out.append(ch)
    return "".join(out)

def peer(cell):
    cell = cell.strip()
    mark = cell[0] if cell[:1] in "✅≈❌" else ""
    if mark == "❌":
        return "❌"
    if cell.startswith("n/a"):
        return "n/a"
    names = re.findall(r"`([^`]+)`", without_remarks(cell))
    if not names:
        return mark or "—"
    return (mark + " " if mark else "") + ", ".join(f"`{n}`" for n in names)

def fail(message):
    sys.exit(f"make_operators_md.py: {message}")

def link(path):
    """A Markdown link from Docs/Operators.md to `path` (from the repository root), named by its file."""
    if not os.path.exists(os.path.join(ROOT, path)):
        fail(f"{path} does not exist; update LINKS or FAMILIES in Tools/docs/make_operators_md.py")
    return f"[{os.path.basename(path)}](../{path})"

def files_cell(row):
    sources, checks = LINKS[row]
    return " ".join([", ".join(link(p) for p in sources), "· tests:", ", ".join(link(p) for p in checks)])

def folders(paths):
    for path in paths:
        if not os.path.isdir(os.path.join(ROOT, path)):
            fail(f"folder {path} does not exist; update FAMILIES or ENGINE in Tools/docs/make_operators_md.py")
    return ", ".join(f"[`{p}/`](../{p})" for p in paths)

def generate(surface):
    unknown = sorted(set(LINKS) - set(MEANINGS))
    if unknown:
        fail(f"LINKS has rows without a meaning in MEANINGS: {unknown}")
    lines = surface.split("\n")
    out = ["# Operators", "",
           "Every ReactiveSwift 7 operator, under its ReactiveSwift name, with what it does and the nearest",
           "Combine and CwlSignal names (✅ same idea, ≈ similar with different semantics, ❌ none).",
           "**S** = `Signal`, **P** = `SignalProducer`, **Pr** = properties. Each operator's logic is written once and serves both",
           "(O1): on a producer, operators are fused into one chain of closures per start.",
           "",
           "The last column links the files that implement each row and the tests that check it: the unit tests",
           "and, for the operators registered with the contract kit, the family's file in",
           f"[`{CONTRACT_TESTS}/`](../{CONTRACT_TESTS}). Each section's operators live in one folder, and the",
           "unit tests mirror the sources (`Sources/Rivulet/Operators/<Family>/<Name>.swift` is tested by",
           "`Tests/RivuletTests/Operators/<Family>/<Name>Tests.swift`); a few rows sit elsewhere, as their links show.",
           "",
           "| Section | Sources | Tests |",
           "|---|---|---|"]
    out += [f"| {title} | {folders(sources)} | {folders(checks)} |" for title, sources, checks in FAMILIES]
    out += ["",
            f"The engine the operators share (serialization, collections, shared stages) is in {folders(ENGINE)}.",
            "",
            "This file is generated by `Tools/docs/make_operators_md.py`; edit the meanings and the links there.", ""]
    row = 0
    in_section = False
    for line in lines:
        if line.startswith("### 2.") and not line.startswith("### 2.1") or line.startswith("### 2.1 "):
            title = re.sub(r"^### 2\.\d+ ", "", line)
            if line.startswith("### 2.11"):
                break
            out += ["", f"## {title}", "",
                    "| Rivulet (ReactiveSwift) | On | Meaning | Combine | CwlSignal | Source and tests |",
                    "|---|---|---|---|---|---|"]
            in_section = True
            continue
        if in_section and line.startswith("|") and not line.startswith("|---") and not line.startswith("| ReactiveSwift"):
            cells = line.strip().strip("|").split("|")
            row += 1
            if row not in MEANINGS:
                continue
            if row not in LINKS:
                fail(f"row {row} ({cells[0].strip()}) has no entry in LINKS")
            name, avail, cwl, combine = (c.strip() for c in cells[:4])
            out.append(f"| {name} | {avail} | {MEANINGS[row]} | {peer(combine)} | {peer(cwl)} | {files_cell(row)} |")
    missing = sorted(set(MEANINGS) - set(range(1, row + 1)))
    if missing:
        fail(f"rows {missing} of MEANINGS are not in the checklist, which has {row} rows")
    out += ["", "## Beyond ReactiveSwift", "",
            "- `combineLatest` and `zip` over any number of sources: the ReactiveSwift overloads for 2 to 10",
            "  sources and parameter-pack overloads for 11 or more share one implementation.",
            "- `awaitFirst()`, `awaitSingle()`, `awaitLast()`, `awaitCompletion()`: the blocking aggregations",
            "  awaited without blocking a thread.", ""]
    return "\n".join(out) + "\n"

def main():
    parser = argparse.ArgumentParser(description="Generates Docs/Operators.md.")
    parser.add_argument("surface", nargs="?", default=DEFAULT_SURFACE,
                        help="the api-surface checklist (default: Tools/docs/api-surface.md)")
    parser.add_argument("-o", "--output", help="write here instead of standard output (only if generation succeeds)")
    args = parser.parse_args()
    try:
        with open(args.surface, encoding="utf-8") as f:
            surface = f.read()
    except OSError as error:
        fail(f"cannot read the api-surface checklist: {error}")
    text = generate(surface)
    if args.output:
        with open(args.output, "w", encoding="utf-8") as f:
            f.write(text)
    else:
        sys.stdout.write(text)

if __name__ == "__main__":
    main()
