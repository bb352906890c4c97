import Foundation
import XCTest

/// No sentence for a person is written outside the catalogue in the flow, the screens and the front ends: a
/// literal there with words in it fails this test (say it with `Words.text` and a `MessageID` instead).
final class LiteralScanTests: XCTestCase {
    static let scanned = ["Sources/FaceCapCore/Flow", "Sources/FaceCapCore/Screens", "Sources/FaceCapIO/Wizard",
                          "Sources/FaceCapTerminal/CursesFrontEnd.swift", "Sources/FaceCapTerminal/ScreenLayout.swift",
                          "Sources/FaceCapTerminal/CursesWizardFrontEnd.swift", "Sources/facecap/WizardCommand.swift"]

    /// Literals that are no sentence: commands typed as shown, key words of the pipe protocol, file names.
    static let allowed: Set<String> = ["$ facecap --input clip.y4m", "$ facecap devices", "$ sudo fuser -v /dev/video*",
                                       "$ newgrp ", "$ sudo usermod -aG   $USER"]

    func testNoUserFacingLiteralOutsideTheCatalogue() throws {
        var found: [String] = []
        for entry in Self.scanned {
            let path = repositoryRoot + "/" + entry
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else {
                XCTFail("\(entry) is gone: update the scanned list")
                continue
            }
            let files = isFolder.boolValue
                ? try FileManager.default.contentsOfDirectory(atPath: path).filter { $0.hasSuffix(".swift") }.sorted()
                    .map { path + "/" + $0 } : [path]
            for file in files {
                let source = try String(contentsOfFile: file, encoding: .utf8)
                for (line, literal) in Self.literals(in: source) where Self.isProse(literal) && !Self.allowed.contains(literal) {
                    found.append("\(file.dropFirst(repositoryRoot.count + 1)):\(line): \"\(literal)\"")
                }
            }
        }
        XCTAssertEqual(found, [], "sentences outside the catalogue:\n" + found.joined(separator: "\n"))
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
