import FaceCapCore
import Foundation
import XCTest

@testable import FaceCapIO

/// Saving the kept photo: names, modes, the suffix, and failures (read-only, a file in the way, a full
/// disk) that leave nothing behind. Read-only and full file systems are real tmpfs mounts (the tests run
/// as root on the development machine); where mounting is impossible the test says why on stdout and
/// falls back to a permission bit or a file-size limit.
final class PhotoStoreTests: XCTestCase {
    var temp: TemporaryDirectory!
    var mounts: [String] = []
    let time = 1_796_000_000  // 2026-11-30 00:53:20 UTC
    var savedTZ: String?

    override func setUpWithError() throws {
        temp = try TemporaryDirectory()
        savedTZ = getenv("TZ").map { String(cString: $0) }
        setenv("TZ", "UTC", 1)
        tzset()
    }

    override func tearDown() {
        for mount in mounts.reversed() { _ = run("/bin/umount", [mount]) }
        if let savedTZ { setenv("TZ", savedTZ, 1) } else { unsetenv("TZ") }
        tzset()
        temp.remove()
    }

    private func run(_ tool: String, _ arguments: [String]) -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = arguments
        let pipe = Pipe()
        process.standardError = pipe
        process.standardOutput = pipe
        do { try process.run() } catch { return (-1, "\(error)") }
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, output.trimmingCharacters(in: .whitespacesAndNewlines))
    }

    /// A tmpfs at `path` with `options`; nil (and the reason printed) where mounting is not possible.
    private func mountTmpfs(_ path: String, options: String) throws -> String? {
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        let result = run("/bin/mount", ["-t", "tmpfs", "-o", options, "tmpfs", path])
        guard result.status == 0 else {
            print("PhotoStoreTests: cannot mount a tmpfs (\(result.output)); using the fallback instead")
            return nil
        }
        mounts.append(path)
        return path
    }

    private func mode(_ path: String) -> mode_t {
        var info = stat()
        XCTAssertEqual(stat(path, &info), 0, path)
        return info.st_mode & 0o777
    }

    private func listing(_ path: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).sorted()
    }

    func testAPairIsSavedPrivatelyUnderTheCaptureTime() throws {
        let old = umask(0o022)
        defer { umask(old) }
        let directory = temp.path("a/b/out")
        let store = PhotoStore(directory: directory)
        let saved = try store.save(jpeg: [0xFF, 0xD8, 0xFF, 0xD9], report: Array("{}\n".utf8), time: time)
        XCTAssertEqual(
            saved,
            SavedPhoto(
                photoPath: directory + "/facecap-20261130-005320.jpg",
                reportPath: directory + "/facecap-20261130-005320.json"))
        XCTAssertEqual(mode(saved.photoPath), 0o600)
        XCTAssertEqual(mode(saved.reportPath), 0o600)
        for folder in ["a", "a/b", "a/b/out"] { XCTAssertEqual(mode(temp.path(folder)), 0o700, folder) }
        XCTAssertEqual(FileManager.default.contents(atPath: saved.photoPath), Data([0xFF, 0xD8, 0xFF, 0xD9]))
        XCTAssertEqual(listing(directory), ["facecap-20261130-005320.jpg", "facecap-20261130-005320.json"])
        // The verdict is written into the report later, atomically, still 0600.
        try store.replaceReport(of: saved, with: Array("{\"validation\":{}}\n".utf8))
        XCTAssertEqual(FileManager.default.contents(atPath: saved.reportPath), Data("{\"validation\":{}}\n".utf8))
        XCTAssertEqual(mode(saved.reportPath), 0o600)
        XCTAssertEqual(listing(directory).count, 2)
        XCTAssertEqual(PhotoStore.timestamp(time: time), "2026-11-30T00:53:20+00:00")
        setenv("TZ", "CET-1", 1)
        tzset()
        XCTAssertEqual(PhotoStore.stem(time: time), "facecap-20261130-015320", "local time")
        XCTAssertEqual(PhotoStore.timestamp(time: time), "2026-11-30T01:53:20+01:00")
    }

    func testTheSameSecondGetsASuffixAndNothingIsOverwritten() throws {
        let directory = temp.path("out")
        let store = PhotoStore(directory: directory)
        var names: [String] = []
        for index in 1...3 {
            let saved = try store.save(jpeg: [UInt8(index)], report: [UInt8(index)], time: time)
            names.append((saved.photoPath as NSString).lastPathComponent)
        }
        XCTAssertEqual(
            names,
            [
                "facecap-20261130-005320.jpg", "facecap-20261130-005320-2.jpg",
                "facecap-20261130-005320-3.jpg",
            ])
        // A report left without its photo still takes its stem: the pair stays a pair.
        _ = try temp.write("out/facecap-20261130-005320-4.json", [9])
        let fifth = try store.save(jpeg: [5], report: [5], time: time)
        XCTAssertEqual((fifth.reportPath as NSString).lastPathComponent, "facecap-20261130-005320-5.json")
        XCTAssertEqual(FileManager.default.contents(atPath: directory + "/facecap-20261130-005320.jpg"), Data([1]))
        XCTAssertEqual(FileManager.default.contents(atPath: directory + "/facecap-20261130-005320-4.json"), Data([9]))
        // An existing folder is used as it is (its mode is the person's business).
        chmod(directory, 0o755)
        _ = try store.save(jpeg: [6], report: [6], time: time + 1)
        XCTAssertEqual(mode(directory), 0o755)
    }

    func testAFileInTheWayIsAClearError() throws {
        _ = try temp.write("out", [1])
        XCTAssertThrowsError(try PhotoStore(directory: temp.path("out")).save(jpeg: [1], report: [1], time: time)) {
            let error = $0 as? OutputFileError
            XCTAssertEqual(error?.problem, .notADirectory)
            XCTAssertEqual(
                error?.message,
                temp.path("out")
                    + ": is a file, not a folder; move it away or choose another folder with --output")
            XCTAssertEqual(error?.exitCode, .failure)
        }
        XCTAssertThrowsError(try PhotoStore(directory: temp.path("out/sub")).save(jpeg: [1], report: [1], time: time)) {
            XCTAssertEqual(($0 as? OutputFileError)?.problem, .notADirectory)
            XCTAssertEqual(($0 as? OutputFileError)?.path, temp.path("out"))
        }
        XCTAssertEqual(listing(temp.url.path), ["out"])
    }

    func testAReadOnlyFolderIsAClearErrorAndLeavesNothing() throws {
        let photo = try ValidationFixtures.photo()
        let directory: String
        let expected: OutputFileError.Problem
        if getuid() == 0, let mounted = try mountTmpfs(temp.path("ro"), options: "size=64k,mode=0700,ro") {
            directory = mounted
            expected = .readOnlyFileSystem
        } else {
            // Not root: permission bits apply.
            directory = temp.path("locked")
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: false)
            chmod(directory, 0o500)
            expected = .permissionDenied
        }
        defer { chmod(directory, 0o700) }
        for target in [directory, directory + "/new/folder"] {
            XCTAssertThrowsError(
                try PhotoStore(directory: target).save(
                    jpeg: photo.jpeg, report: photo.reportJSON,
                    time: time)
            ) {
                let error = $0 as? OutputFileError
                XCTAssertEqual(error?.problem, expected, target)
                XCTAssertTrue(
                    error?.message.hasSuffix(
                        expected == .readOnlyFileSystem
                            ? "the file system is read-only; choose another folder"
                            : "permission denied; choose a folder you can write to") ?? false)
            }
        }
        XCTAssertEqual(listing(directory), [])
    }

    func testAFullDiskIsAClearErrorLeavesNoPartialFileAndTheSaveCanBeRetried() throws {
        let directory: String
        let limit: Int?
        if let mounted = try mountTmpfs(temp.path("small"), options: "size=64k,mode=0700") {
            directory = mounted
            limit = nil
        } else {
            directory = temp.path("small")
            limit = 64 * 1024
        }
        func withLimit(_ body: () throws -> Void) throws {
            if let limit { try withFileSizeLimit(limit, body) } else { try body() }
        }
        let store = PhotoStore(directory: directory)
        let big = try ValidationFixtures.photo(width: 400, height: 300, noise: true)
        XCTAssertGreaterThan(big.jpeg.count, 100 * 1024)
        try withLimit {
            XCTAssertThrowsError(try store.save(jpeg: big.jpeg, report: big.reportJSON, time: time)) {
                let error = $0 as? OutputFileError
                XCTAssertEqual(error?.problem, .diskFull)
                let fix = "the disk is full (or over quota); free some space and try again"
                XCTAssertTrue(error?.message.hasSuffix(fix) ?? false)
            }
        }
        XCTAssertEqual(listing(directory), [], "no partial photo, no temporary file")
        // The photo fits but its report does not: the photo is taken back, no half pair stays.
        let small = try ValidationFixtures.photo()
        let hugeReport = [UInt8](repeating: 0x20, count: 100 * 1024)
        try withLimit {
            XCTAssertThrowsError(try store.save(jpeg: small.jpeg, report: hugeReport, time: time)) {
                XCTAssertEqual(($0 as? OutputFileError)?.problem, .diskFull)
            }
        }
        XCTAssertEqual(listing(directory), [])
        // Once there is room (here: a smaller report), the same photo kept in memory saves.
        let saved = try store.save(jpeg: small.jpeg, report: small.reportJSON, time: time)
        XCTAssertEqual(listing(directory), ["facecap-20261130-005320.jpg", "facecap-20261130-005320.json"])
        XCTAssertEqual(FileManager.default.contents(atPath: saved.photoPath), Data(small.jpeg))
    }

    func testNoReplaceWritesRefuseAnExistingFile() throws {
        let path = try temp.write("taken.jpg", [1, 2])
        XCTAssertThrowsError(try AtomicFile.write([3], to: path, replace: false)) {
            XCTAssertEqual(($0 as? OutputFileError)?.problem, .alreadyExists)
        }
        XCTAssertEqual(FileManager.default.contents(atPath: path), Data([1, 2]))
        XCTAssertEqual(listing(temp.url.path), ["taken.jpg"])
        try AtomicFile.write([4], to: temp.path("free.jpg"), replace: false)
        XCTAssertEqual(FileManager.default.contents(atPath: temp.path("free.jpg")), Data([4]))
    }

    /// The data reaches the disk before the name does (mutation audit E1: nothing else in the suite sees an
    /// fsync): the temporary file is written, fsynced and closed before link(2) or rename(2) gives it the
    /// name, and the folder is fsynced after, for both kinds of write.
    func testTheFileIsFsyncedBeforeItTakesItsNameAndTheFolderAfter() throws {
        for replace in [true, false] {
            let log = CallLog()
            let path = temp.path(replace ? "replaced.json" : "kept.jpg")
            try AtomicFile.write([1, 2, 3], to: path, replace: replace, calls: log.recording(.system))
            let steps = log.steps
            let temporary = try XCTUnwrap(steps.first?.split(separator: " ").last.map(String.init))
            let fileFD = "fd\(log.fds[0])", folderFD = "fd\(log.fds[1])"
            let place =
                replace ? ["rename \(temporary) \(path)"] : ["link \(temporary) \(path)", "unlink \(temporary)"]
            XCTAssertEqual(
                steps,
                ["open \(temporary)", "write \(fileFD) 3", "fsync \(fileFD)", "close \(fileFD)"] + place
                    + ["open \(temp.url.path)", "fsync \(folderFD)", "close \(folderFD)"],
                "replace: \(replace)")
            XCTAssertEqual(FileManager.default.contents(atPath: path), Data([1, 2, 3]))
        }
    }

    /// An fsync that fails (EIO: the disk gave up) is an error, the temporary file is removed and the name
    /// never appears: a photo reported saved is on the disk.
    func testAFailedFsyncIsAnErrorAndLeavesNothingBehind() throws {
        for replace in [true, false] {
            var calls = FileCalls.system
            calls.fsync = { _ in
                errno = EIO
                return -1
            }
            let path = temp.path("photo.jpg")
            XCTAssertThrowsError(try AtomicFile.write([9, 9], to: path, replace: replace, calls: calls)) {
                XCTAssertEqual(($0 as? OutputFileError)?.problem, OutputFileError.problem(errno: EIO))
            }
            XCTAssertEqual(listing(temp.url.path), [], "replace: \(replace): no photo, no temporary file")
        }
    }
}

