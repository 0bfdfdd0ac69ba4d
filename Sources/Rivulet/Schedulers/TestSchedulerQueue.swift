#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The state of a `TestScheduler`: its virtual clock and its pending actions.
///
/// Virtual time is counted in whole nanoseconds after the scheduler's start date (after
/// `Date.distantFuture` once `run()` has got there), so intervals add up exactly (ten steps of
/// 100 ms make exactly one second) and equal dates compare equal. Alongside the count, `nowDate` keeps the `Date` the scheduler reports, so that a date handed in
/// by the user (`advance(to:)`, `schedule(after:)`) is reported back unchanged.
///
/// This type is plain data: it lives inside the scheduler's `Locked` and never runs an action.
struct TestSchedulerQueue {
    /// An action waiting for its time.
    struct Entry {
        /// Identifies the schedule for disposal; a repeating schedule keeps it across runs.
        let id: UInt64
        /// When the action is due, in nanoseconds after the start date.
        let offset: Int64
        /// The date reported by `currentDate` while the action runs.
        let date: Date
        /// For a repeating schedule, the time between runs in nanoseconds.
        let repeatInterval: Int64?
        let action: @Sendable () -> Void
        /// Orders entries due at the same offset: the order they were (re)added in.
        var sequence: UInt64 = 0
    }

    /// The date offsets count from, as seconds since the reference date: the start date, until
    /// `run()` moves it to `Date.distantFuture` (see `takeNextOrEndRun()`).
    private(set) var start: TimeInterval
    /// How far back `rewind(by:)` may go: the offset of the scheduler's start date.
    private var earliest: Int64 = 0
    /// The clock, in nanoseconds after `start`.
    private(set) var now: Int64 = 0
    /// The date the clock shows.
    private(set) var nowDate: Date
    /// Pending actions: a binary min-heap ordered by `offset`, then by `sequence`.
    private var entries: [Entry] = []
    private var nextSequence: UInt64 = 0
    /// Repeating schedules whose action is running right now, so not in `entries`. Disposing one
    /// removes it from here, which stops it from being rescheduled after the run.
    private var runningRepeaters: Set<UInt64> = []
    private var nextID: UInt64 = 0

    /// The number of actions waiting to run (repeating schedules count once).
    var pendingCount: Int { entries.count }

    init(startDate: Date) {
        start = startDate.timeIntervalSinceReferenceDate
        nowDate = startDate
    }

    // MARK: Converting between dates and offsets

    /// The date `offset` nanoseconds after the start date.
    func date(atOffset offset: Int64) -> Date {
        Date(timeIntervalSinceReferenceDate: start + TimeInterval(offset) / 1_000_000_000)
    }

    /// The offset of `date`, rounded to the nearest nanosecond and clamped to `Int64`.
    func offset(of date: Date) -> Int64 {
        let nanoseconds = ((date.timeIntervalSinceReferenceDate - start) * 1_000_000_000).rounded()
        if nanoseconds.isNaN { return now }
        if nanoseconds >= TimeInterval(Int64.max) { return .max }
        if nanoseconds <= TimeInterval(Int64.min) { return .min }
        return Int64(nanoseconds)
    }

    /// The time `nanoseconds` after the clock (at the clock for a negative count).
    func dueTime(afterNanoseconds nanoseconds: Int64) -> (offset: Int64, date: Date) {
        let offset = now.saturatingAdding(max(nanoseconds, 0))
        return (offset, date(atOffset: offset))
    }

    /// When an action for `date` is due. A date that is not after the clock is due now (so it runs
    /// after the actions already due now, at the current date): time never runs backwards.
    func dueTime(for date: Date) -> (offset: Int64, date: Date) {
        if date <= nowDate { return (now, nowDate) }
        return (max(offset(of: date), now), date)
    }

    // MARK: Adding and removing actions

    /// Adds an action due at `offset` and returns the id that disposes of it.
    mutating func add(
        at offset: Int64,
        date: Date,
        repeatInterval: Int64?,
        action: @escaping @Sendable () -> Void
    ) -> UInt64 {
        let id = nextID
        nextID += 1
        insert(Entry(id: id, offset: offset, date: date, repeatInterval: repeatInterval, action: action))
        return id
    }

    /// Adds `entry` to the heap, ordered after every entry already due at the same time.
    private mutating func insert(_ entry: Entry) {
        var entry = entry
        entry.sequence = nextSequence
        nextSequence += 1
        entries.append(entry)
        siftUp(from: entries.count - 1)
    }

