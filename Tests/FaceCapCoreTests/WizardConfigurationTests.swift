import XCTest

@testable import FaceCapCore

final class WizardConfigurationTests: XCTestCase {
    func configuration(_ arguments: [String], environment: [String: String] = [:]) throws -> WizardConfiguration {
        try WizardConfiguration(
            parseArguments(arguments, options: WizardConfiguration.options), environment: environment)
    }

    func usageMessage(_ arguments: [String]) -> String? {
        do {
            _ = try configuration(arguments)
            return nil
        } catch {
            return (error as? UsageError)?.message
        }
    }

    func testDefaultsFollowTheContract() throws {
        let defaults = try configuration([])
        XCTAssertEqual(defaults.source, .camera(path: nil))
        XCTAssertEqual(defaults.outputDirectory, "facecap-out")
        XCTAssertEqual(defaults.attempts, 3)
        XCTAssertEqual(defaults.manualAfter, 30)
        XCTAssertEqual(defaults.width, 640)
        XCTAssertEqual(defaults.height, 480)
        XCTAssertEqual(defaults.frameRate, 30)
        XCTAssertTrue(defaults.mirror)
        XCTAssertTrue(defaults.showTutorial)
        XCTAssertNil(defaults.serverURL)
    }

    func testOptionsAreApplied() throws {
        let c = try configuration([
            "-i", "clip.y4m", "--loop", "-o", "out", "--attempts=5", "--manual-after", "12.5",
            "--no-tutorial", "--no-mirror", "--color", "256", "--size", "1280x720",
            "--fps", "15", "--plain", "--events", "-", "--server", "http://127.0.0.1:8080/v",
        ])
        XCTAssertEqual(c.source, .clip(path: "clip.y4m", loop: true))
        XCTAssertEqual(c.outputDirectory, "out")
        XCTAssertEqual(c.attempts, 5)
        XCTAssertEqual(c.manualAfter, 12.5)
        XCTAssertFalse(c.showTutorial)
        XCTAssertFalse(c.mirror)
        XCTAssertEqual(c.color, .colors256)
        XCTAssertEqual(c.width, 1280)
        XCTAssertEqual(c.frameRate, 15)
        XCTAssertEqual(c.eventsPath, "-")
        XCTAssertEqual(c.serverURL, "http://127.0.0.1:8080/v")
    }

    func testGraphicsIsAskedOfTheTerminalUnlessChosen() throws {
        XCTAssertEqual(try configuration([]).graphics, .auto)
        for mode in GraphicsMode.allCases {
            XCTAssertEqual(try configuration(["--graphics", mode.rawValue]).graphics, mode)
        }
        XCTAssertEqual(
            usageMessage(["--graphics", "iterm"]), "--graphics takes auto, kitty, sixel or cells, not 'iterm'")
    }

    func testNoColorAndLangFromTheEnvironment() throws {
        XCTAssertEqual(try configuration([], environment: ["NO_COLOR": "1"]).color, ColorMode.none)
        XCTAssertEqual(try configuration(["--color", "truecolor"], environment: ["NO_COLOR": "1"]).color, .truecolor)
        XCTAssertEqual(try configuration([], environment: ["LANG": "en_GB.UTF-8"]).language, "en")
        XCTAssertEqual(try configuration([], environment: ["LANG": "xx_YY.UTF-8"]).language, "en")
        for language in WizardConfiguration.languages {
            XCTAssertEqual(
                try configuration(["--lang", language], environment: ["LANG": "xx_YY.UTF-8"]).language,
                language)
        }
    }

