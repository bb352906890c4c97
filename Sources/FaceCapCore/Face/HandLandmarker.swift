// MediaPipe's hand landmark model (hand_landmark_full.tflite) read for its hand flag and landmarks, on upright
// crops around the FaceMesh mouth and the other parts of the face: a hand held over them is "a hand" to it, a
// bare, bearded or masked face is not. The crops come from the face (docs/calibration.md, "A hand over the mouth",
// "A hand anywhere on the face"); where a single frame decides, the palms' own crops too (FaceTracker+Palm.swift).

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The hand-landmark model's hand-presence flag on the mouth of a face.
public final class HandLandmarker {
    /// Input side of the model (pixels).
    public static let inputSize = 224
    /// The crops, each a square `side` face widths wide (234 → 454), level with the eyes (33 → 263) and then
    /// turned by `turn` radians. The first two are centred `centreShift` face widths below the middle of the mouth
    /// (landmarks 13 and 14): 1.2 face widths upright, and 1.0 turned 20° (a hand across the mouth from the image's
    /// left tilts that way). Upright crops only: a face turned sideways or upside down reads as a hand.
    /// Then, for a hand anywhere on the face (issue 32), 1.0 face widths upright between the eyes' outer corners
    /// (33, 263) and on each cheek under the eye (50, 280). A crop must frame the hand about as the hand graph
    /// does: one centred on the nose and as wide as the face (1.2) missed most hands over an eye or a cheek, and
    /// crops on each eye read a bare real face up to 0.70 (docs/calibration.md, "A hand anywhere on the face").
    /// Last, a hand on a cheek with its palm off the face (fingers on the cheek, the palm by the ear): 1.0 face
    /// widths upright, `cheekOutShift` face widths out from each cheek's crop (issue 32: of 120 such hands that
    /// read `ready`, the two crops see 106 at 0.6; the bare real faces read 0 there).
    public static let crops: [(side: Float, turn: Float, centre: CropCentre)] =
        [
            (1.2, 0, .mouth), (1.0, -20 * .pi / 180, .mouth), (1.0, 0, .eyes), (1.0, 0, .rightCheek),
            (1.0, 0, .leftCheek), (1.0, 0, .rightCheekOut), (1.0, 0, .leftCheekOut),
        ]
    /// How far out from the cheek (50, 280) the crops `.rightCheekOut` and `.leftCheekOut` are centred, in face
    /// widths along the eyes' line.
    public static let cheekOutShift: Float = 0.3
    public static let centreShift: Float = 0.1

    /// Where a crop is centred: `centreShift` face widths below the middle of the mouth (13, 14), or on a part
    /// of the face. The mouth crops say only whether the hand lies over the lips (`HandReading.mouth`), the
    /// others whether it lies over another part (`HandReading.face`): a mouth crop's hand over a cheek read a bare
    /// real face up to 0.47.
    public enum CropCentre: Sendable { case mouth, eyes, rightCheek, leftCheek, rightCheekOut, leftCheekOut }

    let interpreter: Interpreter
    private let flagOutput: Int
    private let landmarkOutput: Int
    /// The 21 hand landmarks of the last run, in frame pixels (reused: a run allocates nothing).
    public private(set) var points = [SIMD2<Float>](repeating: .zero, count: 21)
    /// The flag of the last run before the mouth test (for the record: a hand under the chin reads high).
    public private(set) var rawFlag: Float = 0
    /// Of the last run, the share of the lips inside the hand's hull (`mouthOverlap`).
    public private(set) var mouthOverlap = 0.0
    /// Of the last `reading`, the share of each part's box (but the lips) inside the hand's hull.
    public private(set) var partOverlaps: [(HandParts, Double)] = []
    /// Model runs made so far (for tests that count them: internal, read through `@testable import`).
    private(set) var runs = 0
    /// Scratch for the hand's hull and its points in order (reused).
    var hull: [SIMD2<Float>] = []
    var sorted: [SIMD2<Float>] = []
    /// A hand counts as over the mouth only when the hull of its 21 landmarks covers at least this share of
    /// the lips (`mouthOverlap`): a hand under the chin or at the cheek, the mouth free, is a hand to the model
    /// but covers nothing (a real one read 0.00, hands across the mouth ≥ 0.33: docs/calibration.md, "A hand
    /// over the mouth").
    public static let minMouthOverlap = 0.25

