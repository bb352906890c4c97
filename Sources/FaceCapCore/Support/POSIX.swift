#if canImport(Glibc)
import Glibc
#endif

/// An errno value as a typed error, returned by the system helpers instead of a global read later
/// (swift-system's `Errno`).
package struct Errno: Error, Equatable, CustomStringConvertible {
    package var code: Int32
    package init(_ code: Int32) { self.code = code }
    /// The calling thread's `errno` now.
    package static var current: Errno { Errno(errno) }

    /// The C library's sentence for the value ("Permission denied"): what a message shows instead of a bare
    /// number. The one strerror call of the package.
    package var description: String {
        guard let text = strerror(code) else { return "error \(code)" }
        return String(cString: text)
    }
}

/// The small system jobs every module needs, each written once: EINTR retried, whole writes, bounded
/// whole-file reads, a symbolic link's target and the clocks.
package enum POSIX {
    /// `call` again while it fails with EINTR (a signal arrived: the wizard's handlers are installed without
    /// SA_RESTART); its result once it is not negative, or the errno of any other failure. The one EINTR loop
    /// around a system call (swift-system's `valueOrErrno(retryOnInterrupt:)`).
    package static func retryingInterrupts<Value: FixedWidthInteger>(_ call: () -> Value) -> Result<Value, Errno> {
        while true {
            let result = call()
            if result >= 0 { return .success(result) }
            if errno != EINTR { return .failure(.current) }
        }
    }

    /// Writes all of `bytes` to `descriptor`, retrying short writes and EINTR, and EAGAIN too when
    /// `retryingAgain` (a terminal left non-blocking by another program). Stops at any other error and
    /// returns it (EPIPE: the reader went away); nil once everything was written.
    @discardableResult
    package static func writeAll(
        _ descriptor: Int32, _ bytes: UnsafeRawBufferPointer,
        retryingAgain: Bool = false
    ) -> Errno? {
        guard let base = bytes.baseAddress else { return nil }
        var offset = 0
        while offset < bytes.count {
            switch retryingInterrupts({ write(descriptor, base + offset, bytes.count - offset) }) {
            case .success(let written): offset += written
            case .failure(let error) where retryingAgain && error.code == EAGAIN: continue
            case .failure(let error): return error
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

    /// Reads from `descriptor` into `buffer` until it is full or the file ends, retrying short reads and EINTR;
    /// the bytes read (fewer only at the end of the file).
    package static func readFully(
        _ descriptor: Int32,
        into buffer: UnsafeMutableRawBufferPointer
    ) -> Result<Int, Errno> {
        guard let base = buffer.baseAddress else { return .success(0) }
        var done = 0
        while done < buffer.count {
            switch retryingInterrupts({ read(descriptor, base + done, buffer.count - done) }) {
            case .success(0): return .success(done)
            case .success(let count): done += count
            case .failure(let error): return .failure(error)
            }
        }
        return .success(done)
    }

    /// Why `readAll` gave no bytes.
    package enum ReadFailure: Error, Equatable {
        /// open(2) or read(2) failed.
        case system(Errno)
        /// The file holds more than the limit: `bytes` is at least what was seen of it.
        case tooLarge(bytes: Int)
    }

    /// The whole content of the open `descriptor`, refusing more than `limit` bytes before allocating them:
    /// a regular file's size is known up front (`expected`, 0 for a pipe), and one byte more than it sees a file
    /// that grew without a second pass.
    package static func readAll(_ descriptor: Int32, expected: Int, limit: Int) -> Result<[UInt8], ReadFailure> {
        guard expected <= limit else { return .failure(.tooLarge(bytes: expected)) }
        var bytes: [UInt8] = []
        var chunk = max(expected + 1, 65536)
        while true {
            let start = bytes.count
            guard start + chunk <= limit + 1 else { return .failure(.tooLarge(bytes: start + chunk)) }
            bytes.append(contentsOf: repeatElement(0, count: chunk))
            let result = bytes.withUnsafeMutableBytes {
                readFully(descriptor, into: UnsafeMutableRawBufferPointer(rebasing: $0[start...]))
            }
            switch result {
            case .success(let count) where count < chunk:
                bytes.removeLast(chunk - count)
                return .success(bytes)
            case .success:
                chunk = max(chunk, 65536)
            case .failure(let error):
                return .failure(.system(error))
            }
        }
    }

    /// The target of the symbolic link at `path` (up to 4095 bytes), or nil when it is not one or
    /// cannot be read.
    package static func readLink(_ path: String) -> String? {
        var buffer = [CChar](repeating: 0, count: 4096)
        let count = readlink(path, &buffer, buffer.count - 1)
        guard count > 0 else { return nil }
        return String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Seconds on `clock` (CLOCK_MONOTONIC for `SystemClock`; a CPU-time clock for the benchmarks): the one
    /// clock_gettime call.
    package static func clockSeconds(_ clock: clockid_t) -> Double {
        var now = timespec()
        clock_gettime(clock, &now)
        return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
    }
}
