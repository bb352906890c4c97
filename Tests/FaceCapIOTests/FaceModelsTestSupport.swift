import FaceCapCore
import XCTest

@testable import FaceCapIO

/// The face models the suites on real photos share (`LensEdgeTests`, `MirrorLensTests`, `LightFirstTests`,
/// `BuiltInValidatorTests`, `EyeCoverTests`, `DarkCoverTests`, `CameraExposureTests`), read once for the whole
/// run, and the tracker and the photo's analysis they set up from them.
enum FaceModelsFixture {
    typealias Models = (
        detector: TFLiteModel, landmarks: TFLiteModel, iris: TFLiteModel, hand: TFLiteModel, palm: TFLiteModel
    )

    /// Read on first use; nil when they are not there (`make models`).
    static let loaded: Models? = try? ModelFiles.loadAllFaceModels()

    /// The models, or a failure that says how to get them.
    static func models() throws -> Models {
        try XCTUnwrap(loaded, "face models missing: run the tests with 'make test'")
    }

    /// A tracker with the detector, landmark, iris and hand models, as the wizard's analysis has it.
    static func tracker() throws -> FaceTracker {
        let models = try models()
        return try FaceTracker(
            detector: models.detector, landmarks: models.landmarks, iris: models.iris, hand: models.hand)
    }

    /// Each eye's middle and width (FaceMesh corners 33–133 and 362–263) on `frame`, where lenses and shadows are
    /// drawn (`LensEdgeTests`, `MirrorLensTests`).
    static func eyes(_ frame: Frame) throws -> [(mid: SIMD2<Double>, width: Double)] {
        let points = try XCTUnwrap(try tracker().process(frame).first?.landmarks?.points)
        func p(_ i: Int) -> SIMD2<Double> { SIMD2(Double(points[i].x), Double(points[i].y)) }
        return [(33, 133), (362, 263)].map { a, b in
            ((p(a) + p(b)) / 2, ((p(b) - p(a)) * (p(b) - p(a))).sum().squareRoot())
        }
    }

    /// `frame` analysed as `facecap analyze` reports a photo, with the default thresholds.
    static func analyse(_ frame: Frame) throws -> AnalysisReport.Entry {
        AnalysisReport.photo(frame: frame, faces: try tracker().process(frame), thresholds: AnalyzerThresholds())
    }
}
