/// Counts of Rivulet's internal objects that are alive right now, for tests that look for leaks.
///
/// Every signal, observer, producer start, operator stage and property Rivulet allocates counts
/// itself in when it is made and out when it is freed, so a test can check that what it made is
/// gone afterwards (as RxSwift's `Resources.total` lets one check):
///
/// ```swift
/// let before = LiveObjects.current()
/// runTheScenario()
/// if let before, let after = LiveObjects.current() {
///     #expect(after.growth(since: before).isEmpty)
/// }
/// ```
///
/// **Only debug builds count.** The counting compiles only when Rivulet is built in the debug
/// configuration (the `RIVULET_TRACKS_LIVE_OBJECTS` condition, which Package.swift sets for debug
/// builds only), so a release build pays nothing for it; there `current()` returns `nil` and
/// `isTracking` is `false`, never a count of zero that would make a leak check pass.
///
/// The counts are global: they include the objects of every test running at the same time, so
/// compare them within a serial run (Docs/Architecture.md, "Live objects", shows how the test
/// suite does it).
public enum LiveObjects {
    /// What a count counts.
    public enum Kind: String, CaseIterable, Sendable, CustomStringConvertible {
        /// A signal's state (one allocation per `Signal`, and per started producer that needs one).
        case signal
        /// A `Signal.Observer`: an observer made from closures, or a signal's input.
        case observer
        /// An observer attached to a signal, and the handle that detaches it.
        case attachment
        /// One start of a `SignalProducer` (`ProducerStart`).
        case producerStart
        /// A property's state: one per `MutableProperty`, `ValidatingProperty` or composed property.
        case property
        /// An operator's state for one signal or one start: combining, flattening, timing,
        /// gating, side-effect and retrying stages.
        case stage
        /// A serializer of its own (a mailbox) that is neither a signal's nor a property's: an
        /// operator stage's, or the turn that signals made by fused operators share.
        case mailbox
        /// A channel's node, source or consumer (RivuletChannels).
        case channelNode

        /// The kind's name.
        public var description: String { rawValue }
    }

    /// The number of live objects of each kind at one moment.
    public struct Counts: Sendable, Equatable, CustomStringConvertible {
        /// The count of each kind; every kind is present.
        public let byKind: [Kind: Int]

        /// Counts of each kind, from `byKind`; a kind that is missing counts 0.
        ///
        /// - Parameter byKind: the count of each kind.
        public init(byKind: [Kind: Int]) {
            var complete: [Kind: Int] = [:]
            for kind in Kind.allCases { complete[kind] = byKind[kind] ?? 0 }
            self.byKind = complete
        }

        /// The count of `kind`.
        ///
        /// - Parameter kind: what to count.
        /// - Returns: how many objects of that kind are alive.
        public subscript(kind: Kind) -> Int { byKind[kind] ?? 0 }

        /// All live objects, of every kind.
        public var total: Int { byKind.values.reduce(0, +) }

        /// The kinds whose count is higher than in `earlier`, and by how much.
        ///
        /// - Parameter earlier: the counts to compare with, taken before.
        /// - Returns: the growth of each kind that grew; empty when none did.
        public func growth(since earlier: Counts) -> [Kind: Int] {
            var grown: [Kind: Int] = [:]
            for kind in Kind.allCases where self[kind] > earlier[kind] {
                grown[kind] = self[kind] - earlier[kind]
            }
            return grown
        }

        /// The non-zero counts, in the order of `Kind.allCases`, and the total:
        /// `signal 2, observer 1 (total 3)`.
        public var description: String {
            let parts = Kind.allCases.filter { self[$0] != 0 }.map { "\($0) \(self[$0])" }
            return (parts.isEmpty ? "none" : parts.joined(separator: ", ")) + " (total \(total))"
        }
    }

    /// Whether this build of Rivulet counts its live objects: `true` in debug builds, `false` in
    /// release builds, where `current()` returns `nil`.
    public static var isTracking: Bool {
        #if RIVULET_TRACKS_LIVE_OBJECTS
        true
        #else
        false
        #endif
    }

    /// The live objects now, by kind.
    ///
    /// Objects freed on other threads are counted out when they are freed; read the counts after
    /// whatever frees them has finished (or wait for the count to come down).
    ///
    /// - Returns: the counts, or `nil` in a release build, which does not count.
    public static func current() -> Counts? {
        #if RIVULET_TRACKS_LIVE_OBJECTS
        var byKind: [Kind: Int] = [:]
        for kind in Kind.allCases {
            byKind[kind] = counters[kind.index].loadSequentiallyConsistent()
        }
        return Counts(byKind: byKind)
        #else
        nil
        #endif
    }

    /// The number of live objects of every kind, or `nil` in a release build, which does not count.
    public static var total: Int? { current()?.total }
}

