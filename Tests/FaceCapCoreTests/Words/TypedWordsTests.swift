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

    /// Each typed constructor says what `Words.text` with the same arguments says, placeholders all filled.
    func testATypedConstructorFillsEveryPlaceholder() {
        XCTAssertEqual(Words.countdownManualIn(seconds: "7"), "Manual capture in 7 s")
        XCTAssertEqual(Words.tooSmallNeeds(minColumns: "60", minRows: "20", columns: "40", rows: "10"),
                       "facecap needs at least 60×20 characters; this terminal is 40×10.")
        XCTAssertEqual(Words.retryAttemptsLeft(count: 1), "1 attempt left")
        XCTAssertEqual(Words.retryAttemptsLeft(count: 2), "2 attempts left")
    }
}

/// The Swift source of one area's typed constructors.
enum TypedWordsSource {
    static let keywords: Set<String> = ["default", "where", "in", "is", "as", "do", "for", "if", "let", "var"]

    static func text(area: String, table: [MessageID: Message]) -> String {
        var out = "// Generated from MessageID+\(area).swift by TypedWordsTests (FACECAP_WRITE_WORDS=1): do not edit.\n\n"
        out += "/// The typed constructors of the messages of MessageID+\(area).swift that have placeholders: an argument\n"
        out += "/// for each, so a missing or misspelt one fails to compile.\n"
        out += "extension Words {\n"
        var first = true
        for id in MessageID.allCases {
            guard let message = table[id] else { continue }
            let names = placeholders(message.english + " " + (message.plural ?? ""))
            guard !names.isEmpty else { continue }
            let counted = message.plural != nil
            var parameters: [String] = counted ? ["count: Int"] : []
            var pairs: [String] = []
            for name in names where !(counted && name == "count") {
                let local = keywords.contains(name) ? "`\(name)`" : name
                parameters.append(keywords.contains(name) ? "\(name) \(name)Text: String" : "\(name): String")
                pairs.append("\"\(name)\": \(keywords.contains(name) ? name + "Text" : local)")
            }
            let dictionary = pairs.isEmpty ? "" : ", [" + pairs.joined(separator: ", ") + "]"
            let body = counted ? "Self.text(.\(id), count: count\(dictionary))" : "Self.text(.\(id)\(dictionary))"
            if !first { out += "\n" }
            first = false
            out += "    /// " + message.english + "\n"
            let head = "    public static func \(id)(" + parameters.joined(separator: ", ") + ") -> String {"
            if head.count + body.count + 3 <= 120 {
                out += head + " " + body + " }\n"
            } else {
                out += head + "\n        " + body + "\n    }\n"
            }
        }
        return out + "}\n"
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
