import Foundation
import XCTest

@testable import FaceCapCore

/// The typed constructors (`Words.countdownManualIn(seconds:)`, in `Words/Words+<area>.swift`) are generated from
/// the catalogue's declarations: one function for each message with placeholders, an argument for each
/// placeholder, so a missing or misspelt argument fails to compile. This test fails when a committed file is not
/// what the catalogue gives; `FACECAP_WRITE_WORDS=1` with this test writes them.
final class TypedWordsTests: XCTestCase {
    func testTheTypedConstructorsAreWhatTheCatalogueGenerates() throws {
        let folder = repositoryRoot + "/Sources/FaceCapCore/Words/"
        let write = ProcessInfo.processInfo.environment["FACECAP_WRITE_WORDS"] == "1"
        for area in MessageID.areas {
            let path = folder + "Words+\(area.name).swift"
            let generated = TypedWordsSource.text(area: area.name, table: area.messages)
            if write { try generated.write(toFile: path, atomically: true, encoding: .utf8) }
            let committed = try String(contentsOfFile: path, encoding: .utf8)
            XCTAssertEqual(committed, generated, "\(path) is stale: run this test with FACECAP_WRITE_WORDS=1")
        }
    }

    /// The generated check of every typed constructor (`TypedWordsCoverage.swift`) is what the catalogue gives.
    func testTheConstructorCheckCoversEveryConstructor() throws {
        let path = repositoryRoot + "/Tests/FaceCapCoreTests/Words/TypedWordsCoverage.swift"
        let generated = TypedWordsSource.coverage()
        if ProcessInfo.processInfo.environment["FACECAP_WRITE_WORDS"] == "1" {
            try generated.write(toFile: path, atomically: true, encoding: .utf8)
        }
        XCTAssertEqual(
            try String(contentsOfFile: path, encoding: .utf8), generated,
            "\(path) is stale: run TypedWordsTests with FACECAP_WRITE_WORDS=1")
    }

    /// Each typed constructor says what `Words.text` with the same arguments says, every placeholder filled with
    /// its own argument (each sample value is distinct, so swapped arguments fail), in English and in each shipped
    /// language; the list of constructors is generated (`TypedWordsCoverage.swift`), so none is left out.
    func testEveryTypedConstructorFillsEveryPlaceholder() throws {
        let saved = Words.current
        defer { Words.current = saved }
        Words.current = .english
        XCTAssertEqual(Words.countdownManualIn(seconds: "7"), "Manual capture in 7 s")
        XCTAssertEqual(
            Words.tooSmallNeeds(minColumns: "60", minRows: "20", columns: "40", rows: "10"),
            "facecap needs at least 60×20 characters; this terminal is 40×10.")
        XCTAssertEqual(Words.retryAttemptsLeft(count: 1), "1 attempt left")
        XCTAssertEqual(Words.retryAttemptsLeft(count: 2), "2 attempts left")
        for translations in [Translations.english] + (try shippedTranslations()) {
            Words.current = translations
            for check in TypedWordsCoverage.checks {
                let expected =
                    check.count.map { Words.text(check.id, count: $0, check.arguments) }
                    ?? Words.text(check.id, check.arguments)
                let said = check.call()
                XCTAssertEqual(said, expected, "\(translations.language) \(check.id)")
                XCTAssertFalse(said.contains("{"), "\(translations.language) \(check.id): \(said)")
                if translations.language == "en" {
                    for value in check.arguments.values { XCTAssertTrue(said.contains(value), "\(check.id) \(value)") }
                }
            }
        }
        XCTAssertEqual(
            TypedWordsCoverage.checks.count,
            MessageID.allCases.filter {
                !TypedWordsSource.placeholders($0.english + " " + ($0.englishPlural ?? "")).isEmpty
            }.count)
    }
}

/// The Swift source of one area's typed constructors.
enum TypedWordsSource {
    static let keywords: Set<String> = ["default", "where", "in", "is", "as", "do", "for", "if", "let", "var"]

    static func text(area: String, table: [MessageID: Message]) -> String {
        var out = "// swift-format-ignore-file\n"
        out += "// Generated from MessageID+\(area).swift by TypedWordsTests (FACECAP_WRITE_WORDS=1): do not edit.\n\n"
        out +=
            "/// The typed constructors of the messages of MessageID+\(area).swift that have placeholders: an argument\n"
        out += "/// for each, so a missing or misspelt one fails to compile.\n"
        out += "extension Words {\n"
        var first = true
        for id in MessageID.allCases {
            guard let message = table[id] else { continue }
            guard !placeholders(message.english + " " + (message.plural ?? "")).isEmpty else { continue }
            let (names, counted) = signature(message)
            var parameters: [String] = counted ? ["count: Int"] : []
            var pairs: [String] = []
            for name in names {
                let local = keywords.contains(name) ? "`\(name)`" : name
                parameters.append(keywords.contains(name) ? "\(name) \(name)Text: String" : "\(name): String")
                pairs.append("\"\(name)\": \(keywords.contains(name) ? name + "Text" : local)")
            }
            let dictionary = pairs.isEmpty ? "" : ", [" + pairs.joined(separator: ", ") + "]"
            let body = counted ? "Self.text(.\(id), count: count\(dictionary))" : "Self.text(.\(id)\(dictionary))"
            if !first { out += "\n" }
            first = false
            out += wrapped(message.english, indent: "    /// ")
            let head = "    public static func \(id)(" + parameters.joined(separator: ", ") + ") -> String {"
            if head.count + body.count + 3 <= 120 {
                out += head + " " + body + " }\n"
            } else {
                out += head + "\n        " + body + "\n    }\n"
            }
        }
        return out + "}\n"
    }

