import Foundation
import XCTest

/// A test case with a fresh folder of its own for each test (clips, output, events, server records), removed
/// afterwards. The folder is private (0700): photos and reports with face landmarks are written there, as facecap
/// writes its own.
class ScratchDirectoryTestCase: XCTestCase {
    var directory: URL!

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("facecap-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(
            at: directory, withIntermediateDirectories: true,
            attributes: [.posixPermissions: 0o700])
    }

    override func tearDown() {
        try? FileManager.default.removeItem(at: directory)
    }

    func path(_ name: String) -> String { directory.appendingPathComponent(name).path }

    /// Writes `data` to `name` in the folder and returns its path.
    func write(_ name: String, _ data: Data) throws -> String {
        try data.write(to: URL(fileURLWithPath: path(name)))
        return path(name)
    }
}
