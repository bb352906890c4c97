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
        XCTAssertEqual(unknown.stderr, "facecap: unknown option '--frobnicate'\nfacecap: Run 'facecap --help' for more.\n")

        let subcommand = try runFacecap(["record", "--sec", "3"])
        XCTAssertEqual(subcommand.status, 64)
        XCTAssertEqual(subcommand.stderr, "facecap: unknown option '--sec'\nfacecap: Run 'facecap record --help' for more.\n")

        let badCommand = try runFacecap(["selfie"])
        XCTAssertEqual(badCommand.status, 64)
        XCTAssertTrue(badCommand.stderr.contains("unknown command 'selfie'"))
    }
}
