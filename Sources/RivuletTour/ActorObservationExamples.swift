import Dispatch
import Rivulet

// The example of Docs/Concurrency.md's "Observing on an actor".


actor Inbox {
    var messages: [String] = []
}

func concurrencyObservingOnAnActor() {
    let inbox = Inbox()
    let (signal, input) = Signal<String, Never>.pipe()
    let disposable = signal.observeValues(isolatedTo: inbox) { inbox, message in
        inbox.messages.append(message) // isolated to `inbox`: no await
    }
    input.send(value: "hello") // returns at once; the closure runs on the actor

    // The tour is synchronous: it waits for the actor's delivery before printing.
    let seen = Locked<[String]>([])
    let delivered = DispatchSemaphore(value: 0)
    Task {
        var messages: [String] = []
        while messages.isEmpty {
            messages = await inbox.messages
            await Task.yield()
        }
        seen.withLock { [messages] in $0 = messages }
        delivered.signal()
    }
    delivered.wait()
    print("inbox: \(seen.withLock { $0 })")
    disposable?.dispose()
}
