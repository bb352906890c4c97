import Foundation
import XCTest

@testable import FaceCapCore

/// Real face data for the analysis tests: sergey.png's luma and its golden detection and landmarks
/// (Tests/Fixtures/SOURCES.md), plus helpers that build webcam-like frames from them by construction.
enum AnalysisFixtures {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Fixtures")

    /// A grey image: width, height, row-major luma.
    struct Grey {
        var width: Int
        var height: Int
        var pixels: [UInt8]
        subscript(x: Int, y: Int) -> UInt8 { pixels[min(max(y, 0), height - 1) * width + min(max(x, 0), width - 1)] }
    }

    /// sergey.png (600×600) as luma, and its face in those pixels.
    static let sergey: (image: Grey, face: Face) = {
        let pgm = try! Data(contentsOf: fixtures.appendingPathComponent("images/sergey_luma.pgm"))
        // "P5\n600 600\n255\n" then the pixels.
        let header = String(decoding: pgm.prefix(15), as: UTF8.self)
        precondition(header == "P5\n600 600\n255\n", "unexpected sergey_luma.pgm header")
        let image = Grey(width: 600, height: 600, pixels: Array(pgm.dropFirst(15)))
        let json =
            try! JSONSerialization.jsonObject(
                with: Data(contentsOf: fixtures.appendingPathComponent("golden/sergey_expected.json")))
            as! [String: Any]
        let detection = (json["detections"] as! [[String: Any]])[0]
        let box = (detection["box_xyxy"] as! [Double]).map { Float($0 * 600) }
        let keypoints = (detection["keypoints"] as! [[Double]]).map {
            Point2(x: Float($0[0] * 600), y: Float($0[1] * 600))
        }
        let landmarks = (json["landmarks_normalized"] as! [[Double]]).map {
            SIMD3<Float>(Float($0[0] * 600), Float($0[1] * 600), Float($0[2] * 600))
        }
        let face = Face(
            detection: FaceDetection(
                score: Float(detection["score"] as! Double),
                box: Rect(
                    x: box[0], y: box[1], width: box[2] - box[0],
                    height: box[3] - box[1]),
                keypoints: keypoints),
            landmarks: FaceLandmarks(points: landmarks, presence: Float(json["face_flag_raw"] as! Double)))
        return (image, face)
    }()

    /// How to place the photo in the frame: the face box (landmark bounds) `faceWidth` of the frame
    /// wide, its centre at (`centreX`, `centreY`) (frame fractions), rotated by `degrees` clockwise about
    /// it, luma × `gain` + `offset`, then blurred; `noise` adds a sensor's grain of up to ± that much luma, the
    /// same for the same `noiseSeed` (a frame number).
    struct Placement {
        var faceWidth = 0.38
        var centreX = 0.5
        var centreY = 0.5
        var degrees = 0.0
        var gain = 1.0
        var offset = 0.0
        var blurRadius = 0
        var noise = 0.0
        var noiseSeed = 0
    }

    /// A width×height frame with sergey placed as asked, the rest mid-grey, and the face moved with it.
    static func frame(
        _ p: Placement, format: PixelFormat = .gray, width: Int = 640, height: Int = 480,
        timestamp: Double = 0
    ) -> (Frame, Face) {
        let (image, face) = sergey
        // Sizes and positions are those of the analyzer's face box (the landmark bounds).
        let faceBox = FaceMeasures.faceBox(face)
        let scale = p.faceWidth * Double(width) / Double(faceBox.width)
        let src = faceBox.centre
        let dst = (x: p.centreX * Double(width), y: p.centreY * Double(height))
        let angle = p.degrees * Double.pi / 180
        let (c, s) = (cos(angle), sin(angle))
        // frame ← photo: rotate by angle and scale about the face centre.
        func forward(_ x: Double, _ y: Double) -> (Double, Double) {
            let dx = (x - Double(src.x)) * scale, dy = (y - Double(src.y)) * scale
            return (dst.x + c * dx - s * dy, dst.y + s * dx + c * dy)
        }
        var grey = [UInt8](repeating: 128, count: width * height)
        for fy in 0..<height {
            for fx in 0..<width {
                let dx = Double(fx) + 0.5 - dst.x, dy = Double(fy) + 0.5 - dst.y
                let x = (c * dx + s * dy) / scale + Double(src.x), y = (-s * dx + c * dy) / scale + Double(src.y)
                guard x >= 0, y >= 0, x < Double(image.width - 1), y < Double(image.height - 1) else { continue }
                let x0 = Int(x), y0 = Int(y), ax = x - Double(x0), ay = y - Double(y0)
                let top = Double(image[x0, y0]) * (1 - ax) + Double(image[x0 + 1, y0]) * ax
                let bottom = Double(image[x0, y0 + 1]) * (1 - ax) + Double(image[x0 + 1, y0 + 1]) * ax
                var v = (top * (1 - ay) + bottom * ay) * p.gain + p.offset
                if p.noise > 0 { v += p.noise * grain(fx, fy, p.noiseSeed) }
                grey[fy * width + fx] = UInt8(max(0, min(255, v.rounded())))
            }
        }
        if p.blurRadius > 0 { grey = boxBlur(grey, width: width, height: height, radius: p.blurRadius) }
        let point = { (q: Point2) -> Point2 in
            let (x, y) = forward(Double(q.x), Double(q.y))
            return Point2(x: Float(x), y: Float(y))
        }
        // The detector's box stays axis-aligned: the bounding box of the rotated box's corners shrunk
        // back to the original size, which is what BlazeFace reports for a tilted face.
        let b = face.detection.box
        let centre = point(b.centre)
        let w = Float(Double(b.width) * scale), h = Float(Double(b.height) * scale)
        let box = Rect(x: centre.x - w / 2, y: centre.y - h / 2, width: w, height: h)
        let landmarks = face.landmarks!.points.map { q -> SIMD3<Float> in
            let (x, y) = forward(Double(q.x), Double(q.y))
            return SIMD3(Float(x), Float(y), Float(Double(q.z) * scale))
        }
        let moved = Face(
            detection: FaceDetection(
                score: face.detection.score, box: box,
                keypoints: face.detection.keypoints.map(point)),
            landmarks: FaceLandmarks(points: landmarks, presence: face.landmarks!.presence))
        return (encode(grey, width: width, height: height, format: format, timestamp: timestamp), moved)
    }

