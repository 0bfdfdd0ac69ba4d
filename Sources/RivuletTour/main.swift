import Rivulet

// The tour runs every example from README.md and Docs/ and prints what it produces.
// `Tests/RivuletTests/Docs/DocumentationSamplesTests.swift` checks that every Swift code block in
// the documentation appears, line for line, in this target, so the docs cannot drift from the code.
//
// The synchronous examples run first, in `examples`; then the async ones, in `asyncExamples`, one
// after the other on the main actor (this file's top-level code), each awaited to its end, so the
// output does not depend on timing.

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
    ("Concurrency: observers run on the sending thread", concurrencySendingThread),
    ("Concurrency: start(on:) and observe(on:)", concurrencySchedulers),
    ("Concurrency: an observer owns its state", concurrencyObserverOwnsItsState),
    ("Concurrency: non-Sendable values stay in one region", concurrencyNonSendableValuesStayInOneRegion),
    ("Concurrency: the Observation bridges", concurrencyObservationBridges),
    ("Concurrency: observing on an actor", concurrencyObservingOnAnActor),
    ("GettingStarted: a first signal", gettingStartedFirstSignal),
    ("GettingStarted: a signal is hot", gettingStartedHotSignal),
    ("GettingStarted: a producer is cold", gettingStartedColdProducer),
    ("GettingStarted: a property", gettingStartedProperty),
    ("FrameworkOverview: the event grammar", overviewEventGrammar),
    ("FrameworkOverview: observing an ended signal", overviewLateObserver),
    ("FrameworkOverview: disposing of a start", overviewDisposingAStart),
    ("FrameworkOverview: a lifetime", overviewLifetime),
    ("FrameworkOverview: virtual time", overviewVirtualTime),
    ("MigratingFromCombine: subject and sink", combineSubjectAndSink),
    ("MigratingFromCombine: CurrentValueSubject and @Published", combineCurrentValue),
    ("MigratingFromCombine: assign", combineAssign),
    ("MigratingFromCombine: publishers", combinePublishers),
    ("MigratingFromCombine: operators", combineOperators),
    ("MigratingFromCombine: switchToLatest and catch", combineSwitchToLatest),
    ("MigratingFromCombine: typed interruption", combineTypedInterruption),
    ("MigratingFromCombine: re-entrant sends", combineReentrantSend),
    ("MigratingFromCombine: virtual time", combineVirtualTime),
    ("MigratingFromRxSwift: PublishSubject", rxPublishSubject),
    ("MigratingFromRxSwift: BehaviorRelay", rxBehaviorRelay),
    ("MigratingFromRxSwift: share(replay:)", rxReplay),
    ("MigratingFromRxSwift: DisposeBag", rxDisposeBag),
    ("MigratingFromRxSwift: Single, Completable, Maybe", rxTraits),
    ("MigratingFromRxSwift: schedulers", rxSchedulers),
    ("MigratingFromRxSwift: operators", rxOperators),
    ("MigratingFromRxSwift: re-entrant writes", rxReentrantWrite),
    ("DocC: Rivulet's landing page", doccRivuletLandingExample),
]

let asyncExamples: [(title: String, run: () async throws -> Void)] = [
    ("README: async code", readmeAsync),
    ("Concurrency: back to the main thread", concurrencyBackToTheMainThread),
    ("Concurrency: a producer's values", concurrencyProducerValues),
    ("Concurrency: a failing producer's values", concurrencyFailingValues),
    ("Concurrency: a signal's values", concurrencySignalValues),
    ("Concurrency: a property's values", concurrencyPropertyValues),
    ("Concurrency: buffering policies", concurrencyBufferingPolicies),
    ("Concurrency: a producer from an async function", concurrencyProducerFromAsyncFunction),
    ("Concurrency: a producer from an async sequence", concurrencyProducerFromAsyncSequence),
    ("Concurrency: an async start handler", concurrencyAsyncStartHandler),
    ("Concurrency: awaiting one result", concurrencyAwaitingOneResult),
    ("Concurrency: cancelling the iterating task", concurrencyCancellingTheIteration),
    ("Concurrency: disposing of a start cancels its task", concurrencyDisposingCancelsTheTask),
    ("Concurrency: sleeping in virtual time", concurrencySleepingInVirtualTime),
    ("Concurrency: a main-actor view model", concurrencyMainActorViewModel),
    ("Concurrency: binding to the main actor", concurrencyBindingToTheMainActor),
]

for example in examples {
    print("── \(example.title)")
    example.run()
    print()
}

for example in asyncExamples {
    print("── \(example.title)")
    try await example.run()
    print()
}
