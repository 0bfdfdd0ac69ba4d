#!/usr/bin/env python3
"""Generates the public arity families of `combineLatest` and `zip` (Signal and SignalProducer,
2...10 inputs, the parameter-pack forms for 11 and more, `(with:)` and the sequence forms).

The two operators differ only in their state machine (`CombineLatestStateMachine`, latest values,
vs `ZipStateMachine`, queues of values) and in their doc comments: the arity plumbing below exists
once and is written out for each of them. The output is checked in; `check.sh` regenerates it and
fails on any difference.

One file per operator, over 600 lines each with their doc fields: the file to read is this
generator. Splitting each into a `Signal` file and a `SignalProducer` file was tried and
measured (Docs/Performance.md, issue 18's fifth round): it moved unrelated code in the module's
layout and made the fan-out delivery 1.8 → 2.0 ns at the same 26 instructions, so it was undone.

Usage: generate.py [OUTPUT_DIRECTORY]   (default: Sources/Rivulet/Operators/Combining)
"""

import os
import sys
import textwrap

MAX_FIXED_ARITY = 10
WIDTH = 100
# Generic parameter names of the inputs after the first (the first input's type is `Value`).
LETTERS = "BCDEFGHIJK"


class Operator:
    def __init__(self, name, machine, file_doc, with_doc, signal_summary, producer_summary,
                 signal_array_doc, producer_array_doc, element_role, rest_role, with_returns,
                 tuple_returns, array_returns):
        self.name = name
        self.machine = machine
        self.file_doc = file_doc
        self.with_doc = with_doc  # (signal paragraphs, producer summary)
        self.signal_summary = signal_summary
        self.producer_summary = producer_summary
        self.signal_array_doc = signal_array_doc
        self.producer_array_doc = producer_array_doc
        # What an input contributes to a combination, after "The first signal, ": "{tuple}" and
        # "{ordinal}" are filled in.
        self.element_role = element_role
        # What the inputs of a parameter pack contribute, after "The signals after the eleventh, in
        # order: ".
        self.rest_role = rest_role
        # The `- Returns:` texts; "{stream}" is "signal" or "producer", "{inputs}" "signals" or
        # "producers".
        self.with_returns = with_returns
        self.tuple_returns = tuple_returns
        self.array_returns = array_returns


OPERATORS = [
    Operator(
        name="combineLatest",
        machine="CombineLatestStateMachine",
        file_doc="latest values",
        with_doc=(
            [
                "A signal of pairs of the latest values of this signal and `other`.",
                "Nothing is sent until both have sent a value; after that, every value of either "
                "makes a new pair with the other's latest value. The result completes when both "
                "have completed (even if one never sent a value), and fails or is interrupted as "
                "soon as either does.",
            ],
            "A producer of pairs of the latest values of this producer and `other`. Each start "
            "starts this producer, then `other`.",
        ),
        signal_summary="Combines the latest values of the given signals, as `combineLatest(with:)` does.",
        producer_summary="Combines the latest values of the given producers, as `combineLatest(with:)` "
        "does. Each start starts them in order.",
        signal_array_doc="A stream of arrays of the latest values of the given signals, in their order.",
        producer_array_doc="A stream of arrays of the latest values of the given producers, in their order.",
        element_role="whose latest value is each {tuple}'s {ordinal} element.",
        rest_role="their latest values follow in each tuple.",
        with_returns="A {stream} of pairs; it completes when both inputs have completed, and fails or "
        "is interrupted as soon as either does.",
        tuple_returns="A {stream} of tuples of the latest values, in parameter order, sent once every "
        "input has sent a value; it completes when every input has completed, and fails or is "
        "interrupted as soon as any does.",
        array_returns="A {stream} of arrays with one latest value per input, in sequence order, sent "
        "once every input has sent a value; it completes when every input has completed, and fails "
        "or is interrupted as soon as any does.",
    ),
    Operator(
        name="zip",
        machine="ZipStateMachine",
        file_doc="queues of values",
        with_doc=(
            [
                "A signal of pairs of the values of this signal and `other`, matched by position.",
                "The n-th pair holds the n-th value of each: a value waits until its partner "
                "arrives. The result completes as soon as a completed input has no unpaired value "
                "left, and fails or is interrupted as soon as either input does.",
            ],
            "A producer of pairs of the values of this producer and `other`, matched by position. "
            "Each start starts this producer, then `other`.",
        ),
        signal_summary="Pairs up the values of the given signals by position, as `zip(with:)` does.",
        producer_summary="Pairs up the values of the given producers by position, as `zip(with:)` "
        "does. Each start starts them in order.",
        signal_array_doc="A stream of arrays of the values of the given signals, matched by position.",
        producer_array_doc="A stream of arrays of the values of the given producers, matched by position.",
        element_role="whose n-th value is the n-th {tuple}'s {ordinal} element.",
        rest_role="their n-th values follow in the n-th tuple.",
        with_returns="A {stream} of pairs; it completes as soon as a completed input has no unpaired "
        "value left, and fails or is interrupted as soon as either input does.",
        tuple_returns="A {stream} of tuples of the inputs' n-th values, in parameter order; it completes "
        "as soon as a completed input has no unmatched value left, and fails or is interrupted as "
        "soon as any input does.",
        array_returns="A {stream} of arrays of the inputs' n-th values, in sequence order; it completes "
        "as soon as a completed input has no unmatched value left, and fails or is interrupted as "
        "soon as any input does.",
    ),
]


