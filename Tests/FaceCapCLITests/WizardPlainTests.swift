import Foundation
import XCTest

/// The whole wizard in `--plain`, driven by clips built from the fixture photos: exit codes, the lines a
/// person or a log reads, the events a script reads, and the files left behind.
final class WizardPlainTests: ScratchDirectoryTestCase {
    private func events(_ name: String = "events.jsonl") throws -> [[String: Any]] {
        try jsonObjects(String(decoding: try Data(contentsOf: URL(fileURLWithPath: path(name))), as: UTF8.self))
    }

    private func mode(_ path: String) throws -> Int {
        (try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int) ?? -1
    }

    func testAFaceThatApproachesAndHoldsIsCapturedValidatedAndSaved() throws {
        let clip = try write("approach.y4m", TestClips.approachAndHold(frames: 90))
        let result = try runFacecap(
            ["--plain", "--input", clip, "--output", path("out"), "--events", path("events.jsonl")],
            stdin: Data(), timeout: 60)
        XCTAssertEqual(result.status, 0, result.stdout + result.stderr)
        let lines = result.stdout.split(separator: "\n").map(String.init)
        XCTAssertTrue(lines.first?.hasPrefix("[tutorial] Take your selfie: Face the camera") ?? false, result.stdout)
        XCTAssertTrue(lines.contains("[capture] Move closer"), result.stdout)
        // "Perfect — hold still" is not asserted: lines come at most one a second, and on a slow run (a
        // sanitizer build) the capture can follow "Move closer" within that second; the events say `ready`.
        XCTAssertTrue(lines.contains { $0.hasPrefix("[uploading] Checking your photo") }, result.stdout)
        XCTAssertTrue(lines.last?.hasPrefix("[success] Selfie accepted: Saved to ") ?? false, result.stdout)
        XCTAssertEqual(Set(lines).count, lines.count, "one line per change: \(result.stdout)")

        let log = try events()
        let names = log.map { $0["event"] as? String ?? "?" }
        XCTAssertEqual(
            log.compactMap { $0["screen"] as? String },
            ["tutorial", "permissionContext", "capture", "uploading", "success"])
        XCTAssertEqual(names.filter { $0 == "captured" }.count, 1)
        let captured = try XCTUnwrap(log.first { $0["event"] as? String == "captured" })
        XCTAssertEqual(captured["mode"] as? String, "auto")
        XCTAssertEqual(captured["attempt"] as? Int, 1)
        XCTAssertEqual(captured["width"] as? Int, 640)
        XCTAssertEqual(captured["height"] as? Int, 480)
        let validation = try XCTUnwrap(log.first { $0["event"] as? String == "validation" })
        XCTAssertEqual(validation["result"] as? String, "pass")
        XCTAssertEqual(validation["attemptsLeft"] as? Int, 3)
        let guidance = log.filter { $0["event"] as? String == "guidance" }.compactMap { $0["primary"] as? String }
        XCTAssertEqual(guidance.first, "moveCloser")
        XCTAssertEqual(guidance.last, "ready")
        XCTAssertEqual(log.last?["event"] as? String, "exit")
        XCTAssertEqual(log.last?["code"] as? Int, 0)
        let times = log.compactMap { $0["t"] as? Double }
        XCTAssertEqual(times, times.sorted(), "t never goes back")

        let saved = try XCTUnwrap(log.first { $0["event"] as? String == "saved" })
        let photo = try XCTUnwrap(saved["photo"] as? String)
        let report = try XCTUnwrap(saved["report"] as? String)
        XCTAssertTrue(photo.hasSuffix(".jpg") && (photo as NSString).lastPathComponent.hasPrefix("facecap-"), photo)
        XCTAssertEqual(try mode(photo), 0o600)
        XCTAssertEqual(try mode(report), 0o600)
        XCTAssertEqual(try mode(path("out")), 0o700)
        XCTAssertEqual(
            try FileManager.default.contentsOfDirectory(atPath: path("out")).count, 2, "photo and report only")
        XCTAssertTrue(result.stderr.contains("photo saved: \(photo)"), result.stderr)
    }

