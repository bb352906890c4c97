import Foundation
import XCTest

/// The `?` help in a real terminal (tmux): it pauses auto capture, and the capture starts over when it closes.
final class WizardHelpTerminalTests: ScratchDirectoryTestCase {
    private func start(_ arguments: [String], columns: Int = 100, rows: Int = 32) throws -> TmuxSession {
        let binary = try facecapBinary().path
        let quoted = ([binary] + arguments).map { "'" + $0 + "'" }.joined(separator: " ")
        let command =
            "cd '\(directory.path)' && env -u NO_COLOR -u COLORTERM LC_ALL=C.UTF-8 TERM=xterm-256color "
            + "\(quoted); echo $? > status.new; mv status.new status; exec sleep 600"
        return try TmuxSession(command, columns: columns, rows: rows)
    }

    private func events() -> [[String: Any]] {
        (try? jsonObjects((try? String(contentsOfFile: path("events.jsonl"), encoding: .utf8)) ?? "")) ?? []
    }

    /// Four seconds far from the camera ("Move closer": time for `?` to arrive on a loaded machine before the face
    /// comes close), then three held still: a capture on every loop but for the help.
    static func farThenHeld() -> Data {
        TestClips.sergey(frames: 210) { i in i < 120 ? 0.2 : 0.38 }
    }

    func testTheHelpPausesAutoCaptureAndClosingItStartsTheCaptureOver() throws {
        let clip = try write("far-then-held.y4m", Self.farThenHeld())
        let tmux = try start([
            "--no-tutorial", "--input", clip, "--loop", "--output", "out", "--events", "events.jsonl",
        ])
        XCTAssertTrue(tmux.waitFor("Move closer"), tmux.screen())
        tmux.send("?")
        XCTAssertTrue(tmux.waitFor("Directions are your own"), "the help is open: " + tmux.screen())
        let countdown = tmux.screen().range(of: #"Manual capture in \d+ s"#, options: .regularExpression)
            .map { String(tmux.screen()[$0]) }
        // Behind the help the face is held still for three seconds of every seven: any 6.5 s hold at least 2.5 s
        // of it, more than one whole stability window, which was captured before the help paused it.
        Thread.sleep(forTimeInterval: 6.5)
        XCTAssertFalse(events().contains { $0["event"] as? String == "captured" }, "a photo taken behind the help")
        let screen = tmux.screen()
        XCTAssertTrue(screen.contains("Directions are your own"), "the help is still open: " + screen)
        XCTAssertFalse(screen.contains("Selfie accepted"), screen)
        if let countdown {
            XCTAssertTrue(screen.contains(countdown), "the countdown stood still: \(countdown)\n" + screen)
        }
        tmux.send("x")
        XCTAssertTrue(
            tmux.waitFor("Selfie accepted", timeout: 120), "captured once the help is closed: " + tmux.screen())
        XCTAssertFalse(tmux.screen().contains("Directions are your own"), "no help over Success: " + tmux.screen())
        XCTAssertEqual(events().filter { $0["event"] as? String == "captured" }.count, 1)
    }
}
