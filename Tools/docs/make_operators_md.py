#!/usr/bin/env python3
"""Builds Docs/Operators.md from the api-surface checklist's peer names and Rivulet's own one-line
meanings (MEANINGS below). Run: python3 Tools/docs/make_operators_md.py <api-surface.md> > Docs/Operators.md"""
import re, sys

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

src = open(sys.argv[1]).read().split("\n")
out = ["# Operators", "",
       "Every ReactiveSwift 7 operator, under its ReactiveSwift name, with what it does and the nearest",
       "Combine and CwlSignal names (✅ same idea, ≈ similar with different semantics, ❌ none).",
       "**S** = `Signal`, **P** = `SignalProducer`, **Pr** = properties. Each operator's logic is written once and serves both",
       "(O1): on a producer, operators are fused into one chain of closures per start.",
       "",
       "This file is generated by `Tools/docs/make_operators_md.py`; edit the meanings there.", ""]
row = 0
in_section = False
for line in src:
    if line.startswith("### 2.") and not line.startswith("### 2.1") or line.startswith("### 2.1 "):
        title = re.sub(r"^### 2\.\d+ ", "", line)
        if line.startswith("### 2.11"):
            break
        out += ["", f"## {title}", "", "| Rivulet (ReactiveSwift) | On | Meaning | Combine | CwlSignal |", "|---|---|---|---|---|"]
        in_section = True
        continue
    if in_section and line.startswith("|") and not line.startswith("|---") and not line.startswith("| ReactiveSwift"):
        cells = line.strip().strip("|").split("|")
        row += 1
        if row not in MEANINGS:
            continue
        name, avail, cwl, combine = (c.strip() for c in cells[:4])
        out.append(f"| {name} | {avail} | {MEANINGS[row]} | {peer(combine)} | {peer(cwl)} |")
out += ["", "## Beyond ReactiveSwift", "",
        "- `combineLatest` and `zip` over any number of sources: the ReactiveSwift overloads for 2 to 10",
        "  sources and parameter-pack overloads for 11 or more share one implementation.",
        "- `awaitFirst()`, `awaitSingle()`, `awaitLast()`, `awaitCompletion()`: the blocking aggregations",
        "  awaited without blocking a thread.", ""]
print("\n".join(out))
