import Foundation
import XCTest

/// What the wizard checks before anything starts (no tutorial, no camera, no screen): the output folder, the
/// events file, the thresholds, repeated options; and options that have no effect are said to be ignored.
final class PreflightTests: ScratchDirectoryTestCase {
    var clip = ""

    override func setUpWithError() throws {
        try super.setUpWithError()
        clip = path("clip.y4m")
        try TestClips.empty(frames: 3).write(to: URL(fileURLWithPath: clip))
    }

    /// The plain wizard on the clip with `extra` options.
    private func wizard(_ extra: [String]) throws -> ProcessResult {
        try runFacecap(["--plain", "--input", clip] + extra, stdin: Data(), timeout: 60)
    }

    func testAnOutputThatIsAFileOrCannotBeWrittenStopsBeforeAnythingStarts() throws {
        let file = path("a-file")
        XCTAssertTrue(FileManager.default.createFile(atPath: file, contents: Data("x".utf8)))
        let onFile = try wizard(["--output", file])
        XCTAssertEqual(onFile.status, 1)
        XCTAssertEqual(onFile.stdout, "", "nothing started: no tutorial line")
        XCTAssertEqual(
            onFile.stderr,
            "facecap: \(file): is a file, not a folder; move it away or choose another "
                + "folder with --output\n")

        // /proc/1 is a folder nobody, root included, can create files in.
        let unwritable = try wizard(["--output", "/proc/1"])
        XCTAssertEqual(unwritable.status, 1)
        XCTAssertEqual(unwritable.stdout, "")
        XCTAssertTrue(unwritable.stderr.hasPrefix("facecap: /proc/1: "), unwritable.stderr)
        XCTAssertEqual(
            try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted(), ["a-file", "clip.y4m"])
    }

    func testAnEventsFileThatCannotBeCreatedNamesEvents() throws {
        let missing = path("no-such-folder/events.jsonl")
        let result = try wizard(["--events", missing])
        XCTAssertEqual(result.status, 1)
        XCTAssertEqual(result.stdout, "")
        XCTAssertEqual(
            result.stderr,
            "facecap: \(missing): the folder does not exist; create it or choose another "
                + "with --events\n")
    }

    func testThresholdsWithAMinimumAboveTheMaximumAreAUsageError() throws {
        let thresholds = path("t.json")
        try Data("{\"minFaceWidth\": 0.6, \"maxFaceWidth\": 0.4}".utf8).write(to: URL(fileURLWithPath: thresholds))
        let result = try runFacecap(["analyze", "--thresholds", thresholds, clip])
        XCTAssertEqual(result.status, 64)
        XCTAssertEqual(result.stdout, "")
        XCTAssertTrue(
            result.stderr.hasPrefix(
                "facecap: thresholds config: minFaceWidth 0.6 is above maxFaceWidth 0.4, "
                    + "so no face could pass"), result.stderr)
    }

    func testARepeatedOptionIsAUsageErrorEverywhere() throws {
        for arguments in [
            ["--plain", "--input", clip, "--input", clip], ["analyze", "--json", "--json", clip],
            ["record", "--seconds", "1", "--seconds", "2", path("x.y4m")],
        ] {
            let result = try runFacecap(arguments, stdin: Data())
            XCTAssertEqual(result.status, 64, "\(arguments): \(result.stderr)")
            XCTAssertTrue(result.stderr.contains("is given more than once; give each option once"), result.stderr)
        }
    }

    func testSizeAndFpsWithAClipAreSaidToBeIgnored() throws {
        let result = try wizard(["--size", "320x240", "--fps", "15", "--output", path("out")])
        XCTAssertTrue(
            result.stderr.hasPrefix(
                "facecap: warning: --size and --fps ask the camera for a mode; a clip plays "
                    + "at its own size and frame rate, so they are ignored\n"), result.stderr)
        XCTAssertEqual(result.status, 1, "the clip ends without a capture: \(result.stderr)")
    }
}
