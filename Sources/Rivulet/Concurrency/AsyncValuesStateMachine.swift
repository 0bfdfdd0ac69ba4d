/// The pure state of one `AsyncValues` iteration: the values waiting for the iterating task, the
/// task waiting for a value, and how the stream ended. Its methods return what to do; the storage
/// does it after releasing its lock (a continuation is never resumed, nor the observation
/// disposed of, under the lock).
@usableFromInline
struct AsyncValuesStateMachine<Element: Sendable, Failure: Error>: Sendable {
    @usableFromInline typealias Outcome = Result<Element?, Failure>
    @usableFromInline typealias Waiter = CheckedContinuation<Outcome, Never>

    @usableFromInline
    enum End: Sendable {
        /// The stream completed, was interrupted, or the iteration was cancelled: `nil` once the
        /// buffer is drained.
        case finished
        /// The stream failed: the failure is thrown once the buffer is drained, then `nil`.
        case failed(Failure)
    }

    /// What the storage does once the lock is released.
    @usableFromInline
    enum Action: Sendable {
        case none
        case resume(Waiter, Outcome)
    }

    @usableFromInline let policy: AsyncValuesBufferingPolicy
    @usableFromInline var buffer = FIFOQueue<Element>()
    @usableFromInline var waiter: Waiter?
    @usableFromInline var end: End?

    @inlinable
    init(policy: AsyncValuesBufferingPolicy) {
        self.policy = policy
    }

    /// A value of the stream: to the waiting task, or into the buffer as the policy allows.
    @inlinable
    mutating func receive(_ value: Element) -> Action {
        guard end == nil else { return .none }
        if let waiter {
            self.waiter = nil
            return .resume(waiter, .success(value))
        }
        switch policy.kind {
        case .unbounded:
            buffer.append(value)
        case let .newest(limit):
            guard limit > 0 else { return .none }
            if buffer.count == limit { _ = buffer.popFirst() }
            buffer.append(value)
        case let .oldest(limit):
            if buffer.count < limit { buffer.append(value) }
        }
        return .none
    }

    /// The stream ended (or the iteration was cancelled): a waiting task gets the end at once.
    @inlinable
    mutating func finish(_ newEnd: End) -> Action {
        guard end == nil else { return .none }
        end = newEnd
        guard let waiter else { return .none }
        self.waiter = nil
        return .resume(waiter, takeEnd())
    }

    /// The iteration was cancelled: what is buffered is dropped, and the iteration ends.
    @inlinable
    mutating func cancel() -> (Action, dropped: ContiguousArray<Element?>) {
        let dropped = buffer.removeAll()
        if case .failed = end { end = .finished }
        return (finish(.finished), dropped)
    }

    /// The task asks for the next value: a buffered one, the end, or it waits (`nil`).
    @inlinable
    mutating func next() -> Outcome? {
        if let value = buffer.popFirst() { return .success(value) }
        if end != nil { return takeEnd() }
        return nil
    }

    /// The task waits for the next value.
    @inlinable
    mutating func wait(_ continuation: Waiter) -> Action {
        precondition(
            waiter == nil,
            "Rivulet: AsyncValues: next() was called while another call to next() on the same iteration was waiting; an iterator serves one task at a time"
        )
        if let outcome = next() { return .resume(continuation, outcome) }
        waiter = continuation
        return .none
    }

    /// The end as the task sees it: a failure once, then `nil` for ever.
    @inlinable
    mutating func takeEnd() -> Outcome {
        guard case let .failed(failure) = end else { return .success(nil) }
        end = .finished
        return .failure(failure)
    }
}
