import FaceCapCore
import Foundation
import XCTest

@testable import FaceCapIO

final class ModelFilesTests: XCTestCase {
    func testSearchOrderIsInstallThenBuildTreeThenHere() {
        XCTAssertEqual(
            ModelFiles.searchDirectories(environment: [:], executablePath: "/opt/x/bin/facecap"),
            ["/opt/x/share/facecap/models", "/opt/models", "/models", "./models"])
        XCTAssertEqual(
            ModelFiles.searchDirectories(environment: [:], executablePath: "/usr/bin/facecap"),
            ["/usr/share/facecap/models", "/models", "./models"], "the same folder is listed once")
        XCTAssertEqual(ModelFiles.searchDirectories(environment: [:], executablePath: nil), ["./models"])
    }

    func testFacecapModelDirIsTheOnlyFolderAndMustExist() throws {
        XCTAssertEqual(
            ModelFiles.searchDirectories(
                environment: ["FACECAP_MODEL_DIR": "/m"],
                executablePath: "/usr/bin/facecap"), ["/m"])
        XCTAssertThrowsError(
            try ModelFiles.locate(
                "face_landmark.tflite", directories: ["/nowhere"],
                environment: ["FACECAP_MODEL_DIR": "/nowhere"])
        ) {
            XCTAssertEqual(
                ($0 as? ModelError)?.message,
                "cannot use the face model folder /nowhere: FACECAP_MODEL_DIR "
                    + "names it, but there is no such folder. Set FACECAP_MODEL_DIR to the folder that holds "
                    + "the *.tflite models, or unset it to use the installed ones.")
        }
        // Even when the model is found elsewhere: an explicit folder that is not there is never ignored.
        let models = try XCTUnwrap(ProcessInfo.processInfo.environment["FACECAP_MODEL_DIR"], "make test exports it")
        XCTAssertThrowsError(
            try ModelFiles.locate(
                "face_landmark.tflite", directories: [models],
                environment: ["FACECAP_MODEL_DIR": "/nowhere"]))
        XCTAssertEqual(
            try ModelFiles.locate(
                "face_landmark.tflite", directories: [models],
                environment: ["FACECAP_MODEL_DIR": models]),
            models + "/face_landmark.tflite")
    }

    func testMissingModelSaysWhereItLookedAndHowToPointAtTheModels() {
        XCTAssertThrowsError(
            try ModelFiles.locate(
                "face_landmark.tflite", directories: ["/nonexistent-dir", "./no-models-here"],
                environment: [:])
        ) {
            let message = ($0 as? ModelError)?.message ?? ""
            XCTAssertTrue(
                message.hasPrefix(
                    "cannot use the face model face_landmark.tflite: not found (looked in "
                        + "/nonexistent-dir, ./no-models-here). Set FACECAP_MODEL_DIR"), message)
            XCTAssertTrue(message.contains("share/facecap/models"), message)
            XCTAssertTrue(message.contains("make models"), message)
        }
    }

    func testUnreadableFileIsAnErrorNamingIt() {
        XCTAssertThrowsError(try ModelFiles.load(path: "/nonexistent-dir/x.tflite")) {
            XCTAssertTrue(($0 as? ModelError)?.message.contains("/nonexistent-dir/x.tflite") ?? false)
        }
    }

    func testAHugeFileIsRefusedWithAReason() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("facecap-huge-\(getpid()).tflite").path
        XCTAssertTrue(FileManager.default.createFile(atPath: path, contents: nil))
        defer { unlink(path) }
        XCTAssertEqual(truncate(path, off_t(65 << 20)), 0)  // sparse: no disk used
        XCTAssertThrowsError(try ModelFiles.load(path: path)) {
            let message = ($0 as? ModelError)?.message ?? ""
            XCTAssertTrue(message.contains(path), message)
            XCTAssertTrue(message.contains("larger than 64 MB"), message)
            XCTAssertTrue(message.contains("make models"), message)
        }
    }

    func testTheFetchedModelsLoad() throws {
        let models = try ModelFiles.loadFaceModels()
        XCTAssertEqual(models.detector.inputs.count, 1)
        XCTAssertEqual(models.landmarks.outputs.count, 2)
    }
}
