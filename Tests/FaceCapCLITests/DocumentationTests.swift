import FaceCapCore
import Foundation
import XCTest

/// `--help`, the manual page and the shell completions, which `facecap generate` prints from the same tables.
final class DocumentationTests: XCTestCase {
    static let commands = ["devices", "analyze", "record", "bench", "generate"]

    private func helpTexts() throws -> [(String, String)] {
        var texts = [("facecap --help", try runFacecap(["--help"]).stdout)]
        for command in Self.commands {
            let result = try runFacecap([command, "--help"])
            XCTAssertEqual(result.status, 0, "\(command) --help: \(result.stderr)")
            texts.append(("facecap \(command) --help", result.stdout))
        }
        return texts
    }

    /// Runs `command` in `shell`; its standard output.
    private func shell(_ shell: String, _ script: String) throws -> ProcessResult {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [shell, "-c", script]
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let stdout = out.fileHandleForReading.readDataToEndOfFile()
        let stderr = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return ProcessResult(
            status: process.terminationStatus, stdout: String(decoding: stdout, as: UTF8.self),
            stderr: String(decoding: stderr, as: UTF8.self))
    }

    private func generated(_ what: String) throws -> URL {
        let result = try runFacecap(["generate", what])
        XCTAssertEqual(result.status, 0, result.stderr)
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("facecap-\(UUID().uuidString).\(what)")
        try result.stdout.write(to: url, atomically: true, encoding: .utf8)
        addTeardownBlock { try? FileManager.default.removeItem(at: url) }
        return url
    }

    /// The README's pictures show what a person sees with the default settings (`make screenshots` writes each
    /// picture's words next to it): the manual-capture countdown within the default delay, not the hour a
    /// test setting would give.
    func testTheReadmePicturesShowWhatAPersonSees() throws {
        let images = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("docs/images")
        let capture = try String(contentsOf: images.appendingPathComponent("screen-capture.txt"), encoding: .utf8)
        XCTAssertTrue(capture.contains("Taking your selfie"), capture)
        let match = try XCTUnwrap(capture.firstMatch(of: /Manual capture in (\d+) s/), "no countdown: " + capture)
        let seconds = try XCTUnwrap(Double(String(match.1)))
        XCTAssertLessThanOrEqual(
            seconds, WizardConfiguration().manualAfter, "a countdown no default run shows: " + capture)
        XCTAssertGreaterThan(seconds, 0)
        for (picture, words) in [("retry", "Let's take another photo"), ("success", "Selfie accepted")] {
            let text = try String(contentsOf: images.appendingPathComponent("screen-\(picture).txt"), encoding: .utf8)
            XCTAssertTrue(text.contains(words), picture + ": " + text)
        }
    }

    /// The README's screen table is what `facecap generate screens` prints from the flow (ScreenTable.swift): a row
    /// for every screen, the keys its states bind. A key, binding or screen added to the flow and not to the README
    /// fails here.
    func testTheReadmeScreenTableIsWhatTheFlowGenerates() throws {
        let result = try runFacecap(["generate", "screens"])
        XCTAssertEqual(result.status, 0, result.stderr)
        let table = result.stdout
        let lines = table.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let begin = try XCTUnwrap(lines.first), end = try XCTUnwrap(lines.dropLast().last)
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let readme = try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
        let start = try XCTUnwrap(readme.range(of: begin + "\n"), "README: no line \(begin)")
        let stop = try XCTUnwrap(
            readme.range(of: end + "\n", range: start.upperBound..<readme.endIndex),
            "README: no line \(end)")
        XCTAssertEqual(
            String(readme[start.lowerBound..<stop.upperBound]), table,
            "README's screen table is stale: put `facecap generate screens` in its place")
        for screen in ScreenName.allCases {
            let row = try XCTUnwrap(
                lines.first { $0.hasPrefix("| ") && $0.contains("`\(screen.rawValue)`") },
                "\(screen.rawValue) has no row")
            XCTAssertFalse(row.hasSuffix("| none |") && screen != .uploading, "\(screen.rawValue): no keys reached")
        }
        XCTAssertTrue(table.contains("| `tutorial` | first (skipped with `--no-tutorial`)"), table)
        XCTAssertTrue(table.contains("Enter/SPACE start; q/Esc quit; ? help |"), table)
    }

    func testEveryHelpFitsAn80ColumnTerminal() throws {
        for (name, text) in try helpTexts() {
            XCTAssertFalse(text.isEmpty, name)
            for line in text.split(separator: "\n") {
                XCTAssertLessThanOrEqual(line.count, 80, "\(name): '\(line)'")
            }
        }
    }

    func testTheManualPageRendersCleanlyAndCoversEveryOptionExitCodeAndVariable() throws {
        let page = try generated("man")
        let rendered = try shell("bash", "MANWIDTH=80 LC_ALL=C.UTF-8 man --warnings -E UTF-8 -l '\(page.path)'")
        XCTAssertEqual(rendered.status, 0, rendered.stderr)
        XCTAssertEqual(rendered.stderr, "", "groff warnings")
        // man hyphenates nothing (.nh) but may join an option's dashes as U+2010; compare on plain hyphens.
        let text = rendered.stdout.replacingOccurrences(of: "\u{2010}", with: "-")
        for (name, help) in try helpTexts() {
            let options = help.matches(of: /--[a-z][a-z-]+/).map { String($0.output) }
            XCTAssertFalse(options.isEmpty, name)
            for option in Set(options) {
                XCTAssertTrue(text.contains(option), "\(option) (from \(name)) is not in the manual page")
            }
        }
        for command in Self.commands {
            XCTAssertTrue(text.contains("facecap \(command)"), command)
        }
        for code in [0, 1, 3, 64, 66, 69, 75, 77, 130] {
            XCTAssertNotNil(text.range(of: "\n       \(code) "), "exit code \(code)")
        }
        // Every variable facecap reads (getenv in Sources: Environment.wizardNames, FACECAP_MODEL_DIR; the proxies
        // through libcurl).
        for variable in [
            "FACECAP_MODEL_DIR", "FACECAP_TOKEN", "NO_COLOR", "TERM", "COLORTERM", "LANG", "LC_ALL",
            "LC_CTYPE", "https_proxy", "http_proxy",
        ] {
            XCTAssertTrue(text.contains(variable), variable)
        }
        for section in [
            "SYNOPSIS", "DESCRIPTION", "OPTIONS", "COMMANDS", "EXIT STATUS", "ENVIRONMENT", "FILES",
            "/usr/share/facecap/models",
        ] {
            XCTAssertTrue(text.contains(section), section)
        }
    }

