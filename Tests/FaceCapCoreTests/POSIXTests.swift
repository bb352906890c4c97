import XCTest

@testable import FaceCapCore

#if canImport(Glibc)
import Glibc
#endif

/// The system helpers every module calls (`Support/POSIX.swift`, `PthreadLocked`): EINTR retried and nothing
/// else, whole writes and reads, the read limit enforced before the bytes are kept, errno worded in one place.
final class POSIXTests: XCTestCase {
    func testAnInterruptedCallIsRetriedAndAnyOtherFailureReturnedAsItsErrno() {
        var calls = 0
        let interruptedTwice = POSIX.retryingInterrupts { () -> Int32 in
            calls += 1
            if calls < 3 {
                errno = EINTR
                return -1
            }
            return 7
        }
        XCTAssertEqual(interruptedTwice, .success(7))
        XCTAssertEqual(calls, 3, "called again after each EINTR")

        calls = 0
        let refused = POSIX.retryingInterrupts { () -> Int in
            calls += 1
            errno = EAGAIN
            return -1
        }
        XCTAssertEqual(refused, .failure(Errno(EAGAIN)))
        XCTAssertEqual(calls, 1, "EAGAIN is the caller's to decide, not retried")
    }

    func testErrnoSaysTheCLibrarysSentence() {
        XCTAssertEqual(Errno(ENOENT).description, "No such file or directory")
        XCTAssertEqual(Errno(EACCES).description, "Permission denied")
    }

    /// A temporary file holding `bytes`, written by `writeAll`; removed at the end of the test.
    private func file(_ bytes: [UInt8]) throws -> String {
        let folder = getenv("TMPDIR").map { String(cString: $0) } ?? "/tmp"
        var template = Array((folder + "/facecap-posix-XXXXXX").utf8CString)
        let fd = mkstemp(&template)
        XCTAssertGreaterThanOrEqual(fd, 0)
        let path = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        addTeardownBlock { unlink(path) }
        XCTAssertNil(POSIX.writeAll(fd, bytes))
        XCTAssertEqual(close(fd), 0)
        return path
    }

    func testWhatWriteAllWritesReadFullyAndReadAllReadBack() throws {
        let bytes = (0..<200_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        let fd = open(try file(bytes), O_RDONLY | O_CLOEXEC)
        defer { close(fd) }
        XCTAssertEqual(POSIX.readAll(fd, expected: bytes.count, limit: bytes.count), .success(bytes))
        XCTAssertEqual(lseek(fd, 0, SEEK_SET), 0)
        var head = [UInt8](repeating: 0, count: 10)
        XCTAssertEqual(head.withUnsafeMutableBytes { POSIX.readFully(fd, into: $0) }, .success(10))
        XCTAssertEqual(head, Array(bytes[..<10]))
    }

    /// A file larger than it said (a pipe says nothing; a file that grew) is refused once the bytes pass the limit,
    /// not read to its end; one whose size is known to be over is refused before any read.
    func testReadAllStopsAtItsLimit() throws {
        let fd = open(try file([UInt8](repeating: 9, count: 200_000)), O_RDONLY | O_CLOEXEC)
        defer { close(fd) }
        guard case .failure(.tooLarge(let bytes)) = POSIX.readAll(fd, expected: 0, limit: 100_000) else {
            return XCTFail("200 000 bytes read with a 100 000-byte limit")
        }
        XCTAssertGreaterThan(bytes, 100_000)
        XCTAssertLessThan(lseek(fd, 0, SEEK_CUR), 200_000, "stopped before the end of the file")
        XCTAssertEqual(
            POSIX.readAll(-1, expected: 100_001, limit: 100_000), .failure(.tooLarge(bytes: 100_001)),
            "refused on its size, before the descriptor is read (this one is not even open)")
        XCTAssertEqual(POSIX.readAll(-1, expected: 0, limit: 100_000), .failure(.system(Errno(EBADF))))
    }

    func testTheLockBoxSaysWhenItIsTaken() {
        let box = PthreadLocked([1, 2])
        box.withLock { $0.append(3) }
        let whileHeld = box.withLock { _ in box.withLockIfAvailable { $0.count } }
        XCTAssertNil(whileHeld, "held (a pthread mutex is not recursive): the body does not run")
        XCTAssertEqual(box.withLockIfAvailable { $0 }, [1, 2, 3])
    }

    func testTheSystemClockNeverGoesBack() {
        let clock: any MonotonicClock = SystemClock()
        var last = clock.now()
        for _ in 0..<1000 {
            let now = clock.now()
            XCTAssertGreaterThanOrEqual(now, last)
            last = now
        }
        clock.sleep(0)
        clock.sleep(-1)
    }
}