    /// Prepares the model; a model of another shape (or without the hand flag output) is a `ModelError`. Its
    /// activations lie in `arena` when one is given (shared with models run on the same thread, one after another).
    public init(model: TFLiteModel, arena: ActivationArena? = nil) throws(ModelError) {
        interpreter = try Interpreter(model: model, arena: arena)
        let n = Self.inputSize
        // MediaPipe's converter names the hand flag "Identity_1" (1×1, already a probability).
        let names = model.outputs.map { model.tensors[$0].name }
        guard interpreter.inputShapes == [[1, n, n, 3]], let flag = names.firstIndex(of: "Identity_1"),
            interpreter.outputShapes[flag] == [1, 1], interpreter.outputShapes.contains([1, 63])
        else {
            throw ModelError(
                file: model.name,
                problem: Words.modelWrongHand(
                    inputs: "\(interpreter.inputShapes)",
                    outputs: "\(interpreter.outputShapes)"))
        }
        flagOutput = flag
        landmarkOutput = interpreter.outputShapes.firstIndex(of: [1, 63])!
        hull.reserveCapacity(2 * 21 + 1)
        sorted.reserveCapacity(21)
    }

    /// The square crop `crop` (an index into `crops`) of the face whose 468 FaceMesh landmarks are `points`.
    public static func roi(landmarks points: [SIMD3<Float>], crop: Int) -> FaceROI {
        func p(_ i: Int) -> SIMD2<Float> { SIMD2(points[i].x, points[i].y) }
        let across = p(263) - p(33)
        let span = max((across * across).sum().squareRoot(), 1e-3)
        let down = SIMD2(-across.y, across.x) / span
        let faceWidth = ((p(454) - p(234)) * (p(454) - p(234))).sum().squareRoot()
        let (side, turn, anchor) = crops[crop]
        let centre: SIMD2<Float> =
            switch anchor {
            case .mouth: (p(13) + p(14)) / 2 + centreShift * faceWidth * down
            case .eyes: (p(33) + p(263)) / 2
            case .rightCheek: p(50)
            case .leftCheek: p(280)
            case .rightCheekOut: p(50) - cheekOutShift * faceWidth * across / span
            case .leftCheekOut: p(280) + cheekOutShift * faceWidth * across / span
            }
        return FaceROI(
            centre: Point2(x: centre.x, y: centre.y), side: side * faceWidth,
            rotation: atan2f(across.y, across.x) + turn)
    }

    /// The highest hand flag (0…1) over the crops of the face with 468 landmarks `points`; nil with fewer
    /// points or when the frame's data is too short for its format. One model run per crop.
    public func handFlag(in frame: Frame, landmarks points: [SIMD3<Float>]) -> Float? {
        guard points.count >= FaceLandmarker.count else { return nil }
        var best: Float = 0
        for crop in Self.crops.indices {
            guard let flag = flag(in: frame, roi: Self.roi(landmarks: points, crop: crop), face: points) else {
                return nil
            }
            best = max(best, flag)
        }
        return best
    }

    /// What the model says of the face with 468 landmarks `points` over every crop (one run each): the higher
    /// flags and the parts of them all; nil with fewer points or when the frame's data is too short.
    public func reading(in frame: Frame, landmarks points: [SIMD3<Float>]) -> HandReading? {
        guard points.count >= FaceLandmarker.count else { return nil }
        var best = HandReading(complete: true)
        for crop in Self.crops.indices {
            guard
                let one = reading(
                    in: frame, roi: Self.roi(landmarks: points, crop: crop), face: points,
                    isMouthCrop: Self.crops[crop].centre == .mouth)
            else {
                return nil
            }
            best = best.merged(with: one)
        }
        return best
    }

    /// One run on `roi` for the face with 468 landmarks `face`: the flag where the hand lies over the lips
    /// (`flag`), over another part (at least `minPartOverlap` of its box; not asked of a mouth crop,
    /// `isMouthCrop`), and those parts when the flag reaches `partFlag`; nil when the frame's data is too short.
    public func reading(in frame: Frame, roi: FaceROI, face: [SIMD3<Float>], isMouthCrop: Bool) -> HandReading? {
        guard let mouth = flag(in: frame, roi: roi, face: face) else { return nil }
        var reading = HandReading(mouth: mouth)
        if mouth > 0, rawFlag >= Self.partFlag { reading.parts.insert(.mouth) }
        guard face.count >= FaceLandmarker.count, !isMouthCrop else { return reading }
        partOverlaps = Self.partOverlaps(hull: hull, face: face)
        for (part, share) in partOverlaps where share >= Self.minPartOverlap {
            reading.face = rawFlag
            if rawFlag >= Self.partFlag { reading.parts.insert(part) }
        }
        return reading
    }

