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
}