    /// Whether `lhs` runs before `rhs`: earlier offset first, then the order they were added in.
    private static func runsBefore(_ lhs: Entry, _ rhs: Entry) -> Bool {
        lhs.offset != rhs.offset ? lhs.offset < rhs.offset : lhs.sequence < rhs.sequence
    }

    private mutating func siftUp(from index: Int) {
        var child = index
        while child > 0 {
            let parent = (child - 1) / 2
            guard Self.runsBefore(entries[child], entries[parent]) else { return }
            entries.swapAt(child, parent)
            child = parent
        }
    }

    private mutating func siftDown(from index: Int) {
        var parent = index
        while true {
            let left = 2 * parent + 1
            let right = left + 1
            var first = parent
            if left < entries.count && Self.runsBefore(entries[left], entries[first]) { first = left }
            if right < entries.count && Self.runsBefore(entries[right], entries[first]) { first = right }
            guard first != parent else { return }
            entries.swapAt(parent, first)
            parent = first
        }
    }

    /// Removes the entry at `index` from the heap and returns it.
    private mutating func remove(at index: Int) -> Entry {
        entries.swapAt(index, entries.count - 1)
        let removed = entries.removeLast()
        if index < entries.count {
            siftDown(from: index)
            siftUp(from: index)
        }
        return removed
    }

    /// Cancels the schedule `id`. Returns the removed entry so that its action is released by the
    /// caller, after the lock.
    mutating func cancel(_ id: UInt64) -> Entry? {
        runningRepeaters.remove(id)
        guard let index = entries.firstIndex(where: { $0.id == id }) else { return nil }
        return remove(at: index)
    }

    // MARK: Running

    /// Removes the first action due at or before `target` and moves the clock to its date.
    private mutating func takeNext(dueBy target: Int64) -> Entry? {
        guard let first = entries.first, first.offset <= target else { return nil }
        _ = remove(at: 0)
        if first.offset >= now {
            now = first.offset
            nowDate = max(nowDate, first.date)
        }
        if first.repeatInterval != nil {
            runningRepeaters.insert(first.id)
        }
        return first
    }

    /// Like `takeNext(dueBy:)`, but when nothing is due by `target` it moves the clock to `target`,
    /// showing `date`, in the same step: an action added concurrently is either taken by this
    /// advance or due after the settled clock, never left behind at a time already passed.
    mutating func takeNext(dueBy target: Int64, orSettleAt date: Date) -> Entry? {
        if let entry = takeNext(dueBy: target) { return entry }
        settle(at: target, date: date)
        return nil
    }

    /// The next step of `run()`: the first pending action whatever its time, or, once none is left,
    /// the clock moved to `Date.distantFuture` (as ReactiveSwift's `run()` leaves it), unless it
    /// is later already.
    ///
    /// Offsets then count from `Date.distantFuture`, so that work scheduled after `run()` keeps
    /// exact, ordered times there rather than being clamped together at the far end of the old
    /// range. Nothing is pending at that moment, so no action's time changes.
    mutating func takeNextOrEndRun() -> Entry? {
        if let entry = takeNext(dueBy: .max) { return entry }
        let end = Date.distantFuture
        guard nowDate < end else { return nil }
        let original = date(atOffset: earliest)
        start = end.timeIntervalSinceReferenceDate
        now = 0
        nowDate = end
        earliest = offset(of: original)
        return nil
    }

    /// After `entry` ran: reschedules it one interval later if it repeats and was not disposed of.
    mutating func finish(_ entry: Entry) {
        guard let interval = entry.repeatInterval, runningRepeaters.remove(entry.id) != nil else { return }
        let offset = entry.offset.saturatingAdding(interval)
        insert(Entry(id: entry.id, offset: offset, date: date(atOffset: offset), repeatInterval: interval, action: entry.action))
    }

    /// Moves the clock forward to `target`, showing `date`; never backwards.
    private mutating func settle(at target: Int64, date: Date) {
        if target > now {
            now = target
            nowDate = date
        } else if target == now {
            nowDate = max(nowDate, date)
        }
    }

    /// Moves the clock back by `nanoseconds`, which must not take it before the start date.
    mutating func rewind(by nanoseconds: Int64) {
        precondition(
            nanoseconds >= 0,
            "Rivulet: TestScheduler.rewind(by:): interval is \(nanoseconds) ns; it must be 0 or more, use advance(by:) to move forward"
        )
        let (target, overflow) = now.subtractingReportingOverflow(nanoseconds)
        precondition(
            !overflow && target >= earliest,
            "Rivulet: TestScheduler.rewind(by:): interval is \(nanoseconds) ns; time cannot move before the scheduler's start date (\(date(atOffset: earliest)))"
        )
        now = target
        nowDate = date(atOffset: now)
    }
}
