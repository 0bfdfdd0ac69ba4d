import Dispatch
import Foundation
import Rivulet

// The examples of Docs/Concurrency.md's "Sendable rules and why" and "Main-actor patterns".

// MARK: Sendable rules

func concurrencyObserverOwnsItsState() {
    let (signal, input) = Signal<Int, Never>.pipe()
    var count = 0 // handed over to the observer: from here on, only the observer uses it
    signal.observeValues { value in
        count += 1
        print("value \(value) is number \(count)")
    }
    input.send(value: 10)
    input.send(value: 20)
}

/// A value that is not `Sendable`: a class with mutable state.
final class Draft {
    var text = ""
}

func concurrencyNonSendableValuesStayInOneRegion() {
    let (drafts, input) = Signal<Draft, Never>.pipe() // not Sendable: Draft is not
    drafts.map(\.text.count).observeValues { print("draft of \($0) characters") }
    let draft = Draft()
    draft.text = "Hello"
    input.send(value: draft)
}

// MARK: Main-actor patterns

@MainActor
final class DownloadsViewModel {
    private(set) var progress: [Int] = []
    private var download: Disposable?

    func watch(_ percentages: SignalProducer<Int, Never>) {
        download = percentages.startWithValues { @MainActor [weak self] percent in
            self?.progress.append(percent)
        }
    }
}

@MainActor
func concurrencyMainActorViewModel() async {
    let model = DownloadsViewModel()
    let (percentages, input) = Signal<Int, Never>.pipe()
    model.watch(SignalProducer(percentages))
    input.send(value: 10) // sent on the main actor: applied before send returns
    print(model.progress) // prints: [10]
    await Task.detached { input.send(value: 100) }.value // sent elsewhere: queued for the main actor
    while model.progress.count < 2 { await Task.yield() }
    print(model.progress) // prints: [10, 100]
}

@MainActor
final class TitleLabel {
    var text = ""
    let (lifetime, token) = Lifetime.make()

    var textTarget: BindingTarget<String> {
        BindingTarget(lifetime: lifetime) { @MainActor [weak self] text in self?.text = text }
    }
}

@MainActor
func concurrencyBindingToTheMainActor() async {
    let label = TitleLabel()
    let title = MutableProperty("Inbox")
    label.textTarget <~ title
    print(label.text) // prints: Inbox
    title.value = "Inbox (3)"
    print(label.text) // prints: Inbox (3)
}
