@testable import FaceCapCore
import Foundation
import XCTest

/// Locations and loaders shared by the inference, detector and landmark tests.
enum TestData {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    static let fixtures = repository.appendingPathComponent("Tests/Fixtures")

    /// The models `make models` fetched ($FACECAP_MODEL_DIR, which make exports, else ./models).
    static func modelPath(_ file: String) -> String {
        let dir = ProcessInfo.processInfo.environment["FACECAP_MODEL_DIR"]
            ?? repository.appendingPathComponent("models").path
        return dir + "/" + file
    }

    static func modelBytes(_ file: String) throws -> [UInt8] {
        let path = modelPath(file)
        guard let data = FileManager.default.contents(atPath: path) else {
            throw TestDataMissing(what: "\(path) (run the tests with 'make test', which fetches the models)")
        }
        return [UInt8](data)
    }

    nonisolated(unsafe) private static var cache: [String: TFLiteModel] = [:]
    private static let lock = NSLock()

    static func model(_ file: String) throws -> TFLiteModel {
        lock.lock()
        defer { lock.unlock() }
        if let model = cache[file] { return model }
        let model = try TFLiteModel(bytes: try modelBytes(file), name: file)
        cache[file] = model
        return model
    }

    static var detector: TFLiteModel { get throws { try model("face_detection_short_range.tflite") } }
    static var landmarks: TFLiteModel { get throws { try model("face_landmark.tflite") } }

    /// A raw little-endian float32 tensor from Tests/Fixtures/golden.
    static func golden(_ name: String) throws -> [Float] {
        let url = fixtures.appendingPathComponent("golden/" + name)
        guard let data = FileManager.default.contents(atPath: url.path) else {
            throw TestDataMissing(what: url.path)
        }
        return data.withUnsafeBytes { raw in
            (0..<(data.count / 4)).map { Float(bitPattern: UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: $0 * 4, as: UInt32.self))) }
        }
    }
}

struct TestDataMissing: Error, CustomStringConvertible {
    var what: String
    var description: String { "missing test data: \(what)" }
}

/// Largest absolute difference between two equally long arrays.
func maxAbsDifference<S: Sequence, T: Sequence>(_ a: S, _ b: T) -> Float where S.Element == Float, T.Element == Float {
    zip(a, b).reduce(0) { max($0, abs($1.0 - $1.1)) }
}
