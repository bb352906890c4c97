import Foundation
import XCTest

@testable import FaceCapCore

/// The repository's root, from this file's place in it.
let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent().path

/// Compiles `po` with `msgfmt --check` into `directory/LANG/LC_MESSAGES/facecap.mo` and returns the `.mo` bytes.
func compileCatalogue(_ po: String, language: String, into directory: String, extra: [String] = []) throws -> [UInt8] {
    let folder = directory + "/" + language + "/LC_MESSAGES"
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    let mo = folder + "/facecap.mo"
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/msgfmt")
    process.arguments = ["--check", "--output-file=" + mo] + extra + [po]
    let errors = Pipe()
    process.standardError = errors
    try process.run()
    process.waitUntilExit()
    let said = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    XCTAssertEqual(process.terminationStatus, 0, "msgfmt --check \(po): \(said)")
    return [UInt8](try Data(contentsOf: URL(fileURLWithPath: mo)))
}

/// The translations shipped in Resources/po, compiled now (as `make build` does).
func shippedTranslations() throws -> [Translations] {
    let folder = repositoryRoot + "/Resources/po"
    let files = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasSuffix(".po") }.sorted()
    let scratch = NSTemporaryDirectory() + "facecap-po-\(getpid())"
    defer { try? FileManager.default.removeItem(atPath: scratch) }
    return try files.map { file in
        let language = String(file.dropLast(3))
        return try MOFile.parse(
            try compileCatalogue(folder + "/" + file, language: language, into: scratch),
            language: language)
    }
}

final class CatalogueTests: XCTestCase {
    func testTheCommittedTemplateIsWhatTheCatalogueGenerates() throws {
        let committed = try String(contentsOfFile: repositoryRoot + "/Resources/po/facecap.pot", encoding: .utf8)
        XCTAssertEqual(
            committed, GettextTemplate.text(),
            "Resources/po/facecap.pot is stale: run `make pot` and commit it (and tell the translators)")
        XCTAssertEqual(committed.components(separatedBy: "\nmsgctxt ").count - 1, MessageID.allCases.count)
    }

    /// Each message is declared once: every case has exactly one line in one area's table, and no table names
    /// a case twice (a dictionary literal would trap on that) or a case another table declares.
    func testEveryMessageIsDeclaredOnceInOneAreaTable() {
        var declared: [MessageID: Int] = [:]
        for area in MessageID.areas { for id in area.messages.keys { declared[id, default: 0] += 1 } }
        for id in MessageID.allCases { XCTAssertEqual(declared[id], 1, "\(id): declared \(declared[id] ?? 0) times") }
        XCTAssertEqual(declared.count, MessageID.allCases.count)
        for id in MessageID.allCases { XCTAssertEqual(MessageID(rawValue: id.rawValue), id, id.rawValue) }
        XCTAssertNil(MessageID(rawValue: "no.suchMessage"))
    }

    func testIdsAreDottedAndEveryEnglishTextIsDistinctWithinItsId() {
        for id in MessageID.allCases {
            XCTAssertFalse(id.english.isEmpty, id.rawValue)
            XCTAssertTrue(id.rawValue.contains("."), "\(id.rawValue): ids are area.name")
            XCTAssertFalse(id.english.contains("\n"), "\(id.rawValue): one line; a screen lists lines")
            if let plural = id.englishPlural {
                XCTAssertEqual(Words.placeholders(plural), Words.placeholders(id.english), id.rawValue)
            }
        }
        XCTAssertEqual(Set(MessageID.allCases.map(\.rawValue)).count, MessageID.allCases.count)
    }

