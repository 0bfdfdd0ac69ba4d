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
 10: "Sends the scheduler's current date every interval, until disposed of.",
 11: "Sends the elements of a sequence, or a counter, one per interval.",
 12: "Producer of a `Result`; signal of `NotificationCenter` notifications; producer of a `URLSession` load.",
 13: "Attaches an observer to a signal (the closure forms pick the events they care about).",
 14: "Starts a producer with an observer (the closure forms pick the events they care about); disposing interrupts.",
 15: "Starts a producer and hands out its signal and interrupter before any event is sent.",
 16: "Runs each start (and the upstream's start handler) on a scheduler.",
 17: "Delivers every event through a scheduler, in order.",
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
 36: "Drops a value equal to the one just before it.",
 37: "Drops any value seen before (by identity of the value or of a derived key).",
 38: "Drops the first n values.",
 39: "Drops values while a test holds, then forwards everything.",
 40: "Drops values until a trigger fires.",
 41: "Forwards the first n values, then completes (and stops the upstream).",
 42: "Buffers and, at completion, sends the last n values.",
 43: "Forwards values while a test holds; completes at the first that fails it.",
 44: "Forwards values until one fails the test, that value included, then completes.",
 45: "Forwards everything until a trigger fires, then completes.",
 46: "Forwards everything until a lifetime ends, then completes.",
 47: "Forwards this stream until a replacement stream sends its first event, then forwards the replacement.",
 48: "At each event of a sampler, sends the latest value together with the sampler's value.",
 49: "At each event of a sampler, sends the latest value.",
 50: "Pairs each value with the latest value of another stream (values before it has one are dropped).",
 51: "Sends a tuple of the latest values of all sources each time any of them sends (once all have).",
 52: "Pairs the n-th values of all sources.",
 53: "Forwards the values of all sources as they arrive; completes when all have completed.",
 54: "Runs another producer (or sends a value, or fails) after this one completes.",
 55: "Runs another producer (or sends a value) before this one.",
 56: "Ignores this producer's values; after it completes, runs the replacement.",
 57: "Flattening: forwards the values of every inner stream as they arrive.",
 58: "Flattening: runs inner streams one after another, in order.",
 59: "Flattening: runs up to n inner streams at once, queueing the rest.",
 60: "Flattening: forwards only the newest inner stream, disposing of the previous one.",
 61: "Flattening: the first inner stream to send a value wins; the others are disposed of.",
 62: "Flattening: ignores new inner streams while one is running.",
 63: "On failure, switches to the producer that the closure returns for the error.",
 64: "Shifts values and completion later by an interval; failure and interruption are not delayed (E2).",
 65: "Sends the latest value at most once per interval.",
 66: "Holds values back while a Bool property is true, then sends the latest.",
 67: "Sends a value only once no newer value arrived for an interval.",
 68: "Fails with the given error if the stream does not terminate within the interval.",
 69: "Sends the values gathered during each interval as an array.",
 70: "On failure, restarts after an interval, up to n times.",
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
 83: "Starts and blocks until the first / only / last value or the end (Rivulet adds non-blocking `async` forms).",
 85: "Runs side-effect closures for the signal's events (and when its observation is disposed of).",
 86: "Runs side-effect closures for each start and its events.",
 87: "Prints (or hands to a logger) every event, with an identifier and where it was logged.",
 88: "Shares one start of the upstream among all starts, replaying up to n latest values to late starters.",
 89: "Applies a signal operator to every start of a producer.",
 90: "Applies a binary signal operator to the starts of two producers.",
}

def peer(cell):
    cell = cell.strip()
    mark = cell[0] if cell[:1] in "✅≈❌" else ""
    names = re.findall(r"`([^`]+)`", cell)
    if cell.startswith("n/a"):
        return "n/a"
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
        "- `combineLatest` and `zip` over any number of sources, through parameter packs (the fixed-arity",
        "  overloads remain for source compatibility).",
        "- Non-blocking `async` forms of `first()`, `last()` and `single()`.", ""]
print("\n".join(out))