    /// Deterministic noise in -1...1 for a pixel and a seed (a 32-bit integer hash).
    static func grain(_ x: Int, _ y: Int, _ seed: Int) -> Double {
        var h = UInt32(truncatingIfNeeded: x &* 73_856_093 ^ y &* 19_349_663 ^ seed &* 83_492_791)
        h ^= h >> 13
        h &*= 0x5BD1_E995
        h ^= h >> 15
        return Double(h & 0xFFFF) / 32_767.5 - 1
    }

    /// A separable box blur (three passes approximate a Gaussian of σ ≈ radius).
    static func boxBlur(_ pixels: [UInt8], width: Int, height: Int, radius: Int) -> [UInt8] {
        var values = pixels.map(Double.init)
        for _ in 0..<3 {
            var next = values
            for y in 0..<height {
                for x in 0..<width {
                    var sum = 0.0
                    for k in -radius...radius { sum += values[y * width + min(max(x + k, 0), width - 1)] }
                    next[y * width + x] = sum / Double(2 * radius + 1)
                }
            }
            values = next
            for y in 0..<height {
                for x in 0..<width {
                    var sum = 0.0
                    for k in -radius...radius { sum += next[min(max(y + k, 0), height - 1) * width + x] }
                    values[y * width + x] = sum / Double(2 * radius + 1)
                }
            }
        }
        return values.map { UInt8(max(0, min(255, $0.rounded()))) }
    }

    /// Grey pixels (full-range luma) as a frame of `format`, with neutral chroma. YUV formats use the
    /// limited range cameras deliver, so the analyzer's range handling is exercised too.
    static func encode(_ grey: [UInt8], width: Int, height: Int, format: PixelFormat, timestamp: Double = 0) -> Frame {
        let limited = { (v: UInt8) -> UInt8 in UInt8((Int(v) * 219 + 127) / 255 + 16) }
        var data: [UInt8] = []
        switch format {
        case .gray:
            data = grey
        case .rgb24:
            data.reserveCapacity(grey.count * 3)
            for v in grey { data += [v, v, v] }
        case .yuyv:
            let pairs = (width + 1) / 2
            data = [UInt8](repeating: 128, count: pairs * 4 * height)
            for y in 0..<height {
                for x in 0..<width { data[y * pairs * 4 + x * 2] = limited(grey[y * width + x]) }
            }
        case .yuv420p, .yuv422p, .yuv444p:
            data = grey.map(limited)
            data += [UInt8](repeating: 128, count: format.byteCount(width: width, height: height)! - grey.count)
        }
        return Frame(
            format: format, width: width, height: height,
            colorRange: format == .gray || format == .rgb24 ? .full : .limited,
            timestamp: timestamp, data: data)
    }

    /// Measures that call for nothing: a well-placed, well-lit, sharp, still face.
    static func goodMetrics(at time: Double) -> FrameMetrics {
        let face = FaceMetrics(
            index: 0, score: 0.95, box: Rect(x: 200, y: 130, width: 240, height: 240),
            widthRatio: 0.375, offsetX: 0, offsetY: 0, edgeMargin: 0.2,
            pose: HeadPose(yaw: 0, pitch: 0, roll: 0),
            features: FacialFeatures(
                rightEyeAspectRatio: 0.28, leftEyeAspectRatio: 0.28,
                mouthOpening: 0.05),
            light: LightMetrics(
                meanLuma: 130, darkFraction: 0, brightFraction: 0,
                leftLuma: 128, rightLuma: 132),
            sharpness: 500)
        return FrameMetrics(
            timestamp: time, frameWidth: 640, frameHeight: 480, frameLuma: 120, faceCount: 1,
            faceWidths: [0.375], face: face, secondFaceScore: nil, secondFaceRelativeWidth: nil,
            motion: MotionMetrics(centreSpeed: 0, sizeChange: 0))
    }

    /// Both eyes flat (texture and dip at half their limits), seen full width, nothing else covered: a mirror's
    /// lenses on a sharp face by the flat rule alone (`CoverMetrics.flatLenses`), the colour not measured.
    static func flatEyes(_ t: AnalyzerThresholds) -> CoverMetrics {
        var cover = CoverMetrics(
            presence: 40, lowerFaceChroma: 0, mouthContrast: 0.8, mouthChroma: 10,
            rightEyeBrightness: 0.9, leftEyeBrightness: 0.9, rightEyeDarkness: 0.3,
            leftEyeDarkness: 0.3)
        (cover.rightEyeMedian, cover.leftEyeMedian, cover.rightBelowEye, cover.leftBelowEye) = (0.8, 0.8, 0.9, 0.9)
        (cover.rightEyeContrast, cover.leftEyeContrast) = (0.7, 0.7)
        (cover.rightEyeTexture, cover.leftEyeTexture) = (0.5 * t.maxLensTexture, 0.5 * t.maxLensTexture)
        (cover.rightEyeDip, cover.leftEyeDip) = (0.5 * t.maxLensDip, 0.5 * t.maxLensDip)
        return cover
    }
}