    /// The hand flag on `roi` of `frame` (bilinear, RGB in [0, 1], zero outside the frame, as MediaPipe's
    /// hand graph crops), or 0 when `face` (its 468 FaceMesh landmarks) is given and the hand's landmarks
    /// cover less than `minMouthOverlap` of its lips; nil when the frame's data is too short for its format.
    public func flag(in frame: Frame, roi: FaceROI, face: [SIMD3<Float>]? = nil) -> Float? {
        let n = Self.inputSize
        let map = SamplingMap(centre: roi.centre, width: roi.side, height: roi.side, rotation: roi.rotation)
        guard
            fillTensor(
                interpreter.input(), width: n, height: n, from: frame, map: map, border: .zero,
                scale: 1 / 255, offset: 0)
        else { return nil }
        interpreter.run()
        runs += 1
        rawFlag = interpreter.output(flagOutput)[0]
        // The landmarks back into the frame, as FaceLandmarker projects its own.
        let raw = interpreter.output(landmarkOutput)
        let c = cosf(roi.rotation), s = sinf(roi.rotation)
        for i in 0..<21 {
            let dx = raw[3 * i] / Float(n) - 0.5, dy = raw[3 * i + 1] / Float(n) - 0.5
            points[i] = SIMD2(roi.centre.x + (c * dx - s * dy) * roi.side, roi.centre.y + (s * dx + c * dy) * roi.side)
        }
        guard let face, face.count >= FaceLandmarker.count else {
            mouthOverlap = 0
            hull.removeAll(keepingCapacity: true)
            return rawFlag
        }
        mouthOverlap = Self.mouthOverlap(points, face: face, hull: &hull, sorted: &sorted)
        return mouthOverlap >= Self.minMouthOverlap ? rawFlag : 0
    }

    /// The share of the lips (a 7 × 3 grid over the rectangle from corner 61 to corner 291 and from 0 to 17,
    /// level with the eyes) inside the convex hull of the hand's landmarks: how much of the mouth the hand
    /// lies over. `hull` and `sorted` are scratch (reused).
    public static func mouthOverlap(
        _ hand: [SIMD2<Float>], face: [SIMD3<Float>], hull: inout [SIMD2<Float>],
        sorted: inout [SIMD2<Float>]
    ) -> Double {
        convexHull(hand, into: &hull, sorted: &sorted)
        guard hull.count >= 3 else { return 0 }
        func p(_ i: Int) -> SIMD2<Float> { SIMD2(face[i].x, face[i].y) }
        let a = p(61), b = p(291)
        let centre = (p(0) + p(17)) / 2
        let across = p(263) - p(33)
        let span = max((across * across).sum().squareRoot(), 1e-3)
        let down = SIMD2(-across.y, across.x) / span
        let top = ((p(0) - centre) * down).sum(), bottom = ((p(17) - centre) * down).sum()
        var inside = 0
        for i in 0..<7 {
            let t = (Float(i) + 0.5) / 7
            var base = a + t * (b - a)
            base += ((centre - base) * down).sum() * down
            for j in 0..<3 {
                let q = base + (top + (Float(j) + 0.5) / 3 * (bottom - top)) * down
                if contains(hull, q) { inside += 1 }
            }
        }
        return Double(inside) / 21
    }

    /// Andrew's monotone chain: the convex hull of `points`, counter-clockwise in frame pixels, into `hull`
    /// (`sorted`: scratch for the points in order; an insertion sort, as 21 points need no more).
    static func convexHull(_ points: [SIMD2<Float>], into hull: inout [SIMD2<Float>], sorted: inout [SIMD2<Float>]) {
        sorted.removeAll(keepingCapacity: true)
        for q in points {
            var j = sorted.count
            sorted.append(q)
            while j > 0, sorted[j - 1].x > q.x || (sorted[j - 1].x == q.x && sorted[j - 1].y > q.y) {
                sorted[j] = sorted[j - 1]
                j -= 1
            }
            sorted[j] = q
        }
        hull.removeAll(keepingCapacity: true)
        func cross(_ o: SIMD2<Float>, _ a: SIMD2<Float>, _ b: SIMD2<Float>) -> Float {
            (a.x - o.x) * (b.y - o.y) - (a.y - o.y) * (b.x - o.x)
        }
        for q in sorted {
            while hull.count >= 2, cross(hull[hull.count - 2], hull[hull.count - 1], q) <= 0 { hull.removeLast() }
            hull.append(q)
        }
        let lower = hull.count + 1
        for k in stride(from: sorted.count - 2, through: 0, by: -1) {
            let q = sorted[k]
            while hull.count >= lower, cross(hull[hull.count - 2], hull[hull.count - 1], q) <= 0 { hull.removeLast() }
            hull.append(q)
        }
        hull.removeLast()
    }

    /// Whether `q` lies inside the convex polygon `hull` (either winding).
    static func contains(_ hull: [SIMD2<Float>], _ q: SIMD2<Float>) -> Bool {
        var sign: Float = 0
        for i in hull.indices {
            let a = hull[i], b = hull[(i + 1) % hull.count]
            let c = (b.x - a.x) * (q.y - a.y) - (b.y - a.y) * (q.x - a.x)
            if c != 0 {
                if sign == 0 { sign = c } else if (c > 0) != (sign > 0) { return false }
            }
        }
        return true
    }
}