    func testBadCombinationsAndValuesSayWhatIsWrong() {
        XCTAssertEqual(usageMessage(["--loop"]), "--loop goes with --input FILE.y4m")
        XCTAssertEqual(
            usageMessage(["-i", "a.y4m", "-d", "/dev/video0"]),
            "--input and --device exclude each other: replay a clip or use a camera")
        XCTAssertEqual(
            usageMessage(["--events", "-"]),
            "--events - (standard output) needs --plain: the full-screen UI owns standard output")
        XCTAssertEqual(
            usageMessage(["--color", "rainbow"]), "--color takes auto, truecolor, 256, 16 or none, not 'rainbow'")
        XCTAssertEqual(usageMessage(["--attempts", "0"]), "--attempts takes a whole number from 1 to 10, not '0'")
        XCTAssertEqual(
            usageMessage(["--lang", "xx"]),
            "--lang xx: no messages in that language (available: "
                + WizardConfiguration.languages.joined(separator: ", ") + ")")
        XCTAssertNotNil(usageMessage(["clip.y4m"]))
        XCTAssertNotNil(usageMessage(["--size", "0x0"]))
    }

    func testServerNeedsHTTPSUnlessLoopbackOrInsecure() {
        XCTAssertNil(usageMessage(["--server", "https://id.example.org/selfie"]))
        XCTAssertNil(usageMessage(["--server", "http://localhost:9000/"]))
        XCTAssertNil(usageMessage(["--server", "http://[::1]:9000/"]))
        XCTAssertNil(usageMessage(["--server", "http://10.1.2.3/", "--insecure-http"]))
        XCTAssertEqual(
            usageMessage(["--server", "http://id.example.org/"]),
            "--server must use https:// for a host that is not this machine (or add --insecure-http)")
        XCTAssertNil(usageMessage(["--server", "http://127.0.0.1:8080/v"]))
        for name in ["127.evil.example", "127.0.0.1.example.org", "127.0.0", "127.0.0.256"] {
            XCTAssertNotNil(usageMessage(["--server", "http://\(name)/"]), "\(name) is a name, not loopback")
        }
        XCTAssertNotNil(usageMessage(["--server", "ftp://x"]))
        XCTAssertNotNil(usageMessage(["--server", "https:///path"]))
    }

    func testSizeAndFpsWithAClipAreAcceptedButSaidToBeIgnored() throws {
        XCTAssertEqual(
            try configuration(["--input", "c.y4m", "--size", "320x240", "--fps", "15"]).warnings,
            [
                "--size and --fps ask the camera for a mode; a clip plays at its own size and frame rate, so they "
                    + "are ignored"
            ])
        XCTAssertEqual(
            try configuration(["--input", "c.y4m", "--fps", "15"]).warnings,
            ["--fps asks the camera for a mode; a clip plays at its own size and frame rate, so it is ignored"])
        XCTAssertEqual(try configuration(["--size", "320x240", "--fps", "15"]).warnings, [], "a camera uses them")
        XCTAssertEqual(try configuration(["--input", "c.y4m"]).warnings, [])
        XCTAssertEqual(
            try configuration(["--input", "c.y4m", "--size", "320x240", "--fps", "15", "--format", "NV12"])
                .warnings,
            [
                "--size, --fps and --format ask the camera for a mode; a clip plays at its own size and frame "
                    + "rate, so they are ignored"
            ])
    }

    /// --format FOURCC (issue 31): as `facecap devices` writes formats, one to four printable characters.
    func testFormatTakesAFourCharacterCode() throws {
        XCTAssertEqual(try configuration(["--format", "NV12"]).pixelFormat, "NV12")
        XCTAssertEqual(try configuration(["--format", "Y10"]).pixelFormat, "Y10")
        XCTAssertNil(try configuration([]).pixelFormat, "facecap chooses")
        XCTAssertEqual(
            usageMessage(["--format", "YUYV2"]),
            "--format takes a format of one to four characters such as YUYV, NV12 or MJPG, not 'YUYV2'")
        XCTAssertNotNil(usageMessage(["--format", ""]))
        XCTAssertNotNil(usageMessage(["--format", "Y U"]))
    }

    func testARepeatedOptionIsAUsageError() {
        XCTAssertEqual(
            usageMessage(["--input", "a.y4m", "--input", "b.y4m"]),
            "-i/--input is given more than once; give each option once")
        XCTAssertEqual(usageMessage(["--plain", "--plain"]), "--plain is given more than once; give each option once")
    }
}
