import XCTest

@testable import FaceCapCore

final class ArgumentsTests: XCTestCase {
    let options = [
        OptionSpec("device", short: "d", value: "PATH", text: ""),
        OptionSpec("json", text: ""),
        OptionSpec("loop", short: "l", text: ""),
        OptionSpec("seconds", value: "N", text: ""),
    ]

    func testLongShortAndInlineValues() throws {
        let parsed = try parseArguments(["--device", "/dev/video2", "--seconds=5", "-l", "out.y4m"], options: options)
        XCTAssertEqual(parsed.value("device"), "/dev/video2")
        XCTAssertEqual(try parsed.int("seconds", in: 1...3600), 5)
        XCTAssertTrue(parsed.has("loop"))
        XCTAssertFalse(parsed.has("json"))
        XCTAssertEqual(parsed.positionals, ["out.y4m"])
    }

    func testShortValueAttachedAndBundled() throws {
        let parsed = try parseArguments(["-ld/dev/video1"], options: options)
        XCTAssertTrue(parsed.has("loop"))
        XCTAssertEqual(parsed.value("device"), "/dev/video1")
    }

    func testDoubleDashEndsOptions() throws {
        let parsed = try parseArguments(["--", "--json", "-"], options: options)
        XCTAssertFalse(parsed.has("json"))
        XCTAssertEqual(parsed.positionals, ["--json", "-"])
    }

    func testErrorsNameTheProblem() {
        XCTAssertThrowsError(try parseArguments(["--colour"], options: options)) { error in
            XCTAssertEqual(error as? UsageError, UsageError("unknown option '--colour'"))
        }
        XCTAssertThrowsError(try parseArguments(["--device"], options: options)) { error in
            XCTAssertEqual(error as? UsageError, UsageError("--device needs a value (PATH)"))
        }
        XCTAssertThrowsError(try parseArguments(["--json=yes"], options: options)) { error in
            XCTAssertEqual(error as? UsageError, UsageError("--json takes no value"))
        }
        XCTAssertThrowsError(try parseArguments(["-x"], options: options))
    }

    func testNumbersAreRangeChecked() throws {
        let parsed = try parseArguments(["--seconds", "0"], options: options)
        XCTAssertThrowsError(try parsed.int("seconds", in: 1...3600)) { error in
            XCTAssertEqual((error as? UsageError)?.message, "--seconds takes a whole number from 1 to 3600, not '0'")
        }
        let sized = try parseArguments(["--device", "640x480"], options: options)
        XCTAssertEqual(try sized.size("device")?.width, 640)
        let bad = try parseArguments(["--device", "640by480"], options: options)
        XCTAssertThrowsError(try bad.size("device"))
    }

    func testARepeatedOptionIsAUsageErrorInAnySpelling() {
        for arguments in [
            ["--device", "a", "--device", "b"], ["-d", "a", "--device=b"], ["-da", "-db"],
            ["--json", "--json"], ["-l", "--loop"], ["-ll"],
        ] {
            XCTAssertThrowsError(try parseArguments(arguments, options: options), "\(arguments)") { error in
                let message = (error as? UsageError)?.message ?? ""
                XCTAssertTrue(message.hasSuffix("is given more than once; give each option once"), message)
            }
        }
        XCTAssertThrowsError(try parseArguments(["-d", "a", "-d", "b"], options: options)) { error in
            XCTAssertEqual(
                error as? UsageError, UsageError("-d/--device is given more than once; give each option once"))
        }
        XCTAssertNoThrow(
            try parseArguments(["--device", "a", "--", "--device"], options: options),
            "after -- it is a file name")
    }

    func testHelpColumnsWrapWithinTheWidth() {
        let text = formatOptions(
            [
                OptionSpec("device", short: "d", value: "PATH", text: "camera (default: the first video-capture node)"),
                OptionSpec("a-very-long-option-name", value: "SOMETHING", text: "its text goes on the next line"),
            ], width: 40)
        XCTAssertEqual(
            text.split(separator: "\n"),
            [
                "  -d, --device PATH  camera (default:",
                "                     the first",
                "                     video-capture node)",
                "      --a-very-long-option-name SOMETHING",
                "                     its text goes on",
                "                     the next line",
            ])
        XCTAssertEqual(wrapWords("one two three", width: 7), ["one two", "three"])
        XCTAssertEqual(wrapWords("unbreakable-word x", width: 5), ["unbreakable-word", "x"])
        XCTAssertEqual(wrapWords("", width: 5), [""])
    }

    /// The name meant by a typo: one edit for a short word, two for a longer one, none when two are as near.
    func testNearestNameForATypo() {
        let options = WizardConfiguration.options.map { "--" + $0.long }
        XCTAssertEqual(nearest("--inptu", among: options), "--input")
        XCTAssertEqual(nearest("--no-mirorr", among: options), "--no-mirror")
        XCTAssertEqual(nearest("--Plain", among: options), "--plain")
        XCTAssertNil(nearest("--frobnicate", among: options))
        XCTAssertEqual(nearest("analyse", among: ["devices", "analyze", "record", "bench", "generate"]), "analyze")
        XCTAssertEqual(nearest("devcies", among: ["devices", "analyze", "record", "bench", "generate"]), "devices")
        XCTAssertNil(nearest("selfie", among: ["devices", "analyze", "record", "bench", "generate"]))
        XCTAssertNil(nearest("ab", among: ["ax", "ay"]), "two names as near: no guess")
        XCTAssertThrowsError(try parseArguments(["--lop"], options: WizardConfiguration.options)) { error in
            XCTAssertEqual((error as? UsageError)?.message, "unknown option '--lop'; did you mean '--loop'?")
        }
    }

    /// Help text in Japanese (no spaces, double-width) wraps within its width, between characters, and never
    /// starts a line with a closing mark.
    func testWrapWordsMeasuresDisplayWidthAndBreaksBetweenWideCharacters() {
        let text = "ループバック以外のホストへの平文 http の --server を許可（写真のみ。FACECAP_TOKEN とは不可）"
        let lines = wrapWords(text, width: 30)
        XCTAssertGreaterThan(lines.count, 2)
        for line in lines {
            XCTAssertLessThanOrEqual(displayWidth(line), 30, line)
            XCTAssertFalse(["、", "。", "）"].contains(line.first), line)
        }
        XCTAssertEqual(
            lines.joined().replacingOccurrences(of: " ", with: ""), text.replacingOccurrences(of: " ", with: ""))
        XCTAssertEqual(displayWidth("写真"), 4)
        XCTAssertEqual(wrapWords("one two three", width: 7), ["one two", "three"])
    }
}
