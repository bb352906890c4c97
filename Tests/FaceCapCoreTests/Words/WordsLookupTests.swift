import Foundation
import XCTest

@testable import FaceCapCore

/// Runs `body` with `translations` as the current language, English again after.
func speaking<T>(_ translations: Translations, _ body: () throws -> T) rethrows -> T {
    let saved = Words.current
    Words.current = translations
    defer { Words.current = saved }
    return try body()
}

final class WordsLookupTests: XCTestCase {
    let scratch = NSTemporaryDirectory() + "facecap-words-\(getpid())"

    override func tearDown() {
        try? FileManager.default.removeItem(atPath: scratch)
    }

    /// A small catalogue in gettext's format, with a context, a plural, reordered placeholders and an entry
    /// left untranslated.
    func writePO(_ plural: String, _ body: String) throws -> String {
        try FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: true)
        let path = scratch + "/test.po"
        let header = """
            msgid ""
            msgstr ""
            "Content-Type: text/plain; charset=UTF-8\\n"
            "Plural-Forms: \(plural)\\n"

            """
        try (header + body).write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    func frenchSample() throws -> String {
        try writePO(
            "nplurals=2; plural=(n > 1);",
            """

            msgctxt "tutorial.title"
            msgid "Take your selfie"
            msgstr "Prenez votre selfie"

            msgctxt "retry.attemptsLeft"
            msgid "{count} attempt left"
            msgid_plural "{count} attempts left"
            msgstr[0] "{count} essai restant"
            msgstr[1] "{count} essais restants"

            msgctxt "refused.http"
            msgid "HTTP {status}: {message}"
            msgstr "{message} (HTTP {status})"

            msgctxt "success.title"
            msgid "Selfie accepted"
            msgstr ""

            """)
    }

    func testAMOFileFromMsgfmtIsReadInBothByteOrders() throws {
        let po = try frenchSample()
        for order in ["little", "big"] {
            let bytes = try compileCatalogue(
                po, language: "fr", into: scratch + "/" + order,
                extra: ["--endianness=" + order])
            let french = try MOFile.parse(bytes, language: "fr")
            speaking(french) {
                XCTAssertEqual(Words.text(.tutorialTitle), "Prenez votre selfie", order)
                XCTAssertEqual(Words.text(.retryAttemptsLeft, count: 0), "0 essai restant", "French: 0 is singular")
                XCTAssertEqual(Words.text(.retryAttemptsLeft, count: 1), "1 essai restant")
                XCTAssertEqual(Words.text(.retryAttemptsLeft, count: 2), "2 essais restants")
                XCTAssertEqual(
                    Words.text(.refusedHTTP, ["status": "401", "message": "jeton refusé"]),
                    "jeton refusé (HTTP 401)", "placeholders in the translation's order")
                // Untranslated (empty) and absent messages fall back to English alone.
                XCTAssertEqual(Words.text(.successTitle), "Selfie accepted")
                XCTAssertEqual(Words.text(.finalTitle), "Sent for manual review")
            }
        }
        XCTAssertEqual(Words.text(.tutorialTitle), "Take your selfie")
        XCTAssertEqual(Words.text(.retryAttemptsLeft, count: 1), "1 attempt left")
        XCTAssertEqual(Words.text(.retryAttemptsLeft, count: 0), "0 attempts left")
    }

    func testAChangedEnglishTextMakesItsOldTranslationStale() throws {
        let po = try writePO(
            "nplurals=2; plural=(n != 1);",
            """

            msgctxt "tutorial.title"
            msgid "Take a selfie"
            msgstr "Mach ein Selfie"

            """)
        let german = try MOFile.parse(try compileCatalogue(po, language: "de", into: scratch), language: "de")
        speaking(german) { XCTAssertEqual(Words.text(.tutorialTitle), "Take your selfie") }
    }

    func testBrokenCataloguesAreRefused() {
        XCTAssertThrowsError(try MOFile.parse(Array("not a catalogue at all".utf8), language: "xx"))
        XCTAssertThrowsError(
            try MOFile.parse(
                [
                    0xde, 0x12, 0x04, 0x95, 0, 0, 0, 0, 200, 0, 0, 0, 28, 0, 0, 0,
                    44, 0, 0, 0,
                ], language: "xx"))
    }