def doc(text, indent="    "):
    """A `///` comment of `text` (paragraphs separated by blank comment lines), wrapped."""
    paragraphs = text if isinstance(text, list) else [text]
    lines = []
    for index, paragraph in enumerate(paragraphs):
        if index:
            lines.append(indent + "///")
        lines += textwrap.wrap(paragraph, WIDTH - len(indent) - 4,
                               initial_indent=indent + "/// ", subsequent_indent=indent + "/// ",
                               break_on_hyphens=False)
    return lines


ORDINALS = ["first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth",
            "tenth", "eleventh"]


def fields(parameters, returns, indent="    "):
    """The `- Parameter`/`- Parameters:` and `- Returns:` fields of a doc comment, after a blank
    comment line: `parameters` is a list of (name, text); continuation lines are indented by two
    spaces past the dash of their field."""
    width = WIDTH
    lines = [indent + "///"]

    def field(head, text, depth):
        lines.extend(textwrap.wrap(head + text, width, initial_indent=indent + "/// " + " " * depth,
                                   subsequent_indent=indent + "/// " + " " * (depth + 2),
                                   break_on_hyphens=False))

    if len(parameters) == 1:
        name, text = parameters[0]
        field(f"- Parameter {name}: ", text, 0)
    elif parameters:
        lines.append(indent + "/// - Parameters:")
        for name, text in parameters:
            field(f"- {name}: ", text, 2)
    field("- Returns: ", returns, 0)
    return lines


def element_parameters(op, names, noun, tuple_name="tuple"):
    """The (name, text) of each input of a fixed-arity form, the n-th named after the n-th ordinal."""
    return [(name, f"The {ORDINALS[index]} {noun}, "
             + op.element_role.format(tuple=tuple_name, ordinal=ORDINALS[index]))
            for index, name in enumerate(names)]


def wrapped_list(items, indent, prefix="", suffix="", width=WIDTH):
    """`prefix` + items joined by ", " + `suffix`, on one line if it fits, else wrapped at
    commas with continuation lines at `indent` (the prefix then ends its line)."""
    one_line = indent + prefix + ", ".join(items) + suffix
    if len(one_line) <= width:
        return [one_line]
    lines = [indent + prefix.rstrip()] if prefix.strip() else []
    inner = indent + ("    " if prefix.strip() else "")
    current = inner
    for index, item in enumerate(items):
        piece = item + ("," if index < len(items) - 1 else "")
        candidate = inner + piece if current == inner else current + " " + piece
        if len(candidate) > width and current != inner:
            lines.append(current)
            current = inner + piece
        else:
            current = candidate
    lines.append(current)
    if suffix.strip():
        lines.append(indent + suffix.strip())
    return lines


