import Rivulet

// The tour runs every example from README.md and Docs/ and prints what it produces.
// `Tests/RivuletTests/Docs/DocumentationSamplesTests.swift` checks that every Swift code block in
// the documentation appears, line for line, in this target, so the docs cannot drift from the code.

let examples: [(title: String, run: () -> Void)] = [
    ("README: a first example", readmeFirstExample),
    ("README: re-entrant sends are queued", readmeReentrantSend),
    ("README: virtual time", readmeVirtualTime),
    ("README: producers and operators", readmeProducers),
    ("README: combining in virtual time", readmeCombiningInVirtualTime),
    ("README: properties", readmeProperties),
    ("MigratingFromReactiveSwift: E6", migratingReentrantSend),
    ("Properties: reading, writing, observing", propertiesReadingWriting),
    ("Properties: a write from inside an observer", propertiesReentrantWrite),
    ("Properties: composing", propertiesComposing),
    ("Properties: validating input", propertiesValidating),
    ("Properties: bindings", propertiesBinding),
    ("Properties: actions", propertiesAction),
    ("Properties: glitch-free transactions", propertiesTransaction),
    ("DesignGuidelines: one example per contract clause", runDesignGuidelinesExamples),
]

for example in examples {
    print("── \(example.title)")
    example.run()
    print()
}
