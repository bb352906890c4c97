import Foundation
import XCTest

@testable import FaceCapCore

/// The language as the binary chooses it: `--lang`, then LANGUAGE, LC_ALL, LC_MESSAGES and LANG, from catalogues
/// in FACECAP_LOCALE_DIR (compiled here by msgfmt from marked copies of every message, so the test does not
/// depend on what the translations say).
final class WizardLanguageTests: ScratchDirectoryTestCase {
    func catalogues(_ languages: [String]) throws -> String {
        let root = path("locale")
        for language in languages {
            var po = """
                msgid ""
                msgstr ""
                "Language: \(language)\\n"
                "Content-Type: text/plain; charset=UTF-8\\n"
                "Plural-Forms: nplurals=2; plural=(n != 1);\\n"

                """
            for id in MessageID.allCases {
                po += "\nmsgctxt \(GettextTemplate.quoted(id.rawValue))\nmsgid \(GettextTemplate.quoted(id.english))\n"
                if let plural = id.englishPlural {
                    po += "msgid_plural \(GettextTemplate.quoted(plural))\n"
                    po += "msgstr[0] \(GettextTemplate.quoted("[\(language)] " + id.english))\n"
                    po += "msgstr[1] \(GettextTemplate.quoted("[\(language)] " + plural))\n"
                } else {
                    po += "msgstr \(GettextTemplate.quoted("[\(language)] " + id.english))\n"
                }
            }
            let source = path("\(language).po")
            try po.write(toFile: source, atomically: true, encoding: .utf8)
            try FileManager.default.createDirectory(
                atPath: root + "/\(language)/LC_MESSAGES", withIntermediateDirectories: true)
            let result = try runProgram(
                "/usr/bin/msgfmt", ["--check", "-o", root + "/\(language)/LC_MESSAGES/facecap.mo", source])
            XCTAssertEqual(result.status, 0, result.stderr)
        }
        return root
    }

    /// facecap with no camera to find: one screen line, one report, exit 69, quickly.
    func noCamera(_ arguments: [String] = [], _ environment: [String: String]) throws -> ProcessResult {
        var env = [
            "PATH": "/usr/bin:/bin",
            "FACECAP_MODEL_DIR": ProcessInfo.processInfo.environment["FACECAP_MODEL_DIR"] ?? "",
        ]
        env.merge(environment) { $1 }
        return try runFacecap(
            ["--plain", "--no-tutorial", "--device", "/dev/facecap-no-such-camera"] + arguments,
            stdin: Data(), environment: env, timeout: 60)
    }

    func testTheOptionThenTheEnvironmentChooseTheLanguage() throws {
        let locale = try catalogues(["de", "es", "fr"])
        func language(_ arguments: [String] = [], _ environment: [String: String]) throws -> String {
            let result = try noCamera(arguments, ["FACECAP_LOCALE_DIR": locale].merging(environment) { $1 })
            XCTAssertEqual(result.status, 69, result.stderr)
            for language in ["de", "es", "fr"] where result.stderr.contains("[\(language)] ") { return language }
            return "en"
        }
        XCTAssertEqual(try language(["--lang", "es"], ["LANGUAGE": "de", "LANG": "fr_FR.UTF-8"]), "es")
        XCTAssertEqual(try language([], ["LANG": "fr_FR.UTF-8"]), "fr")
        XCTAssertEqual(try language([], ["LANGUAGE": "de", "LANG": "fr_FR.UTF-8"]), "de")
        XCTAssertEqual(
            try language([], ["LC_ALL": "es_ES.UTF-8", "LC_MESSAGES": "de_DE.UTF-8", "LANG": "fr_FR.UTF-8"]), "es")
        XCTAssertEqual(try language([], ["LC_MESSAGES": "de_DE.UTF-8", "LANG": "fr_FR.UTF-8"]), "de")
        XCTAssertEqual(try language([], ["LC_ALL": "C", "LANG": "de_DE.UTF-8"]), "en")
        XCTAssertEqual(try language([], ["LANG": "ja_JP.UTF-8"]), "en", "no catalogue: English")
        let unknown = try noCamera(["--lang", "xx"], ["FACECAP_LOCALE_DIR": locale, "LANG": "de_DE.UTF-8"])
        XCTAssertEqual(unknown.status, 64)
        XCTAssertTrue(
            unknown.stderr.contains("--lang xx: no messages in that language (available: en, de, es, fr)"),
            unknown.stderr)
        XCTAssertTrue(unknown.stderr.contains("[de] "), "the usage error itself is in the environment's language")
    }

    func testAMessageATranslationLacksIsEnglish() throws {
        let locale = try catalogues(["de"])
        // A catalogue with one message only: the rest falls back to English alone.
        let po = """
            msgid ""
            msgstr "Content-Type: text/plain; charset=UTF-8\\n"

            msgctxt "usage.seeHelp"
            msgid "Run '{command}' for more."
            msgstr "Mehr mit '{command}'."

            """
        try po.write(toFile: path("partial.po"), atomically: true, encoding: .utf8)
        let mo = locale + "/de/LC_MESSAGES/facecap.mo"
        XCTAssertEqual(try runProgram("/usr/bin/msgfmt", ["-o", mo, path("partial.po")]).status, 0)
        let result = try runFacecap(["--bogus"], environment: ["FACECAP_LOCALE_DIR": locale, "LANG": "de_DE.UTF-8"])
        XCTAssertEqual(result.status, 64)
        XCTAssertEqual(result.stderr, "facecap: unknown option '--bogus'\nfacecap: Mehr mit 'facecap --help'.\n")
    }

    func testEventsAreByteForByteTheSameInEveryLanguage() throws {
        let locale = try catalogues(["de"])
        let clip = try write("approach.y4m", TestClips.approachAndHold(frames: 90))
        func run(_ language: String) throws -> (events: [String], lines: String, status: Int32) {
            let result = try runFacecap(
                [
                    "--plain", "--input", clip, "--output", path("out-\(language)"),
                    "--events", "-", "--lang", language,
                ], stdin: Data(),
                environment: [
                    "FACECAP_LOCALE_DIR": locale, "PATH": "/usr/bin:/bin",
                    "FACECAP_MODEL_DIR": ProcessInfo.processInfo.environment["FACECAP_MODEL_DIR"] ?? "",
                ],
                timeout: 60)
            // Everything but the time and the photo's name (which has the time in it).
            let events = result.stdout.split(separator: "\n").map {
                $0.replacingOccurrences(of: #""t":[0-9.]+,"#, with: "", options: .regularExpression)
                    .replacingOccurrences(
                        of: #"out-[a-z]+/facecap-[0-9-]+"#, with: "PHOTO", options: .regularExpression)
            }
            return (events, result.stderr, result.status)
        }
        let english = try run("en"), german = try run("de")
        XCTAssertEqual(english.status, 0, english.lines)
        XCTAssertEqual(german.status, english.status)
        XCTAssertGreaterThan(english.events.count, 5)
        XCTAssertEqual(german.events, english.events)
        XCTAssertTrue(english.lines.contains("[success] Selfie accepted"), english.lines)
        XCTAssertTrue(german.lines.contains("[success] [de] Selfie accepted"), german.lines)
        XCTAssertFalse(german.lines.contains("[success] Selfie accepted"))
    }
}
