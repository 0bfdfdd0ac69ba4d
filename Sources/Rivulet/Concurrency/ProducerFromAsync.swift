// Producers from async code (issue 17, item 5): a producer whose each start runs an async
// operation, iterates an `AsyncSequence`, or runs an async start handler, in a new `Task`.
//
// How disposal and cancellation map, for all three:
// - Disposing of a start (P4) ends its lifetime, which interrupts the produced signal at once and
//   cancels the start's task. Whatever the task still sends afterwards is dropped (E1): the signal
//   has ended.
// - The task is created by the start and known to nobody else, so the only way it is cancelled is
//   the disposal of its start. If the task finds itself cancelled when its work ends, the start
//   ends with `interrupted` whatever the work returned or threw (so an `AsyncStream` that returns
//   `nil` on cancellation does not look like a completion).
// - A `CancellationError` thrown while the task was *not* cancelled (from some other task's
//   cancellation the work was waiting on) is an ordinary failure: it is a value of `Error`, and
//   the producer's failure type says what the caller must handle; turning it into `interrupted`
//   would hide a real failure.
//
// Overloads: the unlabelled closure initialisers below sit beside ReactiveSwift's synchronous
// ones (`init(_ action: () -> Value)`, `init(_ action: () throws -> Value)`,
// `init(_ startHandler: (Observer, Lifetime) -> Void)`). A closure literal whose body does not
// `await` is not async, and the compiler ranks the synchronous initialisers first for it, so code
// written for ReactiveSwift keeps its meaning; a body that awaits can only match the async ones.
// Like the synchronous closure initialisers, these need the producer's type from the context:
// with no type, a trailing closure also fits the `Error == Never` `init(value:)` (taking the
// closure as the value), and the call is ambiguous.
// The tests in ProducerFromAsyncTests (Swift 6 mode) and
// ProducerFromAsyncSourceCompatibilityTests (Swift 5 mode) pin this down.
//
// Sendable: the work runs in a task, on a thread of the global executor, and the events it sends
// reach the observers there (E7), so the work's closure is `@Sendable` (several starts may run it
// at once, P2) and `Value` and `Error` are `Sendable`.

extension SignalProducer where Value: Sendable, Error: Sendable {
    /// A producer that, on each start, runs `operation` in a new task and sends its value then
    /// completes, or fails with the error it throws.
    ///
    /// Each start runs `operation` again, in its own task (P2). Disposing of the start
    /// interrupts the produced signal and cancels the task (P4, E4); `operation` sees the
    /// cancellation through `Task.isCancelled` or a cancellation handler, and whatever it returns
    /// or throws afterwards is not sent. A task that finds itself cancelled when `operation`
    /// ends ends the start with `interrupted`. A task cancelled before `operation` begins does not
    /// run it. A `CancellationError` thrown while the task was not cancelled is sent as a failure.
    ///
    /// A closure literal that does not `await` picks the synchronous `init(_ action:)` instead,
    /// which calls it on the starting thread.
    ///
    /// State the producer's type (`SignalProducer<Int, Never> { await work() }`, or a typed
    /// binding or argument): a trailing closure also fits `init(value:)` of a producer that
    /// cannot fail, so without the type the call is ambiguous, as the synchronous closure
    /// initialisers also need it. With the type, an `async` body selects this initialiser; a
    /// body that does not throw fits any `Error`.
    ///
    /// - Parameter operation: The work of one start. It may run on any thread, and on several at
    ///   once for concurrent starts.
    public init(_ operation: @escaping @Sendable () async throws(Error) -> Value) {
        self.init { observer, lifetime in
            let task = Task {
                guard !Task.isCancelled else { return observer.sendInterrupted() }
                let result: Result<Value, Error>
                do throws(Error) {
                    result = .success(try await operation())
                } catch {
                    result = .failure(error)
                }
                guard !Task.isCancelled else { return observer.sendInterrupted() }
                switch result {
                case let .success(value):
                    observer.send(value: value)
                    observer.sendCompleted()
                case let .failure(error):
                    observer.send(error: error)
                }
            }
            lifetime.observeEnded { task.cancel() }
        }
    }

