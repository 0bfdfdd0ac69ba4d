#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The identity of the running thread, used to tell a re-entrant send (same thread, queued)
/// from a concurrent one (another thread, which waits its turn). The contract kit names threads
/// by it too (`package`).
@usableFromInline
package struct ThreadID: Hashable, Sendable {
    @usableFromInline package let rawValue: UInt

    @inlinable
    init(rawValue: UInt) {
        // A mailbox's turn word keeps its own flags in the four lowest bits (`MailboxStorage`,
        // `TurnOwner`). A thread's identity is the address of its thread control block, aligned
        // to at least 16 bytes by every C library Rivulet runs on.
        assert(
            rawValue & 0b1111 == 0 && rawValue != 0,
            "Rivulet: thread identity \(rawValue) is zero or not 16-byte aligned; the turn word keeps its flags in the four lowest bits (internal error)"
        )
        self.rawValue = rawValue
    }

    @inlinable
    package static var current: ThreadID {
        #if canImport(Darwin)
        ThreadID(rawValue: UInt(bitPattern: pthread_self()))
        #else
        ThreadID(rawValue: UInt(pthread_self()))
        #endif
    }
}