    func testBashCompletionOffersCommandsOptionsAndValues() throws {
        let script = try generated("bash")
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "facecap-complete-\(UUID().uuidString)")
        try FileManager.default.createDirectory(
            at: folder.appendingPathComponent("photos"),
            withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(at: folder) }
        for name in ["a.y4m", "b.jpg", "t.json"] {
            _ = FileManager.default.createFile(atPath: folder.appendingPathComponent(name).path, contents: Data())
        }
        func complete(_ words: [String]) throws -> [String] {
            let quoted = words.map { "'\($0)'" }.joined(separator: " ")
            let result = try shell(
                "bash",
                "cd '\(folder.path)' && source '\(script.path)' && COMP_WORDS=(\(quoted)) "
                    + "&& COMP_CWORD=\(words.count - 1) && _facecap && printf '%s\\n' \"${COMPREPLY[@]}\"")
            XCTAssertEqual(result.status, 0, result.stderr)
            XCTAssertEqual(result.stderr, "")
            return result.stdout.split(separator: "\n").map(String.init).sorted()
        }
        XCTAssertEqual(try complete(["facecap", ""]), ["analyze", "bench", "devices", "generate", "record"])
        XCTAssertEqual(try complete(["facecap", "--co"]), ["--color"])
        XCTAssertEqual(try complete(["facecap", "--color", ""]), ["16", "256", "auto", "none", "truecolor"])
        XCTAssertEqual(try complete(["facecap", "--input", ""]), ["a.y4m", "photos"])
        XCTAssertEqual(try complete(["facecap", "-o", ""]), ["photos"])
        XCTAssertEqual(try complete(["facecap", "--attempts", ""]), [], "a number: nothing to offer")
        XCTAssertEqual(try complete(["facecap", "analyze", "--"]), ["--help", "--json", "--thresholds"])
        XCTAssertEqual(try complete(["facecap", "analyze", "--thresholds", ""]), ["photos", "t.json"])
        XCTAssertEqual(try complete(["facecap", "analyze", "--json", ""]), ["a.y4m", "b.jpg", "photos", "t.json"])
        XCTAssertEqual(
            try complete(["facecap", "record", "-"]),
            ["--device", "--format", "--fps", "--help", "--seconds", "--size", "-d", "-h"])
        XCTAssertEqual(try complete(["facecap", "generate", ""]), ["bash", "man", "pot", "zsh"])
    }

    func testZshCompletionParsesAndHandsEachCommandItsOptions() throws {
        let script = try generated("zsh")
        let syntax = try shell("zsh", "zsh -n '\(script.path)'")
        XCTAssertEqual(syntax.status, 0, syntax.stderr)
        // _arguments and _describe stand in for zsh's completion system: what _facecap hands them is the contract.
        func specs(_ words: [String]) throws -> [String] {
            let quoted = words.map { "'\($0)'" }.joined(separator: " ")
            let result = try shell(
                "zsh",
                "_arguments() { print -rl -- \"$@\" }; _describe() { print -r -- describe }; "
                    + "_facecap_load() { source '\(script.path)' }; words=(\(quoted)); "
                    + "CURRENT=\(words.count); _facecap_load")
            XCTAssertEqual(result.status, 0, result.stderr)
            return result.stdout.split(separator: "\n").map(String.init)
        }
        let wizard = try specs(["facecap", "--"])
        XCTAssertTrue(
            wizard.contains(
                "--color=[preview colours, auto, truecolor, 256, 16 or none]:mode:(auto truecolor 256 16 none)"),
            wizard.joined(separator: "\n"))
        XCTAssertTrue(wizard.contains { $0.hasPrefix("(-i --input)-i+[replay a clip") }, wizard.joined(separator: "\n"))
        XCTAssertTrue(wizard.contains("1:command:{_describe command commands}"), wizard.joined(separator: "\n"))
        let analyze = try specs(["facecap", "analyze", "--"])
        XCTAssertTrue(
            analyze.contains("--json[one JSON object per image or clip frame (JSON Lines)]"),
            analyze.joined(separator: "\n"))
        XCTAssertTrue(analyze.contains("*:file:_files"), analyze.joined(separator: "\n"))
        XCTAssertFalse(analyze.contains { $0.hasPrefix("--color") }, "wizard options are not analyze's")
        XCTAssertTrue(try specs(["facecap", "generate", ""]).contains("1:what:(man bash zsh pot)"))
    }

    func testGenerateUsage() throws {
        let none = try runFacecap(["generate"])
        XCTAssertEqual(none.status, 64)
        XCTAssertTrue(none.stderr.contains("takes one of: man, bash, zsh"), none.stderr)
        let other = try runFacecap(["generate", "fish"])
        XCTAssertEqual(other.status, 64)
        XCTAssertTrue(other.stderr.contains("not 'fish'"), other.stderr)
    }
}