    /// A producer that, on each start, iterates `sequence` in a new task, sends each element,
    /// completes when the sequence ends, and fails with the error the sequence throws.
    ///
    /// The failure type is the sequence's own (`Error == S.Failure`): an `AsyncStream` gives a
    /// producer that cannot fail, an `AsyncThrowingStream` one whose error is `any Error`, a
    /// sequence with typed throws one with that type.
    ///
    /// Each start makes a new iterator, in its own task (P2); whether two iterations see the
    /// same elements is the sequence's business (an `AsyncStream` is consumed once). Disposing of
    /// the start interrupts the produced signal and cancels the iterating task, which stops at the
    /// sequence's next cancellation point, and at the latest before the next element (P4, E4). A
    /// task that finds itself cancelled when the iteration ends ends the start with
    /// `interrupted`, not with a completion or a failure.
    ///
    /// Spelling: unlabelled, as `init(_ values:)` takes a `Sequence`. The two never compete for
    /// an argument, since no standard type is both a `Sequence` and an `AsyncSequence`; a type
    /// of one's own that is both must say which it means (`as any Sequence<…>` or a wrapper),
    /// and the compiler reports the ambiguity rather than choosing silently.
    ///
    /// - Parameter sequence: The elements to send, iterated afresh on each start.
    @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
    public init<S: AsyncSequence & Sendable>(_ sequence: S) where S.Element == Value, S.Failure == Error {
        self.init { observer, lifetime in
            let task = Task {
                var iterator = sequence.makeAsyncIterator()
                do throws(Error) {
                    while !Task.isCancelled, let element = try await iterator.next(isolation: nil) {
                        observer.send(value: element)
                    }
                } catch {
                    guard !Task.isCancelled else { return observer.sendInterrupted() }
                    return observer.send(error: error)
                }
                guard !Task.isCancelled else { return observer.sendInterrupted() }
                observer.sendCompleted()
            }
            lifetime.observeEnded { task.cancel() }
        }
    }

    /// A producer that, on each start, runs the async `startHandler` in a new task, with an input
    /// observer for the produced signal and the lifetime of that start.
    ///
    /// As with the synchronous start handler, `startHandler` sends the events itself, and
    /// returning does not end the start: it ends with the terminal event the handler sends, or
    /// with disposal. An error the handler throws is sent as the start's failure. Each start
    /// runs the handler again, in its own task (P2). Disposing of the start ends the lifetime,
    /// interrupts the produced signal and cancels the task (P4, E4); what the handler sends
    /// afterwards is dropped. A handler that throws while its task is cancelled ends the start
    /// with `interrupted`, not with a failure. A terminal event the handler sends also ends the
    /// lifetime, and so cancels the task if the handler is still running.
    ///
    /// A closure literal that does not `await` picks the synchronous
    /// `init(_ startHandler:)` instead, which runs it on the starting thread. Mark the closure
    /// `async` (`{ observer, lifetime async in … }`) when its body has no `await` yet.
    ///
    /// - Parameter startHandler: The work of one start. It may run on any thread, and on several
    ///   at once for concurrent starts.
    public init(
        _ startHandler: @escaping @Sendable (Signal<Value, Error>.Observer, Lifetime) async throws(Error) -> Void
    ) {
        self.init { observer, lifetime in
            let task = Task {
                guard !Task.isCancelled else { return observer.sendInterrupted() }
                do throws(Error) {
                    try await startHandler(observer, lifetime)
                } catch {
                    guard !Task.isCancelled else { return observer.sendInterrupted() }
                    observer.send(error: error)
                }
            }
            lifetime.observeEnded { task.cancel() }
        }
    }
}