    /// Every shipped language: each message is translated, or recorded in Resources/po/untranslated.txt as
    /// staying English on purpose; every form keeps exactly the English placeholders.
    func testEveryTranslationIsCompleteOrItsFallbackIsRecordedAndKeepsThePlaceholders() throws {
        let recorded = try recordedFallbacks()
        for translations in try shippedTranslations() {
            for id in MessageID.allCases {
                let english = Words.placeholders(id.english)
                guard let forms = translations.entries[id.key], forms.contains(where: { !$0.isEmpty }) else {
                    XCTAssertTrue(
                        recorded.contains("\(translations.language) \(id.rawValue)"),
                        "\(translations.language): \(id.rawValue) has no translation and no line in "
                            + "Resources/po/untranslated.txt")
                    continue
                }
                XCTAssertEqual(
                    forms.count, id.englishPlural == nil ? 1 : translations.plural.count,
                    "\(translations.language) \(id.rawValue): forms")
                for form in forms {
                    XCTAssertEqual(
                        Words.placeholders(form), english,
                        "\(translations.language) \(id.rawValue): \"\(form)\" must keep the placeholders")
                }
            }
            let stale = Set(translations.entries.keys).subtracting(MessageID.allCases.map(\.key))
            XCTAssertEqual(stale, [], "\(translations.language): entries no message has (run msgmerge)")
        }
    }

    /// A sentence stays a sentence: where the English ends with a full stop, so does every translation, in its
    /// language's punctuation (a quotation or a bracket may close after it). Japanese help said only
    /// 「左へ移動してください」はあなたの左 ("… is your left"), which reads as a line cut off.
    func testATranslatedSentenceEndsAsOne() throws {
        let stops: Set<Character> = [".", "。", "!", "！", "?", "？"]
        let closers: Set<Character> = [")", "）", "」", "』", "»", "\"", "”", "’", " ", "\u{00A0}"]
        for translations in try shippedTranslations() {
            for id in MessageID.allCases where id.english.hasSuffix(".") && !id.english.hasSuffix("...") {
                for form in translations.entries[id.key] ?? [] where !form.isEmpty {
                    // The stop may stand inside a closing quotation or bracket: those are looked past.
                    var text = Substring(form)
                    while let last = text.last, closers.contains(last) { text = text.dropLast() }
                    XCTAssertTrue(
                        text.last.map(stops.contains) ?? false,
                        "\(translations.language) \(id.rawValue): \"\(form)\" ends mid-sentence")
                }
            }
        }
    }

    /// French takes the no-break space its file's header asks for before a colon and a semicolon, so that no line
    /// of a wrapped message starts with the sign: a plain space there fails.
    /// fr.po's header: a no-break space (U+00A0) before `:` and `;` as punctuation (followed by a space or ending
    /// the text; a URL's colon is not, nor a JSON sample's after its key's quote), and between a frame rate and
    /// its unit.
    func testFrenchPutsANoBreakSpaceBeforeAColonOrASemicolon() throws {
        let french = try XCTUnwrap(shippedTranslations().first { $0.language == "fr" })
        for id in MessageID.allCases {
            for form in french.entries[id.key] ?? [] {
                let characters = Array(form)
                for (index, character) in characters.enumerated() where character == ":" || character == ";" {
                    let ends = index + 1 == characters.count || characters[index + 1] == " "
                    let json = index > 0 && characters[index - 1] == "\""
                    XCTAssertFalse(
                        ends && !json && (index == 0 || characters[index - 1] != "\u{00A0}"),
                        "fr \(id.rawValue): \"\(form)\" has no U+00A0 before its \(character)")
                }
                XCTAssertFalse(
                    form.contains(" i/s") || form.contains(" fps"),
                    "fr \(id.rawValue): \"\(form)\" has a plain space before its frame rate's unit")
            }
        }
    }

    /// `LANG ID` pairs (a `#` starts a comment: say why the English stays).
    func recordedFallbacks() throws -> Set<String> {
        let path = repositoryRoot + "/Resources/po/untranslated.txt"
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return [] }
        var pairs: Set<String> = []
        for line in text.split(separator: "\n") {
            let fields = line.prefix { $0 != "#" }.split(separator: " ")
            if fields.count >= 2 {
                pairs.insert("\(fields[0]) \(fields[1])")
                XCTAssertNotNil(MessageID(rawValue: String(fields[1])), "untranslated.txt: unknown id \(fields[1])")
            }
        }
        return pairs
    }

    func testTheShippedLanguagesAreThePOFiles() throws {
        let languages = try shippedTranslations().map(\.language)
        XCTAssertEqual(
            Set(LanguageChoice.shipped), Set(["en"] + languages),
            "LanguageChoice.shipped must list exactly English and the Resources/po/*.po languages")
        XCTAssertEqual(LanguageChoice.shipped.first, "en")
    }
}
