import Dispatch
import ExampleScenarios
import Foundation
import Rivulet

// Search as you type, against a server that answers after 1 s, except for the query "s", for
// which it takes 10 s (too many words start with "s"). A request may take 3 s at most.
// Real time: the answers arrive on a `QueueScheduler`, and this program waits for each one. The
// margins are wide so that what it prints does not depend on how busy the machine is: queries
// typed back to back are replaced within microseconds, long before any answer is due.

let scheduler = QueueScheduler(name: "latest-request")
let server = WordServer(
    words: ["reactive", "read", "ready", "signal", "silent", "stream", "swift"],
    scheduler: scheduler,
    latency: { query in query == "s" ? 10 : 1 }
)
let search = SearchAsYouType(timeout: 3, on: scheduler, request: server.search)

let answered = DispatchSemaphore(value: 0)
search.answers.observeValues { outcome in
    switch outcome {
    case let .success(answer):
        print("  answer for \"\(answer.query)\": \(answer.matches.joined(separator: ", "))")
    case let .failure(.timedOut(query)):
        print("  the request for \"\(query)\" timed out")
    }
    answered.signal()
}

func type(_ queries: String...) {
    for query in queries {
        print("type \"\(query)\"")
        search.type(query)
    }
    answered.wait()
}

type("r", "re", "rea") // typed faster than the server answers: only the latest query's answer arrives
type("s") // the server is too slow: the request times out after 3 s
type("s", "si") // the slow request is replaced before it times out: only "si" is answered