def signal_family(op):
    out = []
    signal_paragraphs, _ = op.with_doc
    out += doc(signal_paragraphs)
    out += fields([("other", "The other signal, " + op.element_role.format(tuple="pair", ordinal="second"))],
                  op.with_returns.format(stream="signal"))
    out += [
        "    @inlinable",
        f"    public func {op.name}<U>(with other: Signal<U, Error>) -> Signal<(Value, U), Error> {{",
        f"        .combiningPair({op.machine}<PairElement<Value, U>>.self, self, other)",
        "    }",
    ]
    for arity in range(2, MAX_FIXED_ARITY + 1):
        letters = LETTERS[: arity - 1]
        params = ["_ a: Signal<Value, Error>"] + [f"_ {l.lower()}: Signal<{l}, Error>" for l in letters]
        out.append("")
        names = ["a"] + [l.lower() for l in letters]
        out += doc(op.signal_summary)
        out += fields(element_parameters(op, names, "signal"), op.tuple_returns.format(stream="signal"))
        out.append("    @inlinable")
        out += wrapped_list(params, "    ", prefix=f"public static func {op.name}<{', '.join(letters)}>(",
                            suffix=f") -> Signal<({', '.join(['Value'] + list(letters))}), Error> {{")
        if arity == 2:
            out.append(f"        .combiningPair({op.machine}<PairElement<Value, B>>.self, a, b)")
        else:
            out += wrapped_list([f"{op.machine}<Any>.self"] + names, "        ", prefix=".combiningPack(",
                                suffix=")")
        out.append("    }")
    # Eleven inputs or more: a parameter pack.
    letters = LETTERS
    params = ["_ a: Signal<Value, Error>"] + [f"_ {l.lower()}: Signal<{l}, Error>" for l in letters]
    params.append("_ rest: repeat Signal<each L, Error>")
    out.append("")
    out += doc(op.signal_summary + " Takes eleven signals or more (a parameter pack): the fixed-arity "
               "forms end at ten, and starting the pack at eleven keeps calls with fewer inputs "
               "unambiguous.")
    names = ["a"] + [l.lower() for l in letters]
    out += fields(element_parameters(op, names, "signal")
                  + [("rest", "The signals after the eleventh, in order: " + op.rest_role)],
                  op.tuple_returns.format(stream="signal"))
    out.append("    @inlinable")
    out += wrapped_list(params, "    ", prefix=f"public static func {op.name}<{', '.join(letters)}, each L>(",
                        suffix=f") -> Signal<(Value, {', '.join(letters)}, repeat each L), Error> {{")
    out += wrapped_list([f"{op.machine}<Any>.self", "a"] + [l.lower() for l in letters] + ["repeat each rest"],
                        "        ", prefix=".combiningPack(", suffix=")")
    out.append("    }")
    out.append("")
    out += doc(op.signal_array_doc + " With no signal, the result has already completed.")
    out += fields([("signals", "The signals to combine, read once by this call; their order is "
                    "the order of each array's elements.")],
                  op.array_returns.format(stream="signal"))
    out += [
        f"    public static func {op.name}<S: Sequence>(_ signals: S) -> Signal<[Value], Error>",
        "    where S.Element == Signal<Value, Error> {",
        f"        .combiningArray({op.machine}<Value>.self, signals)",
        "    }",
    ]
    return out


