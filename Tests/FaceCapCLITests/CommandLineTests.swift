import Foundation
import XCTest

/// Runs the built `facecap` binary as a user would and checks what it prints and how it exits.
final class CommandLineTests: XCTestCase {
    func testHelpVersionAndUsageErrors() throws {
        let help = try runFacecap(["--help"])
        XCTAssertEqual(help.status, 0)
        XCTAssertTrue(help.stdout.contains("Usage:"))
        XCTAssertTrue(help.stdout.contains("--device PATH"))

        let version = try runFacecap(["--version"])
        XCTAssertEqual(version.status, 0)
        XCTAssertTrue(version.stdout.hasPrefix("facecap "))

        let unknown = try runFacecap(["--frobnicate"])
        XCTAssertEqual(unknown.status, 64)
        XCTAssertEqual(
            unknown.stderr, "facecap: unknown option '--frobnicate'\nfacecap: Run 'facecap --help' for more.\n")

        let subcommand = try runFacecap(["record", "--sec", "3"])
        XCTAssertEqual(subcommand.status, 64)
        XCTAssertEqual(
            subcommand.stderr, "facecap: unknown option '--sec'\nfacecap: Run 'facecap record --help' for more.\n")

        let badCommand = try runFacecap(["selfie"])
        XCTAssertEqual(badCommand.status, 64)
        XCTAssertTrue(badCommand.stderr.contains("unknown command 'selfie'"))
    }

    /// A typo in an option or a command gets the name that was meant; a word near nothing gets no guess.
    func testDidYouMeanForOptionsAndCommands() throws {
        let option = try runFacecap(["--inptu", "clip.y4m"])
        XCTAssertEqual(option.status, 64)
        XCTAssertEqual(
            option.stderr,
            "facecap: unknown option '--inptu'; did you mean '--input'?\n"
                + "facecap: Run 'facecap --help' for more.\n")

        let subcommandOption = try runFacecap(["record", "--second", "3", "out.y4m"])
        XCTAssertEqual(subcommandOption.status, 64)
        XCTAssertTrue(
            subcommandOption.stderr.hasPrefix("facecap: unknown option '--second'; did you mean '--seconds'?\n"),
            subcommandOption.stderr)

        let command = try runFacecap(["analyse", "photo.jpg"])
        XCTAssertEqual(command.status, 64)
        XCTAssertEqual(
            command.stderr,
            "facecap: unknown command 'analyse'; did you mean 'analyze'? "
                + "(commands: devices, analyze, record, bench, generate)\nfacecap: Run 'facecap --help' for more.\n")

        let german = try runFacecap(["--lang", "de", "--inptu", "clip.y4m"])
        XCTAssertEqual(german.status, 64)
        XCTAssertTrue(german.stderr.contains("'--input'"), german.stderr)
        XCTAssertFalse(german.stderr.contains("did you mean"), german.stderr)

        let far = try runFacecap(["--frobnicate"])
        XCTAssertFalse(far.stderr.contains("did you mean"), far.stderr)
    }

    /// Errors come in the order a person fixes them: without a terminal, a missing clip is said first (exit 66),
    /// and only with the clip there is the missing terminal said (exit 64).
    func testAMissingClipIsSaidBeforeAMissingTerminal() throws {
        let folder = NSTemporaryDirectory() + "facecap-order-\(getpid())"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let environment = ["TERM": "xterm-256color", "PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"]
            .merging(sanitizerSettings) { $1 }
        let missing = try runFacecap(["--input", folder + "/missing.y4m"], environment: environment)
        XCTAssertEqual(missing.status, 66, missing.stderr)
        XCTAssertTrue(missing.stderr.contains("missing.y4m"), missing.stderr)
        XCTAssertFalse(missing.stderr.contains("terminal"), missing.stderr)

        // A clip that opens: now the terminal is what is wrong (standard input and output are pipes here).
        let clip = TestClips.fixtures.appendingPathComponent("clips/ffmpeg-420.y4m").path
        let terminal = try runFacecap(["--input", clip], environment: environment)
        XCTAssertEqual(terminal.status, 64, terminal.stderr)
        XCTAssertTrue(terminal.stderr.contains("terminal"), terminal.stderr)
    }

    /// --help, a command's --help, a usage error and the list separators speak the chosen language; the manual page
    /// and the completions, installed where English is read, stay English whatever the builder's language.
    func testHelpAndUsageErrorsAreTranslatedAndTheManualPageStaysEnglish() throws {
        let german = ["LANGUAGE": "de", "LANG": "de_DE.UTF-8", "PATH": "/usr/bin:/bin"].merging(sanitizerSettings) {
            $1
        }
        let help = try runFacecap(["--help"], environment: german)
        XCTAssertEqual(help.status, 0, help.stderr)
        XCTAssertTrue(help.stdout.contains("Aufruf:"), help.stdout)
        XCTAssertTrue(help.stdout.contains("einen Clip statt einer Kamera abspielen"), help.stdout)
        XCTAssertTrue(help.stdout.contains("--device PATH"), "option names stay as typed")
        XCTAssertFalse(help.stdout.contains("replay a clip instead of a camera"), help.stdout)

        let french = try runFacecap(
            ["devices", "--help"],
            environment: ["LANG": "fr_FR.UTF-8", "PATH": "/usr/bin:/bin"]
                .merging(sanitizerSettings) { $1 })
        XCTAssertEqual(french.status, 0, french.stderr)
        XCTAssertTrue(french.stdout.hasPrefix("Utilisation\u{00A0}: facecap devices [--json]"), french.stdout)

        // Every command takes --lang, before or after its own options.
        let spanish = try runFacecap(
            ["devices", "--lang", "es", "--help"],
            environment: [
                "LANG": "fr_FR.UTF-8",
                "PATH": "/usr/bin:/bin",
            ].merging(sanitizerSettings) { $1 })
        XCTAssertEqual(spanish.status, 0, spanish.stderr)
        XCTAssertTrue(spanish.stdout.hasPrefix("Uso: facecap devices [--json]"), spanish.stdout)
        let noValue = try runFacecap(["devices", "--lang"], environment: german)
        XCTAssertEqual(noValue.status, 64, noValue.stderr)
        XCTAssertTrue(noValue.stderr.contains("--lang"), noValue.stderr)

        let japanese = try runFacecap(
            ["analyse"],
            environment: ["LANGUAGE": "ja", "PATH": "/usr/bin:/bin"]
                .merging(sanitizerSettings) { $1 })
        XCTAssertEqual(japanese.status, 64)
        XCTAssertTrue(japanese.stderr.contains("devices、analyze、record、bench、generate"), japanese.stderr)

        let manual = try runFacecap(["generate", "man"], environment: german)
        XCTAssertEqual(manual.status, 0, manual.stderr)
        XCTAssertTrue(manual.stdout.contains("replay a clip instead of a camera"), "the manual page is English")
        XCTAssertFalse(manual.stdout.contains("einen Clip"), "no German in the manual page")
        let zsh = try runFacecap(["generate", "zsh"], environment: german)
        XCTAssertTrue(zsh.stdout.contains("[show this help]"), "the completions' descriptions are English")
    }
}
