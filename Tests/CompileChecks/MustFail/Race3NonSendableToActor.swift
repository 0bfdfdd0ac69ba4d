// Race: a non-`Sendable` value handed to an actor by an actor-isolated observer; the value
// would be used on the actor while the sender still holds it.

import Rivulet

final class Note {
    var text = ""
}

actor Notebook {
    var notes: [Note] = []
}

func keep(_ notes: Signal<Note, Never>, in book: Notebook) {
    // expected-error: does not conform to the 'Sendable' protocol || conform to 'Sendable'
    _ = notes.observeValues(isolatedTo: book) { book, note in book.notes.append(note) }
}
