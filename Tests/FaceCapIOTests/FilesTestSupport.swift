import FaceCapCore
import Foundation

/// Tests/Fixtures, located from this file so the tests run from any working directory.
let fixturesDirectory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Fixtures")

func fixturePath(_ name: String) -> String { fixturesDirectory.appendingPathComponent(name).path }

/// A fresh temporary directory, removed when the test's teardown calls `remove()`.
struct TemporaryDirectory {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("facecap-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    func path(_ name: String) -> String { url.appendingPathComponent(name).path }

    func write(_ name: String, _ bytes: [UInt8]) throws -> String {
        let path = path(name)
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    func remove() { try? FileManager.default.removeItem(at: url) }
}

/// The pixel at (x, y) of an 8-bit interleaved frame.
func pixel(_ frame: Frame, _ x: Int, _ y: Int) -> [UInt8] {
    let channels = frame.format == .rgb24 ? 3 : 1
    let start = (y * frame.width + x) * channels
    return Array(frame.data[start..<(start + channels)])
}
