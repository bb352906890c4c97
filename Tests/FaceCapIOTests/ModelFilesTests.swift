import Foundation
import FaceCapCore
@testable import FaceCapIO
import XCTest

final class ModelFilesTests: XCTestCase {
    func testSearchOrderPutsTheEnvironmentFirstThenInstallThenBuildTree() {
        let dirs = ModelFiles.searchDirectories(environment: ["FACECAP_MODEL_DIR": "/m"],
                                                executablePath: "/opt/x/bin/facecap")
        XCTAssertEqual(dirs, ["/m", "/opt/x/bin/../share/facecap/models", "/opt/x/bin/../../models",
                              "/opt/x/bin/../../../models", "models"])
    }

    func testMissingModelSaysToRunMakeModels() {
        XCTAssertThrowsError(try ModelFiles.locate("face_landmark.tflite", directories: ["/nonexistent-dir"])) {
            let message = ($0 as? ModelError)?.message ?? ""
            XCTAssertTrue(message.contains("face_landmark.tflite"), message)
            XCTAssertTrue(message.contains("make models"), message)
            XCTAssertTrue(message.contains("/nonexistent-dir"), message)
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
