import Foundation
import XCTest

@testable import FaceCapCore

/// No sentence for a person is written outside the catalogue in the flow, the screens, the front ends, the
/// command line and the executable (help, usage errors, subcommand output, the manual page), the face models'
/// errors and a server reply's problems: a literal there with words in it fails this test (say it with
/// `Words.text` and a `MessageID` instead).
final class LiteralScanTests: XCTestCase {
    static let scanned = [
        "Sources/FaceCapCore/Flow", "Sources/FaceCapCore/Screens", "Sources/FaceCapIO/Wizard",
        "Sources/FaceCapTerminal/CursesFrontEnd.swift", "Sources/FaceCapTerminal/ScreenLayout.swift",
        "Sources/FaceCapTerminal/ScreenLayout+Live.swift", "Sources/FaceCapTerminal/StillLayout.swift",
        "Sources/FaceCapTerminal/ScreenWidgets.swift", "Sources/FaceCapTerminal/TextCanvas.swift",
        "Sources/FaceCapTerminal/PlainFrontEnd.swift",
        "Sources/facecap",
        "Sources/FaceCapCore/CommandLine", "Sources/FaceCapIO/Camera/CameraDeviceText.swift",
        "Sources/FaceCapIO/Camera/ClipRecorder.swift", "Sources/FaceCapIO/Models",
        "Sources/FaceCapCore/Validation/ServerReply.swift",
        "Sources/FaceCapCore/Camera/CameraError.swift", "Sources/FaceCapIO/Files/JPEGFile.swift",
        "Sources/FaceCapCore/Frame/MediaDataError.swift", "Sources/FaceCapCore/Frame/MediaDataReasons.swift",
        "Sources/FaceCapCore/Frame/PNM.swift", "Sources/FaceCapCore/Frame/Y4M.swift",
        "Sources/FaceCapIO/Files/ImageFile.swift", "Sources/FaceCapIO/Files/InputFileError.swift",
        "Sources/FaceCapIO/Files/ClipSource.swift", "Sources/FaceCapIO/Files/Y4MFile.swift",
        "Sources/FaceCapIO/Files/OutputFileError.swift", "Sources/FaceCapCore/Frame/ClipFrameMismatch.swift",
    ]

    /// Literals that are no sentence: commands typed as shown, key words of the pipe protocol, file names,
    /// environment variables; and the one line said before the catalogue can be read.
    static let allowed: Set<String> = [
        "$ facecap --input clip.y4m", "$ facecap devices", "$ sudo fuser -v /dev/video*", "$ newgrp ",
        "$ sudo usermod -aG   $USER", "generate man|bash|zsh|pot",
        "$ sudo apt install libcamera-tools libcamera-v4l2", "$ sudo apt install libcamera-ipa",
        "$ libcamerify facecap",
        "LANGUAGE, LC_ALL, LC_MESSAGES, LANG, LC_CTYPE",
        "https_proxy, http_proxy, no_proxy",
        // checkCPU: said before any optimised code runs, so before the catalogue is read (main.swift).
        "this build needs a CPU with AVX2 and FMA (Intel Haswell / AMD Excavator, 2013, or newer); ",
        "rebuild from source without '-target-cpu haswell' in Package.swift for an older CPU",
        // An image format's name, said in an error as it is (MediaKind.foreignImageName).
        "WebP",
        // The months of an HTTP date (Retry-After), parsed, never shown.
        "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
    ]

    /// Files with a stretch marked `// MARK: English on purpose: why` (up to the next `// MARK:`), which this test
    /// does not read: shell code, and the Markdown tables `bench --profile` prints for the docs. A mark anywhere
    /// else fails.
    static let englishOnPurpose: Set<String> = [
        "Sources/facecap/Documentation.swift", "Sources/facecap/BenchCommand.swift",
        "Sources/facecap/BenchCommand+Runs.swift",
        "Sources/facecap/BenchFormats.swift", "Sources/facecap/ScreenTable.swift",
    ]

