import XCTest
@testable import FaceCapCore

final class ArgumentsTests: XCTestCase {
    let options = [
        OptionSpec("device", short: "d", value: "PATH", help: ""),
        OptionSpec("json", help: ""),
        OptionSpec("loop", short: "l", help: ""),
        OptionSpec("seconds", value: "N", help: ""),
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
        for arguments in [["--device", "a", "--device", "b"], ["-d", "a", "--device=b"], ["-da", "-db"],
                          ["--json", "--json"], ["-l", "--loop"], ["-ll"]] {
            XCTAssertThrowsError(try parseArguments(arguments, options: options), "\(arguments)") { error in
                let message = (error as? UsageError)?.message ?? ""
                XCTAssertTrue(message.hasSuffix("is given more than once; give each option once"), message)
            }
        }
        XCTAssertThrowsError(try parseArguments(["-d", "a", "-d", "b"], options: options)) { error in
            XCTAssertEqual(error as? UsageError, UsageError("-d/--device is given more than once; give each option once"))
        }
        XCTAssertNoThrow(try parseArguments(["--device", "a", "--", "--device"], options: options),
                         "after -- it is a file name")
    }

    func testHelpColumnsWrapWithinTheWidth() {
        let text = formatOptions([
            OptionSpec("device", short: "d", value: "PATH", help: "camera (default: the first video-capture node)"),
            OptionSpec("a-very-long-option-name", value: "SOMETHING", help: "its text goes on the next line"),
        ], width: 40)
        XCTAssertEqual(text.split(separator: "\n"), [
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
}