def producer_family(op):
    out = []
    _, producer_with = op.with_doc
    out += doc(producer_with)
    out += fields([("other", "The other producer, " + op.element_role.format(tuple="pair", ordinal="second"))],
                  op.with_returns.format(stream="producer"))
    out += [
        "    @inlinable",
        f"    public func {op.name}<U>(",
        "        with other: SignalProducer<U, Error>",
        "    ) -> SignalProducer<(Value, U), Error> {",
        f"        .combiningPair({op.machine}<PairElement<Value, U>>.self, self, other)",
        "    }",
        "",
    ]
    out += doc(producer_with)
    out += fields([("other", "The other producer, " + op.element_role.format(tuple="pair", ordinal="second"))],
                  op.with_returns.format(stream="producer"))
    out += [
        "    @inlinable",
        f"    public func {op.name}<Other: SignalProducerConvertible>(",
        "        with other: Other",
        "    ) -> SignalProducer<(Value, Other.Value), Error> where Other.Error == Error {",
    ]
    out += wrapped_list([f"{op.machine}<PairElement<Value, Other.Value>>.self", "self", "other.producer"],
                        "        ", prefix=".combiningPair(", suffix=")")
    out.append("    }")
    for arity in range(2, MAX_FIXED_ARITY + 1):
        letters = "A" + LETTERS[: arity - 1]
        names = [l.lower() for l in letters]
        out.append("")
        out += doc(op.producer_summary)
        out += fields(element_parameters(op, names, "producer"), op.tuple_returns.format(stream="producer"))
        out.append("    @inlinable")
        out.append(f"    public static func {op.name}<")
        out += wrapped_list([f"{l}: SignalProducerConvertible" for l in letters], "        ")
        out.append("    >(")
        out += wrapped_list([f"_ {n}: {l}" for n, l in zip(names, letters)], "        ")
        values = ["Value"] + [f"{l}.Value" for l in letters[1:]]
        result = f"    ) -> SignalProducer<({', '.join(values)}), Error>"
        if len(result) <= WIDTH:
            out.append(result)
        else:
            out.append("    ) -> SignalProducer<")
            out += wrapped_list(values, "        ", prefix="(", suffix="),")
            out.append("        Error")
            out.append("    >")
        out.append("    where")
        out += wrapped_list(["A.Value == Value", "A.Error == Error"] + [f"{l}.Error == Error" for l in letters[1:]],
                            "        ")
        out.append("    {")
        if arity == 2:
            out += wrapped_list([f"{op.machine}<PairElement<Value, B.Value>>.self", "a.producer", "b.producer"],
                                "        ", prefix=".combiningPair(", suffix=")")
        else:
            out += wrapped_list([f"{op.machine}<Any>.self"] + [f"{n}.producer" for n in names], "        ",
                                prefix=".combiningPack(", suffix=")")
        out.append("    }")
    letters = LETTERS
    params = ["_ a: SignalProducer<Value, Error>"] + [f"_ {l.lower()}: SignalProducer<{l}, Error>" for l in letters]
    params.append("_ rest: repeat SignalProducer<each L, Error>")
    out.append("")
    out += doc(op.producer_summary + " Takes eleven producers or more (a parameter pack): the "
               "fixed-arity forms end at ten, and starting the pack at eleven keeps calls with fewer "
               "inputs unambiguous. The inputs must be producers (Swift cannot yet constrain the error "
               "type of a pack of convertibles).")
    names = ["a"] + [l.lower() for l in letters]
    out += fields(element_parameters(op, names, "producer")
                  + [("rest", "The producers after the eleventh, in order: " + op.rest_role)],
                  op.tuple_returns.format(stream="producer"))
    out.append("    @inlinable")
    out += wrapped_list(params, "    ", prefix=f"public static func {op.name}<{', '.join(letters)}, each L>(",
                        suffix=f") -> SignalProducer<(Value, {', '.join(letters)}, repeat each L), Error> {{")
    out += wrapped_list([f"{op.machine}<Any>.self", "a"] + [l.lower() for l in letters] + ["repeat each rest"],
                        "        ", prefix=".combiningPack(", suffix=")")
    out.append("    }")
    out.append("")
    out += doc(op.producer_array_doc + " Each start reads `producers` afresh and starts them in order; "
               "with no producer, it completes at once.")
    out += fields([("producers", "The producers to combine, read again at each start; their order is the "
                    "order of each array's elements.")],
                  op.array_returns.format(stream="producer"))
    out += [
        f"    public static func {op.name}<S: Sequence>(_ producers: S) -> SignalProducer<[Value], Error>",
        "    where S.Element: SignalProducerConvertible, S.Element.Value == Value, S.Element.Error == Error {",
        f"        .combiningArray({op.machine}<Value>.self, producers.lazy.map(\\.producer))",
        "    }",
        "",
    ]
    out += doc(op.producer_array_doc + " Each start reads `producers` afresh and starts them in order; "
               "with no producer, it sends `emptySentinel`, then completes.")
    out += fields([("producers", "The producers to combine, read again at each start; their order is the "
                    "order of each array's elements."),
                   ("emptySentinel", "The array to send when `producers` is empty.")],
                  op.array_returns.format(stream="producer"))
    out += [
        f"    public static func {op.name}<S: Sequence>(",
        "        _ producers: S,",
        "        emptySentinel: [S.Element.Value]",
        "    ) -> SignalProducer<[Value], Error>",
        "    where S.Element: SignalProducerConvertible, S.Element.Value == Value, S.Element.Error == Error {",
    ]
    out += wrapped_list([f"{op.machine}<Value>.self", "producers.lazy.map(\\.producer)", "emptyValue: emptySentinel"],
                        "        ", prefix=".combiningArray(", suffix=")")
    out.append("    }")
    return out


def render(op):
    header = [
        "// Generated by Tools/CombiningFamilies/generate.py: do not edit; change the generator and run",
        "// it again (Tools/CombiningFamilies/check.sh fails when this file and the generator differ).",
        "//",
    ]
    header += textwrap.wrap(
        f"The `{op.name}` family: one implementation, `{op.machine}` ({op.file_doc}) in a "
        "`CombiningStage`, serves signals and producers of every arity (O1); it differs from the other "
        "combining family only by its machine. Fixed arities 2-10 keep ReactiveSwift's signatures; "
        "the parameter-pack forms add any higher arity.",
        WIDTH - 3, initial_indent="// ", subsequent_indent="// ", break_on_hyphens=False)
    lines = header + ["", "extension Signal {"] + signal_family(op) + ["}", "", "extension SignalProducer {"]
    lines += producer_family(op) + ["}"]
    return "\n".join(lines) + "\n"


FILE_NAMES = {"combineLatest": "CombineLatest.swift", "zip": "Zip.swift"}


def main():
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    output = sys.argv[1] if len(sys.argv) > 1 else os.path.join(root, "Sources/Rivulet/Operators/Combining")
    for op in OPERATORS:
        with open(os.path.join(output, FILE_NAMES[op.name]), "w") as file:
            file.write(render(op))


if __name__ == "__main__":
    main()
