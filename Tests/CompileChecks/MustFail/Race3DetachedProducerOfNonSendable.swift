// Race 3: a producer of a non-Sendable class is not Sendable, so it cannot be captured by a
// detached task while the caller keeps using it (its values would be shared across threads).
// expected-error: risks causing data races || with non-Sendable type

import Rivulet

final class Document {
    var text = ""
}

func startTwice(_ documents: SignalProducer<Document, Never>) {
    Task.detached {
        documents.startWithValues { document in document.text += "!" }
    }
    documents.startWithValues { document in document.text += "?" }
}
