// Sound pattern: observing isolated to an actor. The closure gets the actor as an `isolated`
// parameter, so it updates the actor's state without `await`; events arrive in order.

import Rivulet

actor Scoreboard {
    var scores: [Int] = []
}

func follow(_ scores: Signal<Int, Never>, on board: Scoreboard) -> Disposable? {
    scores.observeValues(isolatedTo: board) { board, score in
        board.scores.append(score)
    }
}