    func testEventsOnStandardOutputMoveTheLinesToStandardError() throws {
        let clip = try write("approach.y4m", TestClips.approachAndHold(frames: 90))
        let result = try runFacecap(
            [
                "--plain", "--no-tutorial", "--input", clip, "--output", path("out"),
                "--events", "-",
            ], stdin: Data(), timeout: 60)
        XCTAssertEqual(result.status, 0, result.stderr)
        let log = try jsonObjects(result.stdout)
        XCTAssertEqual(log.first?["screen"] as? String, "capture", "--no-tutorial starts at the camera")
        XCTAssertEqual(log.last?["event"] as? String, "exit")
        XCTAssertTrue(result.stderr.contains("[capture] Move closer"), result.stderr)
        XCTAssertTrue(result.stderr.contains("[success] Selfie accepted"), result.stderr)
    }

    func testADarkClipOffersManualCaptureAndACaptureLineTakesThePhoto() throws {
        let clip = try write("dark.y4m", TestClips.sergey(frames: 30, gain: 0.2) { _ in 0.38 })
        let live = try LiveFacecap([
            "--plain", "--no-tutorial", "--input", clip, "--loop", "--manual-after", "1",
            "--attempts", "1", "--output", path("out"), "--events", path("events.jsonl"),
        ])
        XCTAssertTrue(live.waitFor("[capture] Too dark — find more light"), live.stdout + live.stderr)
        XCTAssertTrue(
            live.waitFor("[manualCapture] Press SPACE, or type capture and Enter, to take the photo"),
            live.stdout + live.stderr)
        live.send("capture")
        let status = live.finish()
        XCTAssertEqual(status, 3, "the only attempt failed: manual review\n" + live.stdout + live.stderr)
        let log = try events()
        let captured = try XCTUnwrap(log.first { $0["event"] as? String == "captured" })
        XCTAssertEqual(captured["mode"] as? String, "manual")
        let validation = try XCTUnwrap(log.first { $0["event"] as? String == "validation" })
        XCTAssertEqual(validation["result"] as? String, "manualReview")
        XCTAssertEqual(validation["attemptsLeft"] as? Int, 0)
        XCTAssertTrue((validation["reasons"] as? [String] ?? []).contains("tooDark"), "\(validation)")
        XCTAssertEqual(log.compactMap { $0["screen"] as? String }.suffix(2), ["uploading", "finalError"])
        XCTAssertEqual(log.last?["code"] as? Int, 3)
        XCTAssertTrue(live.stdout.contains("[finalError] Sent for manual review"), live.stdout)
    }

    func testAClipWithNoFaceIsNeverCapturedAndItsEndIsAConnectionError() throws {
        let clip = try write("empty.y4m", TestClips.empty(frames: 45))
        let result = try runFacecap(
            [
                "--plain", "--no-tutorial", "--input", clip, "--output", path("out"),
                "--events", path("events.jsonl"),
            ], stdin: Data(), timeout: 60)
        XCTAssertEqual(result.status, 1, result.stderr)
        XCTAssertTrue(result.stdout.contains("[capture] Position your face in the oval"), result.stdout)
        XCTAssertTrue(result.stderr.contains("the clip ended after 45 frames"), result.stderr)
        let log = try events()
        XCTAssertFalse(log.contains { $0["event"] as? String == "captured" })
        XCTAssertEqual(log.compactMap { $0["screen"] as? String }, ["capture", "connectionError"])
        XCTAssertEqual(log.last?["code"] as? Int, 1)
        let written = (try? FileManager.default.contentsOfDirectory(atPath: path("out"))) ?? []
        XCTAssertEqual(written, [], "nothing is written without a photo")
    }

    func testCtrlCEndsWith130() throws {
        let clip = try write("empty.y4m", TestClips.empty(frames: 30))
        let live = try LiveFacecap([
            "--plain", "--no-tutorial", "--input", clip, "--loop", "--events",
            path("events.jsonl"),
        ])
        XCTAssertTrue(live.waitFor("[capture]"), live.stderr)
        live.signal(SIGINT)
        XCTAssertEqual(live.finish(timeout: 120), 130)
        XCTAssertEqual(try events().last?["code"] as? Int, 130)
    }

