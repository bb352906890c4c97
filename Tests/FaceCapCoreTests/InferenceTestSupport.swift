import Foundation
import XCTest

@testable import FaceCapCore

/// Locations and loaders shared by the inference, detector and landmark tests.
enum TestData {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    static let fixtures = repository.appendingPathComponent("Tests/Fixtures")

    /// The models `make models` fetched ($FACECAP_MODEL_DIR, which make exports, else ./models).
    static func modelPath(_ file: String) -> String {
        let dir =
            ProcessInfo.processInfo.environment["FACECAP_MODEL_DIR"]
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
    static var iris: TFLiteModel { get throws { try model("iris_landmark.tflite") } }
    static var hand: TFLiteModel { get throws { try model("hand_landmark_full.tflite") } }
    static var palm: TFLiteModel { get throws { try model("palm_detection_full.tflite") } }

    /// A raw little-endian float32 tensor from Tests/Fixtures/golden.
    static func golden(_ name: String) throws -> [Float] {
        let url = fixtures.appendingPathComponent("golden/" + name)
        guard let data = FileManager.default.contents(atPath: url.path) else {
            throw TestDataMissing(what: url.path)
        }
        return data.withUnsafeBytes { raw in
            (0..<(data.count / 4)).map {
                Float(bitPattern: UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: $0 * 4, as: UInt32.self)))
            }
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

/// sergey_expected.json: the reference pipeline's detections, ROI and landmarks for sergey.png (600×600).
struct SergeyExpected {
    var size: (width: Int, height: Int)
    var score: Float
    /// Box corners (xmin, ymin, xmax, ymax) and keypoints, normalised.
    var box: [Float]
    var keypoints: [Point2]
    var roi: (cx: Float, cy: Float, w: Float, h: Float, rotation: Float)
    var faceFlag: Float
    var landmarks: [SIMD3<Float>]

    static func load() throws -> SergeyExpected {
        let url = TestData.fixtures.appendingPathComponent("golden/sergey_expected.json")
        guard let data = FileManager.default.contents(atPath: url.path),
            let json = try JSONSerialization.jsonObject(with: data) as? [String: Any],
            let size = json["size"] as? [Int], let detections = json["detections"] as? [[String: Any]],
            let first = detections.first, let box = first["box_xyxy"] as? [Double],
            let keypoints = first["keypoints"] as? [[Double]], let score = first["score"] as? Double,
            let roi = json["roi"] as? [String: Double], let flag = json["face_flag_raw"] as? Double,
            let landmarks = json["landmarks_normalized"] as? [[Double]]
        else {
            throw TestDataMissing(what: url.path)
        }
        return SergeyExpected(
            size: (size[0], size[1]), score: Float(score), box: box.map(Float.init),
            keypoints: keypoints.map { Point2(x: Float($0[0]), y: Float($0[1])) },
            roi: (Float(roi["cx"]!), Float(roi["cy"]!), Float(roi["w"]!), Float(roi["h"]!), Float(roi["rotation"]!)),
            faceFlag: Float(flag), landmarks: landmarks.map { SIMD3(Float($0[0]), Float($0[1]), Float($0[2])) })
    }

    /// The expected detection in pixels.
    var detectionInPixels: FaceDetection {
        let w = Float(size.width), h = Float(size.height)
        return FaceDetection(
            score: score,
            box: Rect(
                x: box[0] * w, y: box[1] * h, width: (box[2] - box[0]) * w,
                height: (box[3] - box[1]) * h),
            keypoints: keypoints.map { Point2(x: $0.x * w, y: $0.y * h) })
    }
}
