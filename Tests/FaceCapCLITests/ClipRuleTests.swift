import Foundation
import XCTest

/// One rule for clips, the same in `facecap analyze` and in the wizard (README, "Clips"): a clip plays up to its
/// last whole frame; a clip without a whole frame is not a clip (exit 66).
final class ClipRuleTests: ScratchDirectoryTestCase {
    private func wizard(_ clip: String) throws -> ProcessResult {
        try runFacecap(
            ["--plain", "--no-tutorial", "--input", clip, "--output", directory.appendingPathComponent("out").path],
            stdin: Data(), timeout: 60)
    }

    func testAHeaderOnlyClipIsExit66EverywhereWithTheSameSentence() throws {
        let clip = try write("header.y4m", TestClips.empty(frames: 0))
        let analyze = try runFacecap(["analyze", clip])
        let json = try runFacecap(["analyze", "--json", clip])
        let replay = try wizard(clip)
        let sentence =
            "facecap: \(clip): damaged or invalid (the clip has a header but no frames); export or record it again\n"
        for (name, result) in [("analyze", analyze), ("analyze --json", json), ("wizard", replay)] {
            XCTAssertEqual(result.status, 66, "\(name): \(result.stderr)")
            XCTAssertEqual(result.stderr, sentence, name)
        }
        XCTAssertEqual(json.stdout, "", "no frame, no JSON line")
    }

    func testACutClipPlaysUpToItsLastWholeFrameEverywhere() throws {
        // Three frames, the third cut short: two whole frames.
        let clip = try write("cut.y4m", TestClips.empty(frames: 3).dropLast(1000))
        let json = try runFacecap(["analyze", "--json", clip])
        XCTAssertEqual(json.status, 0, json.stderr)
        XCTAssertEqual(try jsonObjects(json.stdout).compactMap { $0["frame"] as? Int }, [0, 1])
        XCTAssertEqual(
            json.stderr,
            "facecap: warning: \(clip): frame 2 is cut short by the end of the file; "
                + "analysed the 2 whole frames before it\n")

        let text = try runFacecap(["analyze", clip])
        XCTAssertEqual(text.status, 0, text.stderr)
        XCTAssertTrue(text.stdout.hasSuffix("\(clip): 2 frames, no auto capture\n"), text.stdout)

        // The wizard plays the same two frames; the end of a clip without --loop is the camera-lost path (exit 1).
        let replay = try wizard(clip)
        XCTAssertEqual(replay.status, 1, replay.stderr)
        XCTAssertTrue(
            replay.stderr.contains("the clip ended after 2 frames (its last frame is incomplete)"), replay.stderr)
    }

    func testOneFrameIsSingular() throws {
        let clip = try write("one.y4m", TestClips.empty(frames: 1))
        let text = try runFacecap(["analyze", clip])
        XCTAssertEqual(text.status, 0, text.stderr)
        XCTAssertTrue(text.stdout.hasSuffix("\(clip): 1 frame, no auto capture\n"), text.stdout)
        let replay = try wizard(clip)
        XCTAssertTrue(replay.stderr.contains("the clip ended after 1 frame;"), replay.stderr)
    }
}