/// Records the file calls `AtomicFile` makes, in order, passing each on to the real one.
private final class CallLog: @unchecked Sendable {
    private let lock = NSLock()
    private var recorded: [String] = []
    private var opened: [Int32] = []
    var steps: [String] { lock.withLock { recorded } }
    var fds: [Int32] { lock.withLock { opened } }

    private func note(_ step: String) { lock.withLock { recorded.append(step) } }

    func recording(_ real: FileCalls) -> FileCalls {
        FileCalls(
            open: { path, flags, mode in
                let fd = real.open(path, flags, mode)
                self.note("open \(path)")
                self.lock.withLock { self.opened.append(fd) }
                return fd
            },
            write: { fd, bytes in
                self.note("write fd\(fd) \(bytes.count)")
                return real.write(fd, bytes)
            },
            fsync: { fd in
                self.note("fsync fd\(fd)")
                return real.fsync(fd)
            },
            close: { fd in
                self.note("close fd\(fd)")
                return real.close(fd)
            },
            rename: { from, to in
                self.note("rename \(from) \(to)")
                return real.rename(from, to)
            },
            link: { from, to in
                self.note("link \(from) \(to)")
                return real.link(from, to)
            },
            unlink: { path in
                self.note("unlink \(path)")
                return real.unlink(path)
            })
    }
}
