#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A stand-in face for `facecap bench`, whose synthetic frame has no real one.
///
/// The measures' cost depends on the face's size in the frame (light samples, the sharpness crop) and
/// on the landmark count, not on what the pixels show, so a face box 0.38 of the width (the size the
/// guidance aims for) with 468 plausible landmarks times the analysis as a real face would.
public enum AnalysisBenchmark {
    public static func face(frameWidth: Int, frameHeight: Int) -> Face {
        let side = Float(frameWidth) * 0.38
        let cx = Float(frameWidth) / 2, cy = Float(frameHeight) / 2
        // Canonical face model vertices are in cm with the face ~15 cm wide; scale to the box.
        let scale = side / 15
        var points = (0..<468).map { i -> SIMD3<Float> in
            // A spiral over the face oval, so the landmark bounds are the face box.
            let turn = Float(i) / 468, angle = Float(i) * 2.399963
            return SIMD3(cx + 0.5 * side * turn.squareRoot() * cos(angle),
                         cy + 0.58 * side * turn.squareRoot() * sin(angle), 0)
        }
        for (index, p, _) in LandmarkGeometry.canonical {
            points[index] = SIMD3(cx + Float(p.x) * scale, cy - Float(p.y) * scale, -Float(p.z) * scale)
        }
        let box = Rect(x: cx - side / 2, y: cy - side / 2, width: side, height: side)
        let keypoints = [33, 263, 1, 13, 234, 454].map { Point2(x: points[$0].x, y: points[$0].y) }
        return Face(detection: FaceDetection(score: 0.95, box: box, keypoints: keypoints),
                    landmarks: FaceLandmarks(points: points, presence: 30))
    }
}