    /// `text` as doc-comment lines of at most 120 columns, broken at spaces (a word longer than a line stays whole).
    static func wrapped(_ text: String, indent: String) -> String {
        var lines: [String] = []
        var line = ""
        for word in text.split(separator: " ", omittingEmptySubsequences: false) {
            if !line.isEmpty, indent.count + line.count + 1 + word.count > 120 {
                lines.append(line)
                line = String(word)
            } else {
                line += (line.isEmpty ? "" : " ") + word
            }
        }
        lines.append(line)
        return lines.map { indent + $0 + "\n" }.joined()
    }

    /// The parameters of `id`'s constructor: (label, placeholder) pairs, and whether it counts.
    static func signature(_ message: Message) -> (names: [String], counted: Bool) {
        let counted = message.plural != nil
        let names = placeholders(message.english + " " + (message.plural ?? "")).filter { !(counted && $0 == "count") }
        return (names, counted)
    }

    /// The source of `TypedWordsCoverage`: for each constructor, a call with a distinct sample value for each
    /// argument, and the id and arguments `Words.text` is given for the same.
    static func coverage() -> String {
        var out = "// swift-format-ignore-file\n"
        out += "// Generated by TypedWordsTests (FACECAP_WRITE_WORDS=1) from the catalogue: do not edit.\n"
        out += "@testable import FaceCapCore\n\n"
        out += "/// Every typed constructor, called with a distinct sample for each argument (TypedWordsTests).\n"
        out += "enum TypedWordsCoverage {\n"
        out += "    struct Check: Sendable {\n        let id: MessageID\n        let count: Int?\n"
        out += "        let arguments: [String: String]\n        let call: @Sendable () -> String\n    }\n\n"
        out += "    static let checks: [Check] = [\n"
        var sample = 0
        for id in MessageID.allCases {
            let message = id.message
            guard !placeholders(message.english + " " + (message.plural ?? "")).isEmpty else { continue }
            let (names, counted) = signature(message)
            // Every other counted message with 1, the rest with a plural count, so both forms are called.
            let count = counted ? (sample % 2 == 0 ? "1" : "\(sample % 7 + 2)") : "nil"
            var arguments: [String] = counted ? ["count: " + count] : []
            var pairs: [String] = []
            for name in names {
                sample += 1
                let value = "\"‹\(name)\(sample)›\""
                arguments.append("\(name): \(value)")
                pairs.append("\"\(name)\": \(value)")
            }
            out += "        Check(id: .\(id), count: \(count),\n"
            out += wrappedList("              arguments: [", pairs.isEmpty ? [":"] : pairs, "],", indent: 15)
            out += wrappedList("              call: { Words.\(id)(", arguments, ") }),", indent: 18)
        }
        return out + "    ]\n}\n"
    }

    /// `head`, the items joined by ", " and `tail` on as few lines of at most 120 columns as it takes, the lines
    /// after the first indented by `indent` spaces.
    static func wrappedList(_ head: String, _ items: [String], _ tail: String, indent: Int) -> String {
        var lines: [String] = []
        var line = head
        for (index, item) in items.enumerated() {
            let piece = item + (index == items.count - 1 ? tail : ",")
            let opening = line == head || line.allSatisfy { $0 == " " }
            if !opening, line.count + 1 + piece.count > 120 {
                lines.append(line)
                line = String(repeating: " ", count: indent) + piece
            } else {
                line += (opening ? "" : " ") + piece
            }
        }
        if items.isEmpty { line += tail }
        return (lines + [line]).map { $0 + "\n" }.joined()
    }

    /// The placeholders of a text, in the order they first appear.
    static func placeholders(_ text: String) -> [String] {
        var names: [String] = []
        for name in placeholderRuns(text) where !names.contains(name) { names.append(name) }
        return names
    }

    static func placeholderRuns(_ text: String) -> [String] {
        var names: [String] = []
        var rest = Substring(text)
        while let open = rest.firstIndex(of: "{") {
            let after = rest[rest.index(after: open)...]
            guard let close = after.firstIndex(of: "}") else { break }
            let name = after[..<close]
            if !name.isEmpty, name.allSatisfy({ $0.isLetter || $0.isNumber }) { names.append(String(name)) }
            rest = after[after.index(after: close)...]
        }
        return names
    }
}
