#if canImport(Glibc)
import Glibc
#endif

/// A pthread mutex for state two threads share (the eye worker's hand-over, the wizard's shared tracker).
///
/// A pthread mutex, not `Synchronization.Mutex`: ThreadSanitizer intercepts `pthread_mutex_*` and so sees the
/// hand-over between the threads, where `Mutex`'s futex is invisible to it (it reported such a hand-over as a
/// race). The mutex is allocated and initialised here, destroyed and freed in `deinit`, and only ever used through
/// `pointer`, which stays valid as long as the object (a pthread mutex must not move once initialised).
public final class PthreadMutex: @unchecked Sendable {
    /// The mutex itself, for `pthread_cond_wait` (with the lock held).
    let pointer: UnsafeMutablePointer<pthread_mutex_t>

    public init() {
        pointer = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
        pointer.initialize(to: pthread_mutex_t())
        pthread_mutex_init(pointer, nil)
    }

    deinit {
        pthread_mutex_destroy(pointer)
        pointer.deinitialize(count: 1)
        pointer.deallocate()
    }

    /// Takes the lock, waiting for it. Pair with `unlock`; `withLock` where the held part is one block.
    func lock() { pthread_mutex_lock(pointer) }

    func unlock() { pthread_mutex_unlock(pointer) }

    /// `body` with the lock held.
    public func withLock<Result>(_ body: () throws -> Result) rethrows -> Result {
        pthread_mutex_lock(pointer)
        defer { pthread_mutex_unlock(pointer) }
        return try body()
    }

    /// `body` with the lock held, or nil (and `body` not run) when another thread holds it.
    public func withLockIfAvailable<Result>(_ body: () throws -> Result) rethrows -> Result? {
        guard pthread_mutex_trylock(pointer) == 0 else { return nil }
        defer { pthread_mutex_unlock(pointer) }
        return try body()
    }
}

/// A value behind a `PthreadMutex`, reached only with the lock held: `Synchronization.Mutex`'s shape (swift-nio's
/// `NIOLockedValueBox`), with the lock ThreadSanitizer sees (the validation worker's queue under `Mutex` was reported
/// as a race in CI). The one lock box: the workers' queues, the interpreter registry and the shared face tracker.
public final class PthreadLocked<Value>: @unchecked Sendable {
    private let mutex = PthreadMutex()
    private var value: Value

    public init(_ value: Value) {
        self.value = value
    }

    /// `body` on the value with the lock held.
    public func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        try mutex.withLock { try body(&value) }
    }

    /// `body` on the value with the lock held, or nil (and `body` not run) when another thread holds it.
    public func withLockIfAvailable<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result? {
        try mutex.withLockIfAvailable { try body(&value) }
    }
}

/// A pthread condition variable to wait on with a `PthreadMutex` held (the eye worker's hand-over). Allocated and
/// initialised here, destroyed and freed in `deinit`, never moved (as the mutex).
final class PthreadCondition: @unchecked Sendable {
    private let pointer: UnsafeMutablePointer<pthread_cond_t>

    init() {
        pointer = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
        pointer.initialize(to: pthread_cond_t())
        pthread_cond_init(pointer, nil)
    }

    deinit {
        pthread_cond_destroy(pointer)
        pointer.deinitialize(count: 1)
        pointer.deallocate()
    }

    /// Waits for a signal, `mutex` (held) released meanwhile and held again on return.
    func wait(_ mutex: PthreadMutex) { pthread_cond_wait(pointer, mutex.pointer) }

    /// Wakes one waiter.
    func signal() { pthread_cond_signal(pointer) }

    /// Wakes every waiter.
    func broadcast() { pthread_cond_broadcast(pointer) }
}
