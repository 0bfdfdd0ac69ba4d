/// What a `TestScheduler`'s async engine knows about the tasks sleeping on the scheduler: plain
/// data, kept in a `Locked` by the scheduler and updated from the sleeping tasks and the actions
/// that wake them.
///
/// The engine uses it to decide how long to let other tasks run after an action before it moves
/// time on: until every woken task runs again, and then, for a woken task that does not share the
/// engine's actor (the main actor), until it starts its next sleep on the scheduler, or the engine
/// gives up on it.
struct TestSchedulerSleepers {
    /// Woken tasks that have not run again yet.
    private(set) var resuming = 0

    /// Woken tasks off the main actor that run again and have not started another sleep on this
    /// scheduler yet (`SleepingTask.task`).
    private var awake: Set<Int> = []

    /// Whether some woken task off the main actor may still be on its way to its next sleep.
    var hasAwakeTasks: Bool { !awake.isEmpty }

    /// `sleeper` is about to schedule a wake-up: it has reached its next sleep.
    mutating func willSleep(_ sleeper: SleepingTask) {
        awake.remove(sleeper.task)
    }

    /// An action is about to resume `sleeper`.
    mutating func willResume(_ sleeper: SleepingTask) {
        resuming += 1
    }

    /// `sleeper`, announced by `willResume`, runs again (`running`), or was not resumed after all.
    mutating func didResume(_ sleeper: SleepingTask, running: Bool) {
        precondition(
            resuming > 0,
            "Rivulet: a sleeping task resumed that no action announced; every resumption is announced first (internal error)")
        resuming -= 1
        if running && !sleeper.onMainActor {
            awake.insert(sleeper.task)
        }
    }

    /// The engine has waited long enough: the tasks still awake are doing something else than
    /// sleeping on this scheduler (or have ended).
    mutating func stopWaitingForAwakeTasks() {
        awake.removeAll()
    }
}