    func testPluralRulesOfGettextHeaders() throws {
        let japanese = try XCTUnwrap(PluralRule(header: " nplurals=1; plural=0;"))
        XCTAssertEqual([0, 1, 2, 100].map(japanese.form(for:)), [0, 0, 0, 0])
        let french = try XCTUnwrap(PluralRule(header: "nplurals=2; plural=(n > 1);"))
        XCTAssertEqual([0, 1, 2].map(french.form(for:)), [0, 0, 1])
        let polish = try XCTUnwrap(
            PluralRule(
                header: "nplurals=3; plural=(n==1 ? 0 : n%10>=2 && n%10<=4 && "
                    + "(n%100<10 || n%100>=20) ? 1 : 2);"))
        XCTAssertEqual([1, 2, 4, 5, 12, 22, 25, 112].map(polish.form(for:)), [0, 1, 1, 2, 2, 1, 2, 2])
        let not = try XCTUnwrap(PluralRule(header: "nplurals=2; plural=!(n == 1);"))
        XCTAssertEqual([1, 3].map(not.form(for:)), [0, 1])
        XCTAssertNil(PluralRule(header: "nplurals=2; plural=n >;"))
        XCTAssertNil(PluralRule(header: "plural=n != 1;"))
    }

    func testPlaceholdersAreFoundAndFilled() {
        XCTAssertEqual(Words.placeholders("{path}: {problem} {} {not a name}"), ["path", "problem"])
        XCTAssertEqual(Words.fill("{a} and {b}, {a}; {c}", ["a": "1", "b": "{a}"]), "1 and {a}, 1; {c}")
    }
}

final class LanguageChoiceTests: XCTestCase {
    let all = ["en", "de", "es", "fr", "pt_BR", "ja"]

    func choose(_ option: String? = nil, _ environment: [String: String]) throws -> String {
        try LanguageChoice.choose(option: option, environment: environment, available: all)
    }

    func testTheOptionThenLanguageThenLcAllLcMessagesAndLang() throws {
        let everything = [
            "LANGUAGE": "es", "LC_ALL": "fr_FR.UTF-8", "LC_MESSAGES": "ja_JP.UTF-8", "LANG": "de_DE.UTF-8",
        ]
        XCTAssertEqual(try choose("pt_BR", everything), "pt_BR")
        XCTAssertEqual(try choose(nil, everything), "es")
        XCTAssertEqual(try choose(nil, everything.filter { $0.key != "LANGUAGE" }), "fr")
        XCTAssertEqual(try choose(nil, ["LC_MESSAGES": "ja_JP.UTF-8", "LANG": "de_DE.UTF-8"]), "ja")
        XCTAssertEqual(try choose(nil, ["LANG": "de_DE.UTF-8"]), "de")
        XCTAssertEqual(try choose(nil, ["LANGUAGE": "de", "LANG": "fr_FR.UTF-8"]), "de")
        XCTAssertEqual(try choose(nil, [:]), "en")
    }

    func testLocaleNamesAndLists() throws {
        XCTAssertEqual(try choose(nil, ["LANGUAGE": "xx:pt_BR:de"]), "pt_BR", "the first available of the list")
        XCTAssertEqual(try choose(nil, ["LANGUAGE": "", "LANG": "pt_BR.utf8"]), "pt_BR")
        XCTAssertEqual(try choose(nil, ["LANG": "pt_PT.UTF-8"]), "pt_BR", "Portuguese finds the one it has")
        XCTAssertEqual(try choose(nil, ["LANG": "de_AT.UTF-8@euro"]), "de")
        XCTAssertEqual(try choose(nil, ["LC_ALL": "C", "LANG": "de_DE.UTF-8"]), "en", "the first set one decides")
        XCTAssertEqual(try choose(nil, ["LANG": "POSIX"]), "en")
        XCTAssertEqual(try choose(nil, ["LANG": "xx_YY.UTF-8"]), "en", "an unknown locale is English")
        XCTAssertEqual(try choose("ja_JP.UTF-8", [:]), "ja")
        XCTAssertEqual(try choose("pt-br", [:]), "pt_BR")
        XCTAssertEqual(LanguageChoice.candidates("de_DE.UTF-8"), ["de_DE", "de"])
    }

    func testAnUnknownOptionNamesTheLanguagesThereAre() {
        XCTAssertThrowsError(
            try LanguageChoice.choose(
                option: "xx", environment: ["LANG": "de_DE.UTF-8"],
                available: ["en", "de", "ja"])
        ) { error in
            XCTAssertEqual(
                (error as? UsageError)?.message, "--lang xx: no messages in that language (available: en, de, ja)")
        }
    }
}
