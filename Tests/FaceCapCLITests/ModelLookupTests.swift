import Foundation
import XCTest

/// Where the face models are looked for, as a person who copied the binary or mistyped FACECAP_MODEL_DIR sees it.
final class ModelLookupTests: ScratchDirectoryTestCase {
    private var photo: String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/sergey.png").path
    }

    private func environment(modelDir: String?) -> [String: String] {
        var environment = ProcessInfo.processInfo.environment
        environment["FACECAP_MODEL_DIR"] = modelDir
        return environment
    }

    func testAFacecapModelDirThatDoesNotExistIsAnErrorThatNamesIt() throws {
        let missing = directory.appendingPathComponent("no-such-folder").path
        let result = try runFacecap(["analyze", photo], environment: environment(modelDir: missing))
        XCTAssertEqual(result.status, 1)
        XCTAssertEqual(result.stdout, "")
        XCTAssertEqual(
            result.stderr,
            "facecap: cannot use the face model folder \(missing): FACECAP_MODEL_DIR names it, "
                + "but there is no such folder. Set FACECAP_MODEL_DIR to the folder that holds the *.tflite "
                + "models, or unset it to use the installed ones.\n")
        // The wizard checks the same before it starts.
        let clip = directory.appendingPathComponent("clip.y4m")
        try TestClips.empty(frames: 1).write(to: clip)
        let wizard = try runFacecap(["--plain", "--input", clip.path], environment: environment(modelDir: missing))
        XCTAssertEqual(wizard.status, 1)
        XCTAssertTrue(wizard.stderr.hasPrefix("facecap: cannot use the face model folder \(missing)"), wizard.stderr)
    }

    /// A model folder from before the palm detector (issue 32): `analyze` and the wizard name the one missing file
    /// and `make models`, as for any other model, instead of failing some other way.
    func testAFolderWithoutThePalmModelNamesItAndMakeModels() throws {
        let models = try XCTUnwrap(ProcessInfo.processInfo.environment["FACECAP_MODEL_DIR"], "FACECAP_MODEL_DIR unset")
        let folder = directory.appendingPathComponent("old-models")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for file in [
            "face_detection_short_range.tflite", "face_landmark.tflite", "iris_landmark.tflite",
            "hand_landmark_full.tflite",
        ] {
            try FileManager.default.createSymbolicLink(
                atPath: folder.appendingPathComponent(file).path,
                withDestinationPath: models + "/" + file)
        }
        let result = try runFacecap(["analyze", photo], environment: environment(modelDir: folder.path))
        XCTAssertEqual(result.status, 1)
        XCTAssertEqual(result.stdout, "")
        XCTAssertTrue(result.stderr.contains("palm_detection_full.tflite"), result.stderr)
        XCTAssertTrue(result.stderr.contains("'make models'"), result.stderr)
        let clip = directory.appendingPathComponent("clip.y4m")
        try TestClips.empty(frames: 1).write(to: clip)
        let wizard = try runFacecap(["--plain", "--input", clip.path], environment: environment(modelDir: folder.path))
        XCTAssertEqual(wizard.status, 1)
        XCTAssertTrue(wizard.stderr.contains("palm_detection_full.tflite"), wizard.stderr)
    }

    func testACopiedBinarySaysWhereItLookedAndHowToPointAtTheModels() throws {
        let bin = directory.appendingPathComponent("bin")
        try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
        let copy = bin.appendingPathComponent("facecap")
        try FileManager.default.copyItem(at: try facecapBinary(), to: copy)
        let process = Process()
        process.executableURL = copy
        process.arguments = ["analyze", photo]
        process.currentDirectoryURL = directory
        process.environment = environment(modelDir: nil)
        let err = Pipe()
        process.standardError = err
        process.standardOutput = Pipe()
        try process.run()
        let stderr = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 1, stderr)
        let root = directory.resolvingSymlinksInPath().path
        XCTAssertTrue(stderr.contains("not found (looked in \(root)/share/facecap/models, "), stderr)
        XCTAssertTrue(stderr.contains("./models)"), stderr)
        XCTAssertTrue(stderr.contains("Set FACECAP_MODEL_DIR to the folder that holds the *.tflite models"), stderr)
        XCTAssertEqual(stderr.split(separator: "\n").count, 1, "one line")

        // Pointed at the models, the same copy works.
        let pointed = try runFacecap(
            ["analyze", photo],
            environment: environment(
                modelDir: ProcessInfo.processInfo.environment["FACECAP_MODEL_DIR"]))
        XCTAssertEqual(pointed.status, 0, pointed.stderr)
    }
}
