import Foundation
import Rivulet

// The samples of Docs/MigratingFromCombine.md.

func combineSubjectAndSink() {
    let (messages, messageInput) = Signal<String, Never>.pipe()
    let subscription = messages.observeValues { print("received \($0)") }
    messageInput.send(value: "hello")
    subscription?.dispose() // what AnyCancellable.cancel() does
    messageInput.send(value: "unheard")
}

func combineCurrentValue() {
    let volume = MutableProperty(5)
    volume.producer.startWithValues { level in
        print("volume \(level), and the property reads \(volume.value)")
    }
    volume.value = 7
    volume.signal.observeValues { print("changes only: \($0)") } // like dropFirst() on the subject
    volume.value = 8
}

func combineAssign() {
    let unread = MutableProperty(0)
    let title = MutableProperty("")
    title <~ unread.map { "Inbox (\($0))" }
    unread.value = 2
    print(title.value) // prints: Inbox (2)
}

func combinePublishers() {
    SignalProducer<Int, Never>(value: 42).startWithValues { print("Just: \($0)") }
    SignalProducer<Int, Never>(values: [1, 2, 3]).collect().startWithValues { print("sequence: \($0)") }
    SignalProducer<Int, CancelledError>(error: CancelledError()).startWithFailed { print("Fail: \($0)") }
    let deferred = SignalProducer<Int, Never> { observer, _ in
        observer.send(value: Int.random(in: 1...6)) // runs again on every start, like Deferred
        observer.sendCompleted()
    }
    deferred.startWithCompleted { print("Deferred: completed") }
}

struct CancelledError: Swift.Error, CustomStringConvertible {
    var description: String { "cancelled" }
}

func combineOperators() {
    let (keystrokes, keyboard) = Signal<String, Never>.pipe()
    keystrokes
        .map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
        .filter { !$0.isEmpty }
        .skipRepeats()                        // removeDuplicates()
        .scan(0) { count, _ in count + 1 }    // scan(_:_:)
        .observeValues { print("distinct query #\($0)") }
    for text in ["Swift", "swift ", "  ", "Rivulet"] {
        keyboard.send(value: text)
    }
}

enum LookupError: Swift.Error {
    case offline
}

func lookUp(_ word: String) -> SignalProducer<String, LookupError> {
    word == "ping" ? SignalProducer(value: "pong") : SignalProducer(error: .offline)
}

func combineSwitchToLatest() {
    let (words, wordInput) = Signal<String, Never>.pipe()
    words
        .flatMap(.latest) { word in                       // map { … }.switchToLatest()
            lookUp(word).flatMapError { _ in SignalProducer(value: "(no answer)") } // catch / replaceError
        }
        .observeValues { print("answer: \($0)") }
    wordInput.send(value: "ping")
    wordInput.send(value: "hello")
}

func combineTypedInterruption() {
    let upload = SignalProducer<Int, Never> { observer, _ in
        observer.send(value: 30) // 30% sent, then waiting for the network
    }
    let started = upload.start { event in
        switch event {
        case let .value(percent): print("uploaded \(percent)%")
        case .completed: print("upload finished")
        case .interrupted: print("upload interrupted: show 'cancelled', not 'finished'")
        case .failed: print("upload failed")
        }
    }
    started.dispose() // Combine's cancel() sends the subscriber nothing at all
}

func combineReentrantSend() {
    let (steps, stepInput) = Signal<Int, Never>.pipe()
    steps.observeValues { step in
        print("begin step \(step)")
        if step == 1 { stepInput.send(value: 2) } // queued: delivered after this handler returns
        print("end step \(step)")
    }
    stepInput.send(value: 1)
}

func combineVirtualTime() {
    let clock = TestScheduler()
    let (searchField, typing) = Signal<String, Never>.pipe()
    searchField
        .debounce(0.5, on: clock)
        .observeValues { print("search \($0) at +\(clock.currentDate.timeIntervalSinceReferenceDate)s") }
    typing.send(value: "r")
    clock.advance(by: .milliseconds(200))
    typing.send(value: "ri")
    clock.advance(by: .seconds(1)) // prints: search ri at +0.7s
}