    /// A command as typed ("facecap analyze --json photo.jpg", a usage line), or a roff request of the manual page.
    static func isCommandOrMarkup(_ literal: String) -> Bool {
        if literal.hasPrefix(".") { return true }
        guard literal.hasPrefix("facecap ") || literal.hasPrefix("ffmpeg ") else { return false }
        return literal.contains("--") || literal.contains("[") || literal.contains("|") || literal.contains(".y4m")
    }

    /// `source` without its stretches marked English on purpose.
    static func withoutEnglishOnPurpose(_ source: String) -> String {
        var kept: [Substring] = []
        var skipping = false
        for line in source.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.contains("// MARK:") { skipping = line.contains("// MARK: English on purpose") }
            kept.append(skipping ? "" : line)
        }
        return kept.joined(separator: "\n")
    }

    func testNoUserFacingLiteralOutsideTheCatalogue() throws {
        var found: [String] = []
        for entry in Self.scanned {
            let path = repositoryRoot + "/" + entry
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else {
                XCTFail("\(entry) is gone: update the scanned list")
                continue
            }
            let files =
                isFolder.boolValue
                ? try FileManager.default.contentsOfDirectory(atPath: path).filter { $0.hasSuffix(".swift") }.sorted()
                    .map { path + "/" + $0 } : [path]
            for file in files {
                var source = try String(contentsOfFile: file, encoding: .utf8)
                let relative = String(file.dropFirst(repositoryRoot.count + 1))
                if source.contains("// MARK: English on purpose") {
                    XCTAssertTrue(
                        Self.englishOnPurpose.contains(relative), "\(relative): a stretch marked English on purpose")
                    source = Self.withoutEnglishOnPurpose(source)
                }
                for (line, literal) in Self.literals(in: source)
                where Self.isProse(literal) && !Self.allowed.contains(literal) && !Self.isCommandOrMarkup(literal) {
                    found.append("\(file.dropFirst(repositoryRoot.count + 1)):\(line): \"\(literal)\"")
                }
            }
        }
        XCTAssertEqual(found, [], "sentences outside the catalogue:\n" + found.joined(separator: "\n"))
    }

    /// The flow words nothing (review 2026-12-05, recommendation 1): its key hints are `MessageID`s and its line
    /// for standard error a `ReportLine`, both worded in Screens/. No code line in Flow/ calls `Words`.
    func testTheFlowCallsNoWordingItself() throws {
        let folder = repositoryRoot + "/Sources/FaceCapCore/Flow"
        let files = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasSuffix(".swift") }
        XCTAssertGreaterThan(files.count, 10)
        var found: [String] = []
        for file in files.sorted() {
            let source = try String(contentsOfFile: folder + "/" + file, encoding: .utf8)
            for (index, line) in source.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                let code = line.components(separatedBy: "//").first ?? ""
                if code.contains("Words.") { found.append("\(file):\(index + 1): \(line)") }
            }
        }
        XCTAssertEqual(found, [], "words belong to Screens/")
    }

    /// Placeholders are filled through the typed constructors only (review 2026-12-05, recommendation 3): outside
    /// `Words/`, no call hands `Words.text` a dictionary of placeholders or a count, and none words a message that
    /// has placeholders without them (`Words.countdownManualIn(seconds:)` does, and fails to compile without them).
    func testPlaceholdersAreFilledThroughTypedConstructorsOnly() throws {
        let withPlaceholders = Set(
            MessageID.allCases.filter {
                !Words.placeholders($0.english).isEmpty || $0.englishPlural != nil
            }.map { String(describing: $0) })
        XCTAssertGreaterThan(withPlaceholders.count, 150)
        let sources = repositoryRoot + "/Sources"
        let files = try XCTUnwrap(FileManager.default.subpathsOfDirectory(atPath: sources))
            .filter { $0.hasSuffix(".swift") && !$0.hasPrefix("FaceCapCore/Words/") }.sorted()
        XCTAssertGreaterThan(files.count, 100)
        var found: [String] = []
        for file in files {
            let source = try String(contentsOfFile: sources + "/" + file, encoding: .utf8)
            for (index, line) in source.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                let code = String(line.components(separatedBy: "//").first ?? "")
                for match in code.matches(of: /Words\.text\(([^()]*)/) {
                    let arguments = String(match.1)
                    let name = arguments.firstMatch(of: /^\s*\.(\w+)/).map { String($0.1) }
                    if arguments.contains("[") || arguments.contains("count:")
                        || name.map(withPlaceholders.contains) == true
                    {
                        found.append("\(file):\(index + 1): \(line.trimmingCharacters(in: .whitespaces))")
                    }
                }
            }
        }
        XCTAssertEqual(found, [], "placeholders given by name, or not at all:\n" + found.joined(separator: "\n"))
    }

    func testTheScannerFindsProseAndIgnoresCommentsAndInterpolation() {
        let source = """
            // "A comment with words"
            let a = "Take your selfie" // "also a comment"
            let b = "key\\(x ? "Inner words here" : "y")"
            let c = "screen"
            /// "Doc comment words"
            """
        let literals = Self.literals(in: source).map(\.1)
        XCTAssertEqual(literals.filter(Self.isProse), ["Take your selfie", "Inner words here"])
        XCTAssertFalse(Self.isProse("attemptsLeft"))
        XCTAssertFalse(Self.isProse("q"))
        XCTAssertTrue(Self.isProse("Saving"))
        let marked =
            "let a = \"Kept out here\"\n// MARK: English on purpose: tables\nlet b = \"Skipped words\"\n"
            + "// MARK: back\nlet c = \"Read again here\"\n"
        XCTAssertEqual(
            Self.literals(in: Self.withoutEnglishOnPurpose(marked)).map(\.1),
            ["Kept out here", "Read again here"])
        XCTAssertTrue(Self.isCommandOrMarkup("facecap analyze [--json] IMAGE…"))
        XCTAssertFalse(Self.isCommandOrMarkup("facecap will turn on your camera"))
    }

    /// Two words, or one capitalised word of three letters or more.
    static func isProse(_ literal: String) -> Bool {
        literal.range(of: #"[A-Za-z]{2,}[ ,:;]+[A-Za-z]{2,}"#, options: .regularExpression) != nil
            || literal.range(of: #"(^|[^A-Za-z_])[A-Z][a-z]{2,}"#, options: .regularExpression) != nil
    }

    /// Every string literal of `source` with its line, interpolations taken out (and scanned as code), comments
    /// skipped.
    static func literals(in source: String) -> [(Int, String)] {
        let chars = Array(source)
        var result: [(Int, String)] = []
        var index = 0, line = 1
        func scanString(_ multiline: Bool) -> String {
            var text = ""
            while index < chars.count {
                let c = chars[index]
                if c == "\n" { line += 1 }
                if multiline, c == "\"", index + 2 < chars.count, chars[index + 1] == "\"", chars[index + 2] == "\"" {
                    index += 3
                    return text
                }
                if !multiline, c == "\"" {
                    index += 1
                    return text
                }
                if c == "\\", index + 1 < chars.count {
                    if chars[index + 1] == "(" {
                        index += 2
                        scanCode(untilParen: true)
                        text += " "
                        continue
                    }
                    text.append(chars[index + 1])
                    index += 2
                    continue
                }
                text.append(c)
                index += 1
            }
            return text
        }
        func scanCode(untilParen: Bool) {
            var depth = 0
            while index < chars.count {
                let c = chars[index]
                if c == "\n" { line += 1 }
                if c == "/", index + 1 < chars.count, chars[index + 1] == "/" {
                    while index < chars.count, chars[index] != "\n" { index += 1 }
                    continue
                }
                if c == "\"" {
                    let start = line
                    let multiline = index + 2 < chars.count && chars[index + 1] == "\"" && chars[index + 2] == "\""
                    index += multiline ? 3 : 1
                    result.append((start, scanString(multiline)))
                    continue
                }
                if untilParen {
                    if c == "(" { depth += 1 }
                    if c == ")" {
                        if depth == 0 {
                            index += 1
                            return
                        }
                        depth -= 1
                    }
                }
                index += 1
            }
        }
        scanCode(untilParen: false)
        return result
    }
}
