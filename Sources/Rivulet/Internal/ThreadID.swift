#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The identity of the running thread, used to tell a re-entrant send (same thread, queued)
/// from a concurrent one (another thread, which waits its turn).
@usableFromInline
struct ThreadID: Hashable, Sendable {
    @usableFromInline let rawValue: UInt

    @inlinable
    init(rawValue: UInt) { self.rawValue = rawValue }

    @inlinable
    static var current: ThreadID {
        #if canImport(Darwin)
        ThreadID(rawValue: UInt(bitPattern: pthread_self()))
        #else
        ThreadID(rawValue: UInt(pthread_self()))
        #endif
    }
}
