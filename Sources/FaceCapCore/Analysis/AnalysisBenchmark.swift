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
            return SIMD3(
                cx + 0.5 * side * turn.squareRoot() * cos(angle),
                cy + 0.58 * side * turn.squareRoot() * sin(angle), 0)
        }
        for (index, p, _) in LandmarkGeometry.canonical {
            points[index] = SIMD3(cx + Float(p.x) * scale, cy - Float(p.y) * scale, -Float(p.z) * scale)
        }
        let box = Rect(x: cx - side / 2, y: cy - side / 2, width: side, height: side)
        let keypoints = [33, 263, 1, 13, 234, 454].map { Point2(x: points[$0].x, y: points[$0].y) }
        return Face(
            detection: FaceDetection(score: 0.95, box: box, keypoints: keypoints),
            landmarks: FaceLandmarks(points: points, presence: 30))
    }
}

/// The frames of a session for `facecap bench`: a photo of one face placed in a camera frame, moved by a pixel
/// or two from frame to frame as a person sitting still moves, so the tracker follows a real face (its
/// detector at its interval, the eyes and the hand at theirs) and no crop reads the same pixels twice in a row.
public enum SessionFrames {
    /// The offsets (pixels right, down) of the frames in turn: a small loop of ±2 px.
    public static let offsets: [(x: Int, y: Int)] = [
        (0, 0), (1, 0), (2, 1), (2, 2), (1, 2), (0, 1), (-1, 0),
        (-2, -1), (-2, -2), (-1, -2), (0, -1), (1, -1),
    ]

    /// `photo` (RGB or grey) scaled to `fill` of the frame's height, centred, on a blue-grey wall, as a
    /// `width × height` YUYV frame in BT.601 limited range (what a webcam sends), once per offset in `offsets`.
    public static func frames(photo: Frame, width: Int = 640, height: Int = 480, fill: Double = 0.9) -> [Frame] {
        let channels = photo.format == .rgb24 ? 3 : 1
        let scale = fill * Double(height) / Double(max(photo.height, 1))
        /// BT.601 limited range from RGB, in fixed point as the usual encoders do.
        func yuv(_ r: Int, _ g: Int, _ b: Int) -> (Int, Int, Int) {
            (
                ((66 * r + 129 * g + 25 * b + 128) >> 8) + 16, ((-38 * r - 74 * g + 112 * b + 128) >> 8) + 128,
                ((112 * r - 94 * g - 18 * b + 128) >> 8) + 128
            )
        }
        func rgb(_ x: Int, _ y: Int, _ offset: (x: Int, y: Int)) -> (Int, Int, Int) {
            let sx = Int((Double(x - width / 2 - offset.x) / scale).rounded(.down)) + photo.width / 2
            let sy = Int((Double(y - height / 2 - offset.y) / scale).rounded(.down)) + photo.height / 2
            guard sx >= 0, sx < photo.width, sy >= 0, sy < photo.height else { return (90, 110, 130) }
            let i = (sy * photo.width + sx) * channels
            return (Int(photo.data[i]), Int(photo.data[i + channels / 3]), Int(photo.data[i + 2 * (channels / 3)]))
        }
        let rowBytes = (width + 1) / 2 * 4
        return offsets.map { offset in
            var data = [UInt8](repeating: 0, count: rowBytes * height)
            for y in 0..<height {
                for x in stride(from: 0, to: width, by: 2) {
                    let a = rgb(x, y, offset), b = rgb(min(x + 1, width - 1), y, offset)
                    let ya = yuv(a.0, a.1, a.2), yb = yuv(b.0, b.1, b.2)
                    let o = y * rowBytes + x * 2
                    data[o] = UInt8(clamping: ya.0)
                    data[o + 1] = UInt8(clamping: (ya.1 + yb.1 + 1) / 2)
                    data[o + 2] = UInt8(clamping: yb.0)
                    data[o + 3] = UInt8(clamping: (ya.2 + yb.2 + 1) / 2)
                }
            }
            return Frame(format: .yuyv, width: width, height: height, colorRange: .limited, data: data)
        }
    }
}
