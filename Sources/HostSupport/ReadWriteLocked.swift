#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A value many threads read at once and one at a time changes, behind a POSIX read-write lock; a caller that must not
/// wait (the look at the mapped pages, which the next one makes up for) tries the lock and goes its way when it is taken.
package final class ReadWriteLocked<Value>: @unchecked Sendable {
    private let lock = UnsafeMutablePointer<pthread_rwlock_t>.allocate(capacity: 1)
    private var value: Value

    package init(_ value: Value) {
        self.value = value
        lock.initialize(to: pthread_rwlock_t())
        var attributes = pthread_rwlockattr_t()
        pthread_rwlockattr_init(&attributes)
        defer { pthread_rwlockattr_destroy(&attributes) }
        #if canImport(Glibc)
        // A writer waiting goes before readers that come after it: steady reads never starve it.
        pthread_rwlockattr_setkind_np(&attributes, Int32(PTHREAD_RWLOCK_PREFER_WRITER_NONRECURSIVE_NP))
        #endif
        precondition(pthread_rwlock_init(lock, &attributes) == 0, "pthread_rwlock_init failed")
    }

    deinit {
        pthread_rwlock_destroy(lock)
        lock.deallocate()
    }

    /// Reads the value, waiting while a writer holds it.
    package func read<T>(_ body: (Value) throws -> T) rethrows -> T {
        precondition(pthread_rwlock_rdlock(lock) == 0, "pthread_rwlock_rdlock failed")
        defer { pthread_rwlock_unlock(lock) }
        return try body(value)
    }

    /// Reads the value, or returns `nil` at once when a writer holds it.
    package func readIfAvailable<T>(_ body: (Value) throws -> T) rethrows -> T? {
        guard pthread_rwlock_tryrdlock(lock) == 0 else { return nil }
        defer { pthread_rwlock_unlock(lock) }
        return try body(value)
    }

    /// Changes the value, waiting for the readers and writers before.
    package func write<T>(_ body: (inout Value) throws -> T) rethrows -> T {
        precondition(pthread_rwlock_wrlock(lock) == 0, "pthread_rwlock_wrlock failed")
        defer { pthread_rwlock_unlock(lock) }
        return try body(&value)
    }
}