    func testAnEmptyLineTakesThePhotoOnceOffered() throws {
        let clip = try write("dark.y4m", TestClips.sergey(frames: 30, gain: 0.2) { _ in 0.38 })
        let live = try LiveFacecap([
            "--plain", "--no-tutorial", "--input", clip, "--loop", "--manual-after", "1",
            "--attempts", "1", "--output", path("out"), "--events", path("events.jsonl"),
        ])
        XCTAssertTrue(live.waitFor("[manualCapture]"), live.stdout + live.stderr)
        live.send("")
        XCTAssertEqual(live.finish(), 3, live.stdout + live.stderr)
        XCTAssertEqual(try events().first { $0["event"] as? String == "captured" }?["mode"] as? String, "manual")
    }

    /// Ctrl-\ (SIGQUIT) ends the run like Ctrl-C: no backtrace, the exit event written.
    func testTheQuitSignalEndsCleanlyWith130() throws {
        let clip = try write("empty.y4m", TestClips.empty(frames: 30))
        let live = try LiveFacecap([
            "--plain", "--no-tutorial", "--input", clip, "--loop", "--events",
            path("events.jsonl"),
        ])
        XCTAssertTrue(live.waitFor("[capture]"), live.stderr)
        live.signal(SIGQUIT)
        XCTAssertEqual(live.finish(timeout: 120), 130)
        XCTAssertEqual(try events().last?["code"] as? Int, 130)
        XCTAssertFalse(live.stderr.contains("crashed"), live.stderr)
    }

    /// `facecap --plain | head -1`: the reader goes away; facecap ends through its normal path (exit event,
    /// exit 130) instead of dying of SIGPIPE.
    func testAReaderThatGoesAwayEndsTheRunCleanly() throws {
        let clip = try write("approach.y4m", TestClips.approachAndHold(frames: 90))
        let binary = try facecapBinary().path
        let script =
            "'\(binary)' --plain --no-tutorial --input '\(clip)' --loop --output '\(path("out"))' "
            + "--events '\(path("events.jsonl"))' < /dev/null | head -1 > '\(path("first"))'; "
            + "echo ${PIPESTATUS[0]} > '\(path("status"))'"
        let result = try runProgram("/bin/bash", ["-c", script], timeout: 60)
        XCTAssertEqual(result.status, 0, result.stderr)
        let status = try String(contentsOfFile: path("status"), encoding: .utf8)
        XCTAssertEqual(status.trimmingCharacters(in: .whitespacesAndNewlines), "130", "not 141, killed by SIGPIPE")
        XCTAssertEqual(try String(contentsOfFile: path("first"), encoding: .utf8), "[capture] Looking for your face…\n")
        let log = try events()
        XCTAssertEqual(log.last?["event"] as? String, "exit")
        XCTAssertEqual(log.last?["code"] as? Int, 130)
    }

    /// Input without line ends costs neither memory nor a core: long lines are dropped as they arrive.
    func testEndlessInputWithoutLineEndsIsDropped() throws {
        let clip = try write("empty.y4m", TestClips.empty(frames: 30))
        let garbage = Data(repeating: 0x41, count: 4 << 20) + Data("\nquit\n".utf8)
        let result = try runFacecap(
            [
                "--plain", "--no-tutorial", "--input", clip, "--loop", "--events",
                path("events.jsonl"),
            ], stdin: garbage, timeout: 120)
        XCTAssertEqual(result.status, 130, "the quit after 4 MB of one line still counts: " + result.stderr)
    }

    func testTheFullScreenWizardNeedsATerminal() throws {
        let clip = try write("empty.y4m", TestClips.empty(frames: 3))
        let result = try runFacecap(["--input", clip])
        XCTAssertEqual(result.status, 64)
        XCTAssertTrue(result.stderr.contains("use --plain"), result.stderr)
        XCTAssertEqual(result.stderr.split(separator: "\n").count, 2, "one line, then the pointer to --help")
    }
}
