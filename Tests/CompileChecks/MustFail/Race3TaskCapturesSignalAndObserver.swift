// Race 3, signals and their input observers: with a non-Sendable value type, neither may be shared
// with a `Task {}` started from a nonisolated function.
// expected-error: risks causing data races || with non-Sendable type
// expected-error: risks causing data races || with non-Sendable type

import Rivulet

final class Message {
    var body = ""
}

func relay(_ messages: Signal<Message, Never>, _ input: Signal<Message, Never>.Observer) {
    Task {
        messages.observeValues { message in message.body += "!" }
    }
    Task {
        input.send(value: Message())
    }
    messages.observeValues { message in message.body += "?" }
    input.send(value: Message())
}
