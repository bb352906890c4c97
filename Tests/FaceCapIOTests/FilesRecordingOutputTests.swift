import FaceCapCore
import Foundation
import XCTest

@testable import FaceCapIO

final class FilesRecordingOutputTests: XCTestCase {
    var directory = ""

    override func setUpWithError() throws {
        directory = NSTemporaryDirectory() + "facecap-recording-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: false)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(atPath: directory)
    }

    func testPartialFileIsHiddenBesideTheOutput() {
        XCTAssertEqual(RecordingOutput.partialPath(for: "clip.y4m"), ".clip.y4m.partial")
        XCTAssertEqual(RecordingOutput.partialPath(for: "/a/b/clip.y4m"), "/a/b/.clip.y4m.partial")
    }

    func testAnEmptyRecordingLeavesAnExistingClipAlone() throws {
        let output = directory + "/clip.y4m"
        try Data("earlier clip".utf8).write(to: URL(fileURLWithPath: output))
        let partial = RecordingOutput.partialPath(for: output)
        let writer = try Y4MFileWriter(
            path: partial, width: 4, height: 2, format: .gray, frameRate: 30,
            colorRange: .full)
        try writer.close()
        try RecordingOutput.publish(partial, as: output, keep: writer.framesWritten > 0)
        XCTAssertEqual(try String(contentsOfFile: output, encoding: .utf8), "earlier clip")
        XCTAssertFalse(FileManager.default.fileExists(atPath: partial))
    }

    func testARecordingWithFramesReplacesTheOutputPrivately() throws {
        let output = directory + "/clip.y4m"
        try Data("earlier clip".utf8).write(to: URL(fileURLWithPath: output))
        let partial = RecordingOutput.partialPath(for: output)
        let writer = try Y4MFileWriter(
            path: partial, width: 4, height: 2, format: .gray, frameRate: 30,
            colorRange: .full)
        try writer.write(
            Frame(format: .gray, width: 4, height: 2, colorRange: .full, data: [UInt8](repeating: 9, count: 8)))
        try writer.close()
        try RecordingOutput.publish(partial, as: output, keep: writer.framesWritten > 0)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: output))
        XCTAssertTrue(bytes.starts(with: Data("YUV4MPEG2 W4 H2".utf8)))
        XCTAssertFalse(FileManager.default.fileExists(atPath: partial))
        let mode = try FileManager.default.attributesOfItem(atPath: output)[.posixPermissions] as? Int
        XCTAssertEqual(mode, 0o600)
    }

    func testAFailedRenameSaysWhyAndLeavesNoPartialFile() throws {
        let partial = directory + "/.x.partial"
        try Data("frames".utf8).write(to: URL(fileURLWithPath: partial))
        XCTAssertThrowsError(try RecordingOutput.publish(partial, as: directory + "/missing/x.y4m", keep: true)) {
            error in
            XCTAssertEqual((error as? OutputFileError)?.problem, .directoryMissing)
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: partial))
    }
}
