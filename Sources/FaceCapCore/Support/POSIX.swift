#if canImport(Glibc)
import Glibc
#endif

/// The C library's sentence for an `errno` value ("Permission denied"): what a message shows instead of
/// a bare number. The one strerror call of the package.
package func errnoText(_ code: Int32) -> String {
    guard let text = strerror(code) else { return "error \(code)" }
    return String(cString: text)
}

/// An errno value as a typed error, returned by the system helpers instead of a global read later; its
/// description is `errnoText`'s sentence.
package struct Errno: Error, Equatable, CustomStringConvertible {
    package var code: Int32
    package init(_ code: Int32) { self.code = code }
    /// The calling thread's `errno` now.
    package static var current: Errno { Errno(errno) }
    package var description: String { errnoText(code) }
}

/// The small system jobs every module needs, each written once: whole writes, EINTR retried, a symbolic
/// link's target and the monotonic clock.
package enum POSIX {
    /// Writes all of `bytes` to `descriptor`, retrying short writes and EINTR, and EAGAIN too when
    /// `retryingAgain` (a terminal left non-blocking by another program). Stops at any other error and
    /// returns it (EPIPE: the reader went away); nil once everything was written.
    @discardableResult
    package static func writeAll(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer,
                                 retryingAgain: Bool = false) -> Errno? {
        guard let base = bytes.baseAddress else { return nil }
        var offset = 0
        while offset < bytes.count {
            let written = write(descriptor, base + offset, bytes.count - offset)
            if written >= 0 {
                offset += written
            } else if errno != EINTR, !(retryingAgain && errno == EAGAIN) {
                return .current
            }
        }
        return nil
    }

    @discardableResult
    package static func writeAll(_ descriptor: Int32, _ bytes: [UInt8], retryingAgain: Bool = false) -> Errno? {
        bytes.withUnsafeBytes { writeAll(descriptor, $0, retryingAgain: retryingAgain) }
    }

    /// The text's UTF-8 in one pass: a line leaves with nothing buffered (write(2), not stdio, whose
    /// `stdout`/`stderr` are mutable C globals that Swift 6 cannot prove safe).
    @discardableResult
    package static func writeAll(_ descriptor: Int32, _ text: String) -> Errno? {
        var text = text
        return text.withUTF8 { writeAll(descriptor, UnsafeRawBufferPointer($0)) }
    }

    /// The target of the symbolic link at `path` (up to 4095 bytes), or nil when it is not one or
    /// cannot be read.
    package static func readLink(_ path: String) -> String? {
        var buffer = [CChar](repeating: 0, count: 4096)
        let count = readlink(path, &buffer, buffer.count - 1)
        guard count > 0 else { return nil }
        return String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Seconds on CLOCK_MONOTONIC: unaffected by changes of the wall clock. Code that decides on time
    /// takes a clock as a parameter with this as its default, so tests can give their own.
    package static func monotonicSeconds() -> Double {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
    }
}
