import Rivulet

func readmeAsync() async throws {
    let doubled = SignalProducer<Int, Never>(values: [1, 2, 3]).map { $0 * 2 }
    for await value in doubled.values {
        print(value)
    }

    let greeting = SignalProducer<String, any Error> {
        try await Task.sleep(for: .milliseconds(10)) // any async work: a request, an actor, a file
        return "hello from async code"
    }
    for try await text in greeting.values {
        print(text)
    }
}
