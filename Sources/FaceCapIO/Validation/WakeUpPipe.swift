import FaceCapCore
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// The pipe a worker thread wakes the run loop with: the run loop polls `descriptor` beside the camera and
/// the terminal; the pipe carries nothing but wake-ups (the values themselves are behind the worker's mutex).
/// Both ends are non-blocking and close-on-exec.
final class WakeUpPipe: Sendable {
    /// The read end; readable after `wake()`, until `drain()`. Valid until `close()`.
    let descriptor: Int32
    private let writeEnd: Int32
    private let closed = Atomic<Bool>(false)

    /// Fails only when the process is out of file descriptors.
    init() throws(ValidationWorkerError) {
        var fds: [Int32] = [-1, -1]
        guard pipe(&fds) == 0 else { throw ValidationWorkerError(errno: errno) }
        for fd in fds {
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        }
        descriptor = fds[0]
        writeEnd = fds[1]
    }

    deinit { close() }

    /// Makes `descriptor` readable. EAGAIN: the pipe is full of unread wake-ups, so the run loop is woken anyway.
    func wake() {
        let byte: UInt8 = 1
        withUnsafeBytes(of: byte) { _ = POSIX.writeAll(writeEnd, $0) }
    }

    /// Reads every wake-up waiting; never blocks.
    func drain() {
        var buffer = [UInt8](repeating: 0, count: 64)
        while case .success(let count) = buffer.withUnsafeMutableBytes({ bytes in
            POSIX.retryingInterrupts { read(descriptor, bytes.baseAddress, bytes.count) }
        }), count > 0 {}
    }

    /// Closes both ends; idempotent.
    func close() {
        guard !closed.exchange(true, ordering: .acquiringAndReleasing) else { return }
        _ = Glibc.close(descriptor)
        _ = Glibc.close(writeEnd)
    }
}