// MARK: Counting

#if RIVULET_TRACKS_LIVE_OBJECTS
extension LiveObjects {
    /// One counter per kind, in the order of `Kind.allCases`.
    static let counters: [AtomicCounter] = Kind.allCases.map { _ in AtomicCounter() }

    /// Adds `delta` to the count of `kind`.
    @usableFromInline
    static func count(_ kind: Kind, by delta: Int) {
        counters[kind.index].add(delta, ordering: .relaxed)
    }
}

extension LiveObjects.Kind {
    /// The kind's position in `allCases`, and so its counter's.
    var index: Int { Self.allCases.firstIndex(of: self).unsafelyUnwrapped }
}
#endif

extension LiveObjects {
    /// Counts in one object of `kind`; nothing in a release build.
    @inlinable @inline(__always)
    package static func didCreate(_ kind: Kind) {
        #if RIVULET_TRACKS_LIVE_OBJECTS
        count(kind, by: 1)
        #endif
    }

    /// Counts out one object of `kind`; nothing in a release build.
    @inlinable @inline(__always)
    package static func didDestroy(_ kind: Kind) {
        #if RIVULET_TRACKS_LIVE_OBJECTS
        count(kind, by: -1)
        #endif
    }

    /// Counts in a `MailboxStorage` whose state is a `State`; nothing in a release build.
    @inlinable @inline(__always)
    package static func didCreateStorage<State>(of _: State.Type) {
        #if RIVULET_TRACKS_LIVE_OBJECTS
        didCreate(kind(ofStorageOf: State.self))
        #endif
    }

    /// Counts out a `MailboxStorage` whose state is a `State`; nothing in a release build.
    @inlinable @inline(__always)
    package static func didDestroyStorage<State>(of _: State.Type) {
        #if RIVULET_TRACKS_LIVE_OBJECTS
        didDestroy(kind(ofStorageOf: State.self))
        #endif
    }

    #if RIVULET_TRACKS_LIVE_OBJECTS
    /// The kind of a `MailboxStorage` whose state is a `State`: the state's own, or `mailbox`.
    @usableFromInline
    static func kind<State>(ofStorageOf _: State.Type) -> Kind {
        (State.self as? any LiveObjectKindOfState.Type)?.liveObjectKind ?? .mailbox
    }
    #endif
}

/// A mailbox's state that says what kind of live object its storage is (for `LiveObjects`); a
/// storage whose state does not conform counts as a `mailbox`.
package protocol LiveObjectKindOfState {
    /// The kind of the storage that keeps this state.
    static var liveObjectKind: LiveObjects.Kind { get }
}

extension DeliveryState: LiveObjectKindOfState {
    package static var liveObjectKind: LiveObjects.Kind { .signal }
}

extension PropertyState: LiveObjectKindOfState {
    package static var liveObjectKind: LiveObjects.Kind { .property }
}

/// The kind a `LiveObjectTracker` counts, as a type, so that the tracker stores nothing and adds
/// no byte to the object that keeps it (the idle-footprint tests check sizes in debug builds too).
@usableFromInline
package protocol LiveObjectKindTag {
    /// The kind counted.
    static var kind: LiveObjects.Kind { get }
}

/// The tags of `LiveObjectTracker`, one per kind that a class counts by keeping a tracker.
@usableFromInline
package enum LiveObjectTag {
    package enum Observer: LiveObjectKindTag { package static var kind: LiveObjects.Kind { .observer } }
    package enum Attachment: LiveObjectKindTag { package static var kind: LiveObjects.Kind { .attachment } }
    package enum ProducerStart: LiveObjectKindTag { package static var kind: LiveObjects.Kind { .producerStart } }
    package enum Stage: LiveObjectKindTag { package static var kind: LiveObjects.Kind { .stage } }
    package enum ChannelNode: LiveObjectKindTag { package static var kind: LiveObjects.Kind { .channelNode } }
}

/// Counts one object while it lives: a class that keeps one as a stored property counts in when
/// it is made and out when it is freed. It has no stored property, so it takes no space; in a
/// release build it does nothing.
#if RIVULET_TRACKS_LIVE_OBJECTS
@usableFromInline
package struct LiveObjectTracker<Tag: LiveObjectKindTag>: ~Copyable, Sendable {
    /// Counts in one object of `Tag.kind`.
    @inlinable
    package init() {
        LiveObjects.didCreate(Tag.kind)
    }

    deinit {
        LiveObjects.didDestroy(Tag.kind)
    }
}
#else
@usableFromInline @frozen
package struct LiveObjectTracker<Tag: LiveObjectKindTag>: Sendable {
    /// Nothing: a release build does not count.
    @inlinable @inline(__always)
    package init() {}
}
#endif
