import Foundation
import XCTest

/// The full-screen wizard in a real terminal (tmux), driven by clips built from the fixture photos: what a
/// person sees, the keys they press, resizing, and a terminal left as it was found.
final class WizardTerminalTests: ScratchDirectoryTestCase {
    /// Runs facecap with `arguments` in a pane; the shell records the terminal settings before and after, and
    /// the exit status last (renamed into place), so a test that has the status has the settings too.
    /// The shell stays on after facecap (a dead pane loses its screen in tmux), so what facecap printed last
    /// can still be read.
    private func start(
        _ arguments: [String], columns: Int = 100, rows: Int = 32,
        environment: String = "LC_ALL=C.UTF-8"
    ) throws -> TmuxSession {
        let binary = try facecapBinary().path
        let quoted = ([binary] + arguments).map { "'" + $0 + "'" }.joined(separator: " ")
        let command =
            "cd '\(directory.path)' && stty -a > stty.before; "
            + "env -u NO_COLOR -u COLORTERM \(environment) TERM=xterm-256color \(quoted); "
            + "code=$?; stty -a > stty.after; echo $code > status.new; mv status.new status; exec sleep 600"
        return try TmuxSession(command, columns: columns, rows: rows)
    }

    private func status(timeout: TimeInterval = 30) -> Int? {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if let text = try? String(contentsOfFile: path("status"), encoding: .utf8),
                let code = Int(text.trimmingCharacters(in: .whitespacesAndNewlines))
            {
                return code
            }
            Thread.sleep(forTimeInterval: 0.1)
        }
        return nil
    }

    private func assertTerminalRestored(_ tmux: TmuxSession, file: StaticString = #filePath, line: UInt = #line) throws
    {
        XCTAssertFalse(tmux.alternateScreen, "the alternate screen was left on", file: file, line: line)
        // The modes, not the size: a test that resizes the pane leaves it at its new size.
        func modes(_ name: String) throws -> String {
            try String(contentsOfFile: path(name), encoding: .utf8)
                .replacingOccurrences(of: #"rows \d+; columns \d+; "#, with: "", options: .regularExpression)
        }
        XCTAssertEqual(
            try modes("stty.before"), try modes("stty.after"), "stty -a differs after facecap",
            file: file, line: line)
    }

    private func events() throws -> [[String: Any]] {
        try jsonObjects(try String(contentsOfFile: path("events.jsonl"), encoding: .utf8))
    }

    func testAFaceThatApproachesAndHoldsIsAcceptedAndTheProgramEndsByItself() throws {
        let clip = try write("approach.y4m", TestClips.approachAndHold(frames: 90))
        let tmux = try start([
            "--no-tutorial", "--input", clip, "--loop", "--output", "out", "--events", "events.jsonl",
        ])
        XCTAssertTrue(tmux.waitFor("Taking your selfie"), tmux.screen())
        XCTAssertTrue(tmux.waitFor("Move closer"), tmux.screen())
        XCTAssertTrue(tmux.screen().contains("▀"), "the live preview is drawn with half blocks: " + tmux.screen())
        XCTAssertTrue(tmux.screen().contains("Manual capture in"), tmux.screen())
        XCTAssertTrue(tmux.waitFor("Selfie accepted"), tmux.screen())
        XCTAssertTrue(tmux.screen().contains("Saved to out/facecap-"), tmux.screen())
        XCTAssertTrue(tmux.screen().contains("Continuing in"), tmux.screen())
        XCTAssertEqual(status(), 0, "Success moves on by itself")
        XCTAssertTrue(
            tmux.waitFor("facecap: photo saved: out/facecap-"),
            "where the photo went, after the screen closes: " + tmux.screen())
        try assertTerminalRestored(tmux)
        let screens = try events().compactMap { $0["screen"] as? String }
        XCTAssertEqual(screens, ["capture", "uploading", "success"])
    }

    func testTutorialAndCameraQuestionThenQuitRestoresTheTerminal() throws {
        let clip = try write("empty.y4m", TestClips.empty(frames: 30))
        let tmux = try start(["--input", clip, "--loop", "--output", "out"])
        XCTAssertTrue(tmux.waitFor("Take your selfie"), tmux.screen())
        XCTAssertTrue(tmux.screen().contains("Keep a neutral expression"), tmux.screen())
        XCTAssertTrue(tmux.screen().contains("(o)"), "the tutorial's drawing of a face")
        tmux.send("?")
        XCTAssertTrue(tmux.waitFor("Directions are your own"), "the help overlay: " + tmux.screen())
        tmux.send("Enter")
        XCTAssertTrue(tmux.waitFor("Face the camera"), tmux.screen())
        tmux.send("Enter")
        XCTAssertTrue(tmux.waitFor("facecap replays your clip"), tmux.screen())
        XCTAssertTrue(tmux.text.contains("never saved or sent"), tmux.screen())
        tmux.send("Enter")
        XCTAssertTrue(tmux.waitFor("Position your face in the oval"), tmux.screen())
        tmux.send("q")
        XCTAssertEqual(status(), 130)
        try assertTerminalRestored(tmux)
    }

    func testSIGTERMAndSIGHUPRestoreTheTerminalAndExit130() throws {
        for (name, number) in [("SIGTERM", SIGTERM), ("SIGHUP", SIGHUP)] {
            try? FileManager.default.removeItem(atPath: path("status"))
            let clip = try write("empty-\(name).y4m", TestClips.empty(frames: 30))
            let tmux = try start(["--no-tutorial", "--input", clip, "--loop", "--output", "out"])
            XCTAssertTrue(tmux.waitFor("Position your face in the oval"), tmux.screen())
            XCTAssertTrue(tmux.alternateScreen, "the wizard is on the alternate screen")
            // The facecap process is the one replaying this test's own clip (the pane's shell has the same
            // words in its command line, after its own name).
            let binary = NSRegularExpression.escapedPattern(for: try facecapBinary().path)
            let pgrep = Process()
            pgrep.executableURL = URL(fileURLWithPath: "/usr/bin/pgrep")
            pgrep.arguments = ["-f", "--", "^\(binary) .*\(NSRegularExpression.escapedPattern(for: clip))"]
            let output = Pipe()
            pgrep.standardOutput = output
            try pgrep.run()
            pgrep.waitUntilExit()
            let pids = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
                .split(separator: "\n").compactMap { pid_t($0) }
            XCTAssertEqual(pids.count, 1, "\(name): one facecap replaying the clip: \(pids)")
            guard let pid = pids.first else { continue }
            kill(pid, number)
            XCTAssertEqual(status(timeout: 120), 130, "\(name)")
            try assertTerminalRestored(tmux)
        }
    }

    func testDecliningTheCameraShowsWhatIsLeft() throws {
        let clip = try write("empty.y4m", TestClips.empty(frames: 30))
        let tmux = try start(["--input", clip, "--loop", "--output", "out"])
        XCTAssertTrue(tmux.waitFor("Take your selfie"), tmux.screen())
        tmux.send("Enter")
        // A replayed clip is no camera: the words say what is replayed, and offer neither another camera nor a clip.
        XCTAssertTrue(tmux.waitFor("facecap replays your clip"), tmux.screen())
        tmux.send("q")
        XCTAssertTrue(tmux.waitFor("The clip was not replayed"), tmux.screen())
        XCTAssertFalse(tmux.screen().contains("facecap --input clip.y4m"), tmux.screen())
        XCTAssertFalse(tmux.screen().lowercased().contains("camera"), tmux.screen())
        tmux.send("r")
        XCTAssertTrue(tmux.waitFor("facecap replays your clip"), "r asks again: " + tmux.screen())
        tmux.send("Enter")
        XCTAssertTrue(tmux.waitFor("Taking your selfie"), "and Enter turns the camera on: " + tmux.screen())
        tmux.send("Escape")
        XCTAssertEqual(status(), 130)
        try assertTerminalRestored(tmux)
    }

    func testADarkClipOffersManualCaptureAndSpaceTakesThePhoto() throws {
        let clip = try write("dark.y4m", TestClips.sergey(frames: 30, gain: 0.2) { _ in 0.38 })
        let tmux = try start([
            "--no-tutorial", "--input", clip, "--loop", "--manual-after", "1", "--attempts", "1",
            "--output", "out", "--events", "events.jsonl",
        ])
        XCTAssertTrue(tmux.waitFor("Too dark — find more light"), tmux.screen())
        XCTAssertTrue(tmux.waitFor("Press SPACE to take the photo"), tmux.screen())
        XCTAssertTrue(tmux.screen().contains("Auto capture did not finish in 1 s"), tmux.screen())
        tmux.send("Space")
        XCTAssertTrue(tmux.waitFor("Sent for manual review"), tmux.screen())
        XCTAssertTrue(tmux.text.contains("submitted for review"), tmux.screen())
        tmux.send("Enter")
        XCTAssertEqual(status(), 3)
        try assertTerminalRestored(tmux)
        let log = try events()
        XCTAssertEqual(log.first { $0["event"] as? String == "captured" }?["mode"] as? String, "manual")
        let validation = try XCTUnwrap(log.first { $0["event"] as? String == "validation" })
        XCTAssertEqual(validation["reasons"] as? [String], ["tooDark"], "refused for the darkness the screen showed")
    }

    func testResizingTooSmallAndBackRelaysOutTheScreen() throws {
        let clip = try write("approach.y4m", TestClips.sergey(frames: 60) { i in 0.2 + 0.001 * Double(i % 30) })
        let tmux = try start([
            "--no-tutorial", "--input", clip, "--loop", "--output", "out", "--events", "events.jsonl",
        ])
        XCTAssertTrue(tmux.waitFor("Taking your selfie"), tmux.screen())
        tmux.resize(columns: 40, rows: 12)
        XCTAssertTrue(tmux.waitFor("Terminal too small"), tmux.screen())
        XCTAssertTrue(tmux.screen().contains("40×12"), tmux.screen())
        tmux.resize(columns: 100, rows: 32)
        XCTAssertTrue(tmux.waitFor("Taking your selfie"), tmux.screen())
        XCTAssertTrue(tmux.waitFor("Move closer"), tmux.screen())
        tmux.resize(columns: 200, rows: 60)
        XCTAssertTrue(tmux.waitFor("Move closer"), tmux.screen())
        tmux.send("q")
        XCTAssertEqual(status(), 130)
        try assertTerminalRestored(tmux)
        let screens = try events().compactMap { $0["screen"] as? String }
        XCTAssertEqual(screens, ["capture", "terminalTooSmall", "capture"])
    }

    /// Ctrl-Z gives the terminal back as it was found; `fg` brings the wizard back, drawn again. Run from
    /// an interactive bash: a shell without job control (sh -c) leaves nobody to resume a stopped program,
    /// and the kernel ignores Ctrl-Z in such an orphaned process group (facecap then simply carries on).
    func testSuspendingGivesTheTerminalBackAndFgRedraws() throws {
        let clip = try write("empty.y4m", TestClips.empty(frames: 30))
        let binary = try facecapBinary().path
        let tmux = try TmuxSession("cd '\(directory.path)' && exec bash --norc --noprofile -i")
        XCTAssertTrue(tmux.waitFor("bash-"), "the prompt: " + tmux.screen())
        // facecap alone on its command line, so that bash's job is facecap itself (a subshell around it would be
        // reported stopped before facecap has given the terminal back); its status is fg's, written after q.
        tmux.send("stty -a > stty.before", "Enter")
        tmux.send(
            "env -u NO_COLOR LC_ALL=C.UTF-8 TERM=xterm-256color '\(binary)' "
                + "--no-tutorial --input '\(clip)' --loop --output out", "Enter")
        XCTAssertTrue(tmux.waitFor("Position your face in the oval"), tmux.screen())
        tmux.send("C-z")
        XCTAssertTrue(tmux.waitFor("Stopped"), "bash reports the job stopped: " + tmux.screen())
        XCTAssertFalse(tmux.alternateScreen, "suspended, the main screen is back")
        tmux.send("stty -a > stty.suspended", "Enter")
        tmux.send("fg", "Enter")
        XCTAssertTrue(tmux.waitFor("Position your face in the oval"), "redrawn after fg: " + tmux.screen())
        XCTAssertTrue(tmux.alternateScreen)
        tmux.send("q")
        // Typed only once facecap has ended, so it does not read the line as keys.
        let closing = Date().addingTimeInterval(10)
        while tmux.alternateScreen && Date() < closing { Thread.sleep(forTimeInterval: 0.05) }
        Thread.sleep(forTimeInterval: 0.2)
        tmux.send("code=$?; stty -a > stty.after; echo $code > status.new; mv status.new status", "Enter")
        XCTAssertEqual(status(), 130)
        let before = try String(contentsOfFile: path("stty.before"), encoding: .utf8)
        XCTAssertEqual(
            try String(contentsOfFile: path("stty.suspended"), encoding: .utf8), before,
            "the terminal as found while facecap is stopped")
        XCTAssertEqual(try String(contentsOfFile: path("stty.after"), encoding: .utf8), before)
        XCTAssertFalse(tmux.alternateScreen)
    }

    /// --plain from a terminal: arrow keys (escape sequences) do not quit, q does; in the background it
    /// runs on instead of stopping for the terminal (SIGTTOU).
    func testPlainModeIgnoresArrowKeysAndRunsInTheBackground() throws {
        let clip = try write("empty.y4m", TestClips.empty(frames: 30))
        let binary = try facecapBinary().path
        let tmux = try TmuxSession("cd '\(directory.path)' && exec bash --norc --noprofile -i")
        XCTAssertTrue(tmux.waitFor("bash-"), "the prompt: " + tmux.screen())
        let command = "'\(binary)' --plain --no-tutorial --input '\(clip)' --loop --output out"
        tmux.send("\(command) --events fg.jsonl", "Enter")
        XCTAssertTrue(tmux.waitFor("[capture] Position your face in the oval"), tmux.screen())
        tmux.send("Up", "Down", "F5", "Escape")
        Thread.sleep(forTimeInterval: 1)
        XCTAssertFalse(
            try String(contentsOfFile: path("fg.jsonl"), encoding: .utf8).contains("\"exit\""),
            "arrows, F5 and Esc do not end plain mode")
        tmux.send("q")
        let ended = Date().addingTimeInterval(10)
        while !((try? String(contentsOfFile: path("fg.jsonl"), encoding: .utf8))?.contains("\"exit\"") ?? false),
            Date() < ended
        { Thread.sleep(forTimeInterval: 0.1) }
        XCTAssertTrue(try String(contentsOfFile: path("fg.jsonl"), encoding: .utf8).contains(#""code":130"#))

        tmux.send("\(command) --events bg.jsonl > bg.log 2>&1 & echo $! > bg.pid", "Enter")
        let started = Date().addingTimeInterval(20)
        while !((try? String(contentsOfFile: path("bg.log"), encoding: .utf8))?.contains("[capture]") ?? false),
            Date() < started
        { Thread.sleep(forTimeInterval: 0.1) }
        XCTAssertTrue(try String(contentsOfFile: path("bg.log"), encoding: .utf8).contains("[capture]"))
        let pid = try XCTUnwrap(
            pid_t(
                try String(contentsOfFile: path("bg.pid"), encoding: .utf8)
                    .trimmingCharacters(in: .whitespacesAndNewlines)))
        Thread.sleep(forTimeInterval: 1)
        let stat = try String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)
        XCTAssertFalse(stat.contains(") T "), "not stopped for the terminal: " + stat)
        kill(pid, SIGINT)
        let stopped = Date().addingTimeInterval(10)
        while !((try? String(contentsOfFile: path("bg.jsonl"), encoding: .utf8))?.contains("\"exit\"") ?? false),
            Date() < stopped
        { Thread.sleep(forTimeInterval: 0.1) }
        XCTAssertTrue(try String(contentsOfFile: path("bg.jsonl"), encoding: .utf8).contains(#""code":130"#))
    }

    /// Also with NO_COLOR in the C locale: no colour and no UTF-8, so the preview and the oval are drawn in ASCII.
    func testAClipWithNoFaceIsNeverCaptured() throws {
        let clip = try write("empty.y4m", TestClips.empty(frames: 30))
        let tmux = try start(
            ["--no-tutorial", "--input", clip, "--loop", "--output", "out", "--events", "events.jsonl"],
            environment: "LC_ALL=C NO_COLOR=1")
        XCTAssertTrue(tmux.waitFor("Position your face in the oval"), tmux.screen())
        XCTAssertFalse(tmux.screen().contains("▀"), "no half blocks without colour or UTF-8: " + tmux.screen())
        // The outline is dashed while no face is ready, so count its letters rather than look for a run of them.
        let ovalRows = tmux.screen().split(separator: "\n").filter { $0.contains("o") }
        XCTAssertGreaterThan(ovalRows.count, 10, "the oval in ASCII: " + tmux.screen())
        Thread.sleep(forTimeInterval: 3)
        XCTAssertTrue(tmux.screen().contains("Position your face in the oval"), tmux.screen())
        tmux.send("C-c")
        XCTAssertEqual(status(), 130)
        try assertTerminalRestored(tmux)
        XCTAssertFalse(try events().contains { $0["event"] as? String == "captured" })
    }
}
