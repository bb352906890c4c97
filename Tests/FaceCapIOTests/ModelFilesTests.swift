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

    func testTheFetchedModelsLoad() throws {
        let models = try ModelFiles.loadFaceModels()
        XCTAssertEqual(models.detector.inputs.count, 1)
        XCTAssertEqual(models.landmarks.outputs.count, 2)
    }
}
