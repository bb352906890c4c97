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
        TestClips.sergey(
            frames: frames, width: { _ in 0.36 }, x: { i in 0.5 + 0.16 * sin(2 * Double.pi * Double(i) / 86) })
    }

    /// Decided by facecap's own clock and counts, not by when lines reach this test: the run goes on until the
    /// guidance changed 16 times (however slowly a loaded machine plays the clip), and the lines said are at most
    /// one a second of the run as facecap timed it (its events' `t`). The spacing of single lines is the
    /// announcer's unit tests' business (PlainAnnouncerTests, with the times given).
    func testAMovingFaceGetsAtMostALineASecondAndHintsSayNothingAlone() throws {
        let clip = try write("sway.y4m", Self.sway())
        let events = path("events.jsonl")
        let live = try LiveFacecap(
            [
                "--plain", "--no-tutorial", "--input", clip, "--loop", "--manual-after", "60",
                "--output", path("out"), "--events", events,
            ],
            environment: environment(locale: "C.UTF-8"))
        XCTAssertTrue(live.waitFor("[capture]", timeout: 120), live.stdout + live.stderr)
        func guidance() -> [[String: Any]] {
            let text = (try? String(contentsOfFile: events, encoding: .utf8)) ?? ""
            // The last line may be half written: only whole lines are read.
            let lines = text.split(separator: "\n").dropLast(text.hasSuffix("\n") ? 0 : 1)
            let objects = (try? jsonObjects(lines.joined(separator: "\n"))) ?? []
            return objects.filter { $0["event"] as? String == "guidance" }
        }
        // The time-out only bounds a hang: the clip loops, and the face never stops moving.
        let end = Date().addingTimeInterval(300)
        while guidance().count < 16, Date() < end { Thread.sleep(forTimeInterval: 0.1) }
        live.send("quit")
        XCTAssertEqual(live.finish(timeout: 120), 130, live.stdout + live.stderr)
        let log = try jsonObjects(try String(contentsOfFile: events, encoding: .utf8))
        let changes = log.filter { $0["event"] as? String == "guidance" }
        let capture = live.stdout.split(separator: "\n").map(String.init).filter { $0.hasPrefix("[capture]") }
        // The face really moves: the guidance changes far more often than lines are said.
        XCTAssertGreaterThanOrEqual(changes.count, 16, "\(changes)")
        XCTAssertGreaterThanOrEqual(capture.count, 3, live.stdout)
        // At most one line a second, by facecap's clock, from the capture screen to the last event of the run; the
        // screen's first line ("Looking for your face…") does not hold back the first guidance, so one more; and a
        // word that stops or turns the person may be said before its second, from a bank of two a new screen
        // starts with (issue 35: PlainAnnouncer), so one more again.
        let times = log.compactMap { $0["t"] as? Double }
        let opened = try XCTUnwrap(log.first { $0["screen"] as? String == "capture" }?["t"] as? Double)
        let span = try XCTUnwrap(times.max()) - opened
        XCTAssertLessThanOrEqual(
            Double(capture.count), span.rounded(.down) + 3,
            "at most one line a second over \(span) s: \(live.stdout)")
        XCTAssertLessThan(capture.count, changes.count, "not a line for every change: \(live.stdout)")
        let withoutHints = capture.map {
            $0.replacingOccurrences(
                of: #" \(also: .*\)$"#, with: "",
                options: .regularExpression)
        }
        for (earlier, later) in zip(withoutHints, withoutHints.dropFirst()) {
            XCTAssertNotEqual(earlier, later, "a line for a change of hints alone: \(live.stdout)")
        }
    }

    func testPunctuationIsASCIIWhenTheLocaleIsNotUTF8() throws {
        let clip = try write("approach.y4m", TestClips.approachAndHold(frames: 90))
        let ascii = try runFacecap(
            ["--plain", "--input", clip, "--output", path("out")], stdin: Data(),
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

        let unicode = try runFacecap(
            ["--plain", "--input", clip, "--output", path("out2")], stdin: Data(),
            environment: environment(locale: "C.UTF-8"), timeout: 60)
        XCTAssertEqual(unicode.status, 0, unicode.stderr)
        XCTAssertTrue(unicode.stdout.contains("[capture] Looking for your face…"), unicode.stdout)
        for line in unicode.stdout.split(separator: "\n") where line.hasPrefix("[capture] Perfect") {
            XCTAssertTrue(line.hasPrefix("[capture] Perfect — hold still"), unicode.stdout)
        }
    }
}
