import Foundation
import XCTest

/// The full-screen wizard in German and in Japanese in a real terminal (tmux, 60×20, the smallest size), from
/// catalogues compiled here with a few real translations (the rest falls back to English). German is chosen by
/// LANG=de_DE.UTF-8, a locale this machine has not generated: the words and the drawing must still come through.
final class WizardTerminalLanguageTests: ScratchDirectoryTestCase {
    static let german = [
        ("tutorial.title", "Take your selfie", "Mach dein Selfie"),
        (
            "tutorial.tip.face", "Face the camera with your whole face inside the oval",
            "Schau in die Kamera, dein ganzes Gesicht im Oval"
        ),
        ("key.start", "start", "starten"), ("key.quit", "quit", "beenden"), ("key.help", "help", "Hilfe"),
        ("key.enter", "Enter", "Eingabe"),
    ]
    static let japanese = [
        ("tutorial.title", "Take your selfie", "セルフィーを撮りましょう"),
        (
            "tutorial.tip.face", "Face the camera with your whole face inside the oval",
            "カメラの方を向き、顔全体を楕円の中に収めてください"
        ),
        (
            "tutorial.tip.expression", "Keep a neutral expression, eyes open, mouth closed",
            "自然な表情で、目を開け、口を閉じてください"
        ),
        ("key.start", "start", "開始"), ("key.quit", "quit", "終了"), ("key.help", "help", "ヘルプ"),
    ]

    func catalogue(_ language: String, _ entries: [(String, String, String)]) throws {
        var po = "msgid \"\"\nmsgstr \"Content-Type: text/plain; charset=UTF-8\\n\"\n"
        for (id, english, text) in entries { po += "\nmsgctxt \"\(id)\"\nmsgid \"\(english)\"\nmsgstr \"\(text)\"\n" }
        try po.write(toFile: path("\(language).po"), atomically: true, encoding: .utf8)
        let folder = path("locale/\(language)/LC_MESSAGES")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let result = try runProgram(
            "/usr/bin/msgfmt", ["--check", "-o", folder + "/facecap.mo", path("\(language).po")])
        XCTAssertEqual(result.status, 0, result.stderr)
    }

    /// The sanitizers' settings (`sanitizerSettings`), kept through `env -i`.
    private var sanitizerWords: String {
        sanitizerSettings.sorted { $0.key < $1.key }.map { "\($0.key)='\($0.value)'" }.joined(separator: " ")
    }

    private func start(_ arguments: [String], environment: String) throws -> TmuxSession {
        let binary = try facecapBinary().path
        let quoted = ([binary] + arguments).map { "'" + $0 + "'" }.joined(separator: " ")
        let command =
            "cd '\(directory.path)' && env -i PATH=/usr/bin:/bin HOME='\(directory.path)' "
            + "FACECAP_MODEL_DIR='\(ProcessInfo.processInfo.environment["FACECAP_MODEL_DIR"] ?? "")' "
            + "FACECAP_LOCALE_DIR='\(path("locale"))' \(sanitizerWords) \(environment) TERM=xterm-256color \(quoted); "
            + "echo $? > status.new; mv status.new status; exec sleep 600"
        return try TmuxSession(command, columns: 60, rows: 20)
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

    /// Cells a captured line takes (CJK and full-width forms two each).
    static func cells(_ line: Substring) -> Int {
        line.unicodeScalars.reduce(0) { total, s in
            let wide =
                (0x1100...0x115F).contains(s.value) || (0x2E80...0xA4CF).contains(s.value)
                || (0xAC00...0xD7A3).contains(s.value) || (0xF900...0xFAFF).contains(s.value)
                || (0xFF00...0xFF60).contains(s.value) || (0xFFE0...0xFFE6).contains(s.value)
            return total + (wide ? 2 : 1)
        }
    }

    func testGermanFromLangWithoutAGeneratedLocale() throws {
        try catalogue("de", Self.german)
        let clip = try write("empty.y4m", TestClips.empty(frames: 30))
        let tmux = try start(["--input", clip, "--loop", "--output", "out"], environment: "LANG=de_DE.UTF-8")
        XCTAssertTrue(tmux.waitFor("Mach dein Selfie"), tmux.screen())
        let screen = tmux.screen()
        XCTAssertTrue(screen.contains("Schau in die Kamera, dein ganzes Gesicht im Oval"), screen)
        XCTAssertTrue(screen.contains("Eingabe") && screen.contains("starten") && screen.contains("beenden"), screen)
        XCTAssertTrue(screen.contains("╭"), "UTF-8 line drawing although de_DE is not generated: " + screen)
        XCTAssertTrue(screen.contains("Keep a neutral expression"), "an untranslated message is English: " + screen)
        tmux.send("q")
        XCTAssertEqual(status(), 130)
    }

    func testJapaneseInDoubleWidthAtTheSmallestSize() throws {
        try catalogue("ja", Self.japanese)
        let clip = try write("empty.y4m", TestClips.empty(frames: 30))
        let tmux = try start(
            ["--input", clip, "--loop", "--output", "out", "--lang", "ja"], environment: "LANG=C.UTF-8")
        XCTAssertTrue(tmux.waitFor("セルフィーを撮りましょう"), tmux.screen())
        let screen = tmux.screen()
        XCTAssertTrue(screen.contains("カメラの方を向き、顔全体を楕円の中に収めてください"), screen)
        XCTAssertTrue(screen.contains("自然な表情で、目を開け、口を閉じてください"), screen)
        XCTAssertTrue(screen.contains("開始") && screen.contains("終了") && screen.contains("ヘルプ"), screen)
        for line in screen.split(separator: "\n") {
            XCTAssertLessThanOrEqual(Self.cells(line), 60, "past the edge: \(line)")
        }
        tmux.send("q")
        XCTAssertEqual(status(), 130)
    }
}
