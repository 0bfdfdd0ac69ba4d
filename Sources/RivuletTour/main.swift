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
    ("README: channels", readmeChannels),
    ("MigratingFromReactiveSwift: E6", migratingReentrantSend),
    ("Properties: reading, writing, observing", propertiesReadingWriting),
    ("Properties: a write from inside an observer", propertiesReentrantWrite),
    ("Properties: composing", propertiesComposing),
    ("Properties: validating input", propertiesValidating),
    ("Properties: bindings", propertiesBinding),
    ("Properties: actions", propertiesAction),
    ("Properties: glitch-free transactions", propertiesTransaction),
    ("DesignGuidelines: one example per contract clause", runDesignGuidelinesExamples),
    ("Activation: a basic channel", activationBasicChannel),
    ("Activation: sending before anyone listens", activationInactiveSend),
    ("Activation: continuous", activationContinuous),
    ("Activation: continuous with an initial value", activationContinuousInitialValue),
    ("Activation: lazy generation", activationGenerate),
    ("Activation: capture", activationCapture),
    ("Activation: a second subscriber", activationDuplicate),
    ("Activation: fan-out", activationMultiFanOut),
    ("Activation: junctions", activationJunction),
    ("Activation: multi-inputs and merged inputs", activationMultiInput),
    ("Activation: execution contexts", activationContexts),
    ("Activation: who waits", activationWhoWaits),
    ("Activation: the producer bridge", activationProducerBridge),
    ("Activation: the property bridge", activationPropertyBridge),
    ("Activation: a button enabled by two states", activationEnabledButton),
    ("Activation: a thread-safe key-value store", activationKeyValueStore),
    ("Activation: a connection with a timeout", activationTimeout),
    ("Concurrency: observing on an actor", concurrencyObservingOnAnActor),
]

for example in examples {
    print("── \(example.title)")
    example.run()
    print()
}
