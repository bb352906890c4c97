import Foundation
import XCTest

/// SPEC §10: the peak memory of a capture session ≤ 60 MB RSS. The whole session in `--plain` (a face that
/// approaches and holds: auto capture, the built-in validator on the photo, the JPEG and report saved), its peak
/// resident set (VmHWM) read every 10 ms until it ends, as `make bench-wizard` measures the full-screen wizard in
/// tmux (its `capture` run). Not wait4's ru_maxrss: after posix_spawn's vfork, exec records the parent's peak
/// (this test process's) as the child's.
final class WizardMemoryTests: ScratchDirectoryTestCase {
    func testAWholeCaptureSessionPeaksUnderTheMemoryBudget() throws {
        let clip = try write("approach.y4m", TestClips.approachAndHold(frames: 90))
        let run = try spawnMeasuringPeak(
            try facecapBinary().path,
            ["--plain", "--input", clip, "--output", path("out")], log: path("log"))
        let log = String(decoding: FileManager.default.contents(atPath: path("log")) ?? Data(), as: UTF8.self)
        XCTAssertEqual(run.status, 0, log)
        XCTAssertTrue(log.contains("[success]"), "the photo was captured, validated and saved: \(log)")
        let megabytes = Double(run.peakKilobytes) / 1024
        XCTAssertGreaterThan(megabytes, 10, "VmHWM was read")
        if sanitizerSettings.isEmpty {
            // 52 MB when this was written (82 MB before the validator shared the live tracker and the models'
            // bytes were freed after planning).
            XCTAssertLessThanOrEqual(megabytes, 60, "peak RSS of the capture session (SPEC §10: 60 MB)")
        }
        // Under a sanitizer (make test-sanitize) its shadow memory is no measure of facecap's: only that the session
        // ran and was measured (above).
    }

    /// Runs `path` with `arguments` (stdin /dev/null, stdout and stderr to `log`) and waits for it: its exit status
    /// and its peak resident set in kB (the last VmHWM read before it ended). Killed after `timeout` seconds.
    private func spawnMeasuringPeak(_ path: String, _ arguments: [String], log: String, timeout: Double = 90) throws
        -> (status: Int32, peakKilobytes: Int)
    {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, log, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        let argv: [UnsafeMutablePointer<CChar>?] = ([path] + arguments).map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, path, &actions, nil, argv, environ)
        guard spawned == 0 else { throw POSIXError(POSIXErrorCode(rawValue: spawned) ?? .EIO) }
        var status: Int32 = 0
        var peak = 0
        let deadline = Date().addingTimeInterval(timeout)
        // Until it is reaped its /proc entry stays (a zombie has no VmHWM line: the last reading stands).
        while waitpid(pid, &status, WNOHANG) == 0 {
            peak = max(peak, Self.highWaterMark(pid) ?? 0)
            if Date() > deadline {
                kill(pid, SIGKILL)
                _ = waitpid(pid, &status, 0)
                XCTFail("facecap did not end within \(timeout) s")
                break
            }
            usleep(10_000)
        }
        let exited = status & 0x7f == 0
        return (exited ? (status >> 8) & 0xff : -1, peak)
    }

    /// VmHWM of process `pid` in kB, nil once it has ended.
    private static func highWaterMark(_ pid: pid_t) -> Int? {
        // Read to the end: a /proc file's size is 0, so a read sized by it gets nothing.
        guard let handle = FileHandle(forReadingAtPath: "/proc/\(pid)/status") else { return nil }
        defer { try? handle.close() }
        let text = String(decoding: handle.readDataToEndOfFile(), as: UTF8.self)
        guard let line = text.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }) else { return nil }
        let fields = line.split { $0 == " " || $0 == "\t" }  // "VmHWM:", "52216", "kB"
        return fields.count > 1 ? Int(fields[1]) : nil
    }
}
