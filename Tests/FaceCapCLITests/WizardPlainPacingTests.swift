import Foundation
import XCTest

/// `--plain` as a screen reader hears it: a line when the main message changes (hints ride along), at most one
/// a second on a face that keeps moving, and ASCII punctuation when the locale is not UTF-8.
final class WizardPlainPacingTests: ScratchDirectoryTestCase {
    /// The environment of this test run with the locale set to `locale` alone.
    private func environment(locale: String) -> [String: String] {
        var environment = ProcessInfo.processInfo.environment
        for name in ["LC_ALL", "LC_CTYPE", "LC_MESSAGES", "LANGUAGE"] { environment[name] = nil }
        environment["LANG"] = locale
        return environment
    }

    /// sergey swaying left and right as the UX review's sway clip did (a period of 2.9 s), never still long
    /// enough to be captured.
    static func sway(frames: Int = 172) -> Data {
        TestClips.sergey(frames: frames, width: { _ in 0.36 }, x: { i in 0.5 + 0.16 * sin(2 * Double.pi * Double(i) / 86) })
    }

    func testAMovingFaceGetsAtMostALineASecondAndHintsSayNothingAlone() throws {
        let clip = try write("sway.y4m", Self.sway())
        let live = try LiveFacecap(["--plain", "--no-tutorial", "--input", clip, "--loop", "--manual-after", "60",
                                    "--output", path("out"), "--events", path("events.jsonl")],
                                   environment: environment(locale: "C.UTF-8"))
        XCTAssertTrue(live.waitFor("[capture]"), live.stdout + live.stderr)
        // The time each line arrived, read as it comes.
        var arrivals: [(line: String, at: Date)] = []
        let end = Date().addingTimeInterval(8)
        while Date() < end {
            let lines = live.stdout.split(separator: "\n").map(String.init)
            for line in lines.dropFirst(arrivals.count) { arrivals.append((line, Date())) }
            Thread.sleep(forTimeInterval: 0.02)
        }
        live.send("quit")
        XCTAssertEqual(live.finish(timeout: 20), 130, live.stdout + live.stderr)
        let capture = arrivals.filter { $0.line.hasPrefix("[capture]") }
        let changes = try jsonObjects(try String(contentsOfFile: path("events.jsonl"), encoding: .utf8))
            .filter { $0["event"] as? String == "guidance" }
        // The face really moves: the guidance changes far more often than lines are said.
        XCTAssertGreaterThanOrEqual(changes.count, 8, "\(changes)")
        XCTAssertGreaterThanOrEqual(capture.count, 3, live.stdout)
        XCTAssertLessThanOrEqual(capture.count, 10, "at most one line a second: \(live.stdout)")
        // The screen's first line ("Looking for your face…") does not hold back the first guidance.
        for (earlier, later) in zip(capture.dropFirst(), capture.dropFirst(2)) {
            // A second apart as written; read here through a pipe polled every 20 ms on a machine that may be
            // loaded, one line can arrive late and the next on time, so the bound leaves 0.4 s for that.
            XCTAssertGreaterThanOrEqual(later.at.timeIntervalSince(earlier.at), 0.6,
                                        "\(earlier.line) then \(later.line)")
        }
        let withoutHints = capture.map { $0.line.replacingOccurrences(of: #" \(also: .*\)$"#, with: "",
                                                                        options: .regularExpression) }
        for (earlier, later) in zip(withoutHints, withoutHints.dropFirst()) {
            XCTAssertNotEqual(earlier, later, "a line for a change of hints alone: \(live.stdout)")
        }
    }

    func testPunctuationIsASCIIWhenTheLocaleIsNotUTF8() throws {
        let clip = try write("approach.y4m", TestClips.approachAndHold(frames: 90))
        let ascii = try runFacecap(["--plain", "--input", clip, "--output", path("out")], stdin: Data(),
                                   environment: environment(locale: "C"), timeout: 60)
        XCTAssertEqual(ascii.status, 0, ascii.stdout + ascii.stderr)
        // The screen's first line is always said; "Perfect — hold still" only when the ready state outlasts the
        // pacing's second, which a slow run may not give it, so its dash is checked where it was said.
        XCTAssertTrue(ascii.stdout.contains("[capture] Looking for your face..."), ascii.stdout)
        for line in ascii.stdout.split(separator: "\n") where line.hasPrefix("[capture] Perfect") {
            XCTAssertTrue(line.hasPrefix("[capture] Perfect - hold still"), ascii.stdout)
        }
        let outside = ascii.stdout.unicodeScalars.filter { !$0.isASCII }
        XCTAssertEqual(String(String.UnicodeScalarView(outside)), "", ascii.stdout)

        let unicode = try runFacecap(["--plain", "--input", clip, "--output", path("out2")], stdin: Data(),
                                     environment: environment(locale: "C.UTF-8"), timeout: 60)
        XCTAssertEqual(unicode.status, 0, unicode.stderr)
        XCTAssertTrue(unicode.stdout.contains("[capture] Looking for your face…"), unicode.stdout)
        for line in unicode.stdout.split(separator: "\n") where line.hasPrefix("[capture] Perfect") {
            XCTAssertTrue(line.hasPrefix("[capture] Perfect — hold still"), unicode.stdout)
        }
    }
}
