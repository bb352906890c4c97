#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What the iris model says about the eyes of one face: how open the lids are and where the eyes look.
public struct EyeMetrics: Sendable, Equatable {
    /// Eyelid opening of the subject's right eye (image-left) and left eye: the mean gap between upper and
    /// lower lid across the middle of the eye (iris-model contour points 10…14 over 2…6, measured across
    /// the corner-to-corner line), over the corner-to-corner width. Open eyes read ~0.2–0.4, closed ~0–0.1.
    public var rightOpening: Double
    public var leftOpening: Double
    /// Iris centre relative to the middle of the eye corners, in eye widths, mean of both eyes: x along the
    /// corner line (positive toward the image's right), y across it (positive down). Raw, as seen.
    public var gazeX: Double
    public var gazeY: Double
    /// The same corrected for the head's pose (`AnalyzerThresholds.gazeYawFactor`, `gazePitchFactor`,
    /// `gazeNeutralY`): about 0, 0 for eyes on the camera however the head is turned; x positive when the
    /// eyes look toward the image's right, y positive when they look down.
    public var cameraGazeX: Double
    public var cameraGazeY: Double
    /// Iris centre relative to the lower lid (the mean of its middle contour points 2…6), across the corner
    /// line, in eye widths, mean of both eyes: negative when the iris sits above the lower lid, as it does
    /// (−0.13…−0.20 looking into the camera, wide-open eyes included). A downward gaze brings it near the lid
    /// (−0.10 on the constructed 30° turns); eyes opened wide raise the upper lid and, with it, the model's
    /// corners, which `cameraGazeY` reads as a downward look, but not this.
    public var irisToLowerLid: Double = -0.15
    /// How dark the darkest fifth of the iris disc (0.7 of the iris model's iris radius, inside the lids) is
    /// against the cheek below the eye (`EyeMeasures.pupilShade`), per eye; nil when the frame's pixels were
    /// not read (a reading built without the frame). An open eye shows its pupil and iris there (≤ 0.35 on
    /// every open real eye narrower than 0.2); eyes squeezed shut show lid skin and creases (≥ 0.40).
    public var rightPupilShade: Double? = nil
    public var leftPupilShade: Double? = nil
    /// What the rules take off each eye's opening: `AnalyzerThresholds.noPupilOpeningPenalty` when the eye
    /// shows no pupil (its shade at or above `maxPupilShade`), else 0.
    public var rightOpeningPenalty = 0.0
    public var leftOpeningPenalty = 0.0
    /// True when the iris model ran on this frame; false when the reading is carried over from a recent
    /// frame (the model runs every few frames).
    public var isFresh: Bool
    /// Seconds both eyes have read closed / the gaze has read off the camera, over consecutive readings
    /// (set by `Analyzer`; nil for a single photo, where the first reading counts at once).
    public var closedFor: Double?
    public var gazeOffFor: Double?

    /// The openings the rules judge: each eye's opening less its penalty (an eye showing no pupil reads
    /// less open than its lids alone say).
    public var rightReadOpening: Double { rightOpening - rightOpeningPenalty }
    public var leftReadOpening: Double { leftOpening - leftOpeningPenalty }
    /// The more open of the two eyes, as judged (`eyesOpen` needs one open).
    public var maxOpening: Double { max(rightReadOpening, leftReadOpening) }
    /// The less open of the two, as judged (the validator wants both open).
    public var minOpening: Double { min(rightReadOpening, leftReadOpening) }
}

/// Eye measures from the iris model's points (`FaceEyes`).
public enum EyeMeasures {
    /// Lower-lid contour points 2…6 lie under upper-lid points 10…14.
    static let lidPairs = [(10, 2), (11, 3), (12, 4), (13, 5), (14, 6)]

    /// Opening, raw and pose-corrected gaze of `eyes`; `pose` (degrees) corrects the gaze, no pose: none.
    public static func measure(_ eyes: FaceEyes, pose: HeadPose?, thresholds t: AnalyzerThresholds) -> EyeMetrics {
        let right = eye(eyes.right, leftToRight: true)
        let left = eye(eyes.left, leftToRight: false)
        let gazeX = (right.gaze.x + left.gaze.x) / 2, gazeY = (right.gaze.y + left.gaze.y) / 2
        let toLowerLid = (right.toLowerLid + left.toLowerLid) / 2
        let yaw = (pose?.yaw ?? 0) * .pi / 180, pitch = (pose?.pitch ?? 0) * .pi / 180
        return EyeMetrics(
            rightOpening: right.opening, leftOpening: left.opening, gazeX: gazeX, gazeY: gazeY,
            cameraGazeX: gazeX + t.gazeYawFactor * sin(yaw),
            cameraGazeY: gazeY - t.gazeNeutralY - t.gazePitchFactor * sin(pitch),
            irisToLowerLid: toLowerLid, isFresh: true, closedFor: nil, gazeOffFor: nil)
    }

    /// `measure`, and each eye's pupil shade read from the frame's pixels (`reader`): an eye narrower than
    /// `minEyeOpening + noPupilOpeningPenalty` whose shade is at or above `maxPupilShade` shows no pupil, and
    /// its opening is judged that much less (eyes squeezed shut, whose lids the model places on the creases).
    static func measure(
        _ eyes: FaceEyes, pose: HeadPose?, thresholds t: AnalyzerThresholds,
        reader: LumaReader
    ) -> EyeMetrics {
        var m = measure(eyes, pose: pose, thresholds: t)
        m.rightPupilShade = pupilShade(eyes.right, leftToRight: true, reader: reader)
        m.leftPupilShade = pupilShade(eyes.left, leftToRight: false, reader: reader)
        func penalty(_ shade: Double?) -> Double { (shade ?? 0) >= t.maxPupilShade ? t.noPupilOpeningPenalty : 0 }
        m.rightOpeningPenalty = penalty(m.rightPupilShade)
        m.leftOpeningPenalty = penalty(m.leftPupilShade)
        return m
    }

    /// The pupil's shade of one eye: the 20th percentile of the luma sampled on a 7 × 7 grid over the disc of
    /// 0.7 iris radii (the iris model's iris centre and edge points) around the iris centre, kept where it
    /// lies between the lids (the contour, interpolated along the corner line), over the median luma of five
    /// cheek points 0.3 eye widths below the lower lid (0.25…0.75 of the way between the corners). Bilinear
    /// samples, 34 of them at most; nil when the eye or the cheek cannot be read.
    static func pupilShade(_ e: EyeLandmarks, leftToRight: Bool, reader: LumaReader) -> Double? {
        func flat(_ p: SIMD3<Float>) -> SIMD2<Double> { SIMD2(Double(p.x), Double(p.y)) }
        let a = flat(leftToRight ? e.outerCorner : e.innerCorner)
        let b = flat(leftToRight ? e.innerCorner : e.outerCorner)
        let axis = b - a
        let width = (axis * axis).sum().squareRoot()
        guard width > 1e-6, e.contour.count >= 16, e.iris.count >= 5 else { return nil }
        let along = axis / width, down = SIMD2(-along.y, along.x)
        func uv(_ p: SIMD3<Float>) -> SIMD2<Double> {
            let d = flat(p) - a
            return SIMD2((d * along).sum() / width, (d * down).sum() / width)
        }
        func sample(_ u: Double, _ v: Double) -> Double {
            let p = a + along * (u * width) + down * (v * width)
            return bilinear(reader, p.x, p.y)
        }
        // The lids as v(u): upper 0, 9…15, 8 and lower 0…8, sorted along the corner line.
        var upper = [SIMD2<Double>](), lower = [SIMD2<Double>]()
        upper.reserveCapacity(9); lower.reserveCapacity(9)
        for i in [0, 9, 10, 11, 12, 13, 14, 15, 8] { upper.append(uv(e.contour[i])) }
        for i in 0...8 { lower.append(uv(e.contour[i])) }
        upper.sort { $0.x < $1.x }; lower.sort { $0.x < $1.x }
        let centre = uv(e.irisCentre)
        var radius = 0.0
        for p in e.iris[1...4] { let d = uv(p) - centre; radius += (d * d).sum().squareRoot() / 4 }
        var disc = [Double](), cheek = [Double]()
        disc.reserveCapacity(37)
        let steps = [-0.7, -0.7 / 1.5, -0.7 / 3, 0, 0.7 / 3, 0.7 / 1.5, 0.7]
        for du in steps {
            for dv in steps where du * du + dv * dv <= 0.49 + 1e-9 {
                let u = centre.x + du * radius, v = centre.y + dv * radius
                if v > interpolate(upper, u), v < interpolate(lower, u) { disc.append(sample(u, v)) }
            }
        }
        if disc.isEmpty { disc.append(sample(centre.x, centre.y)) }
        for k in 0..<5 {
            let u = 0.25 + 0.125 * Double(k)
            cheek.append(sample(u, interpolate(lower, u) + 0.3))
        }
        cheek.sort()
        guard cheek[2] >= 1 else { return nil }
        disc.sort()
        let position = 0.2 * Double(disc.count - 1)
        let low = Int(position), high = min(low + 1, disc.count - 1)
        let p20 = disc[low] + (disc[high] - disc[low]) * (position - Double(low))
        return p20 / cheek[2]
    }

    /// v at u on a polyline sorted by u, held flat beyond its ends.
    static func interpolate(_ line: [SIMD2<Double>], _ u: Double) -> Double {
        guard let first = line.first, let last = line.last else { return 0 }
        if u <= first.x { return first.y }
        if u >= last.x { return last.y }
        for i in 1..<line.count where u <= line[i].x {
            let p = line[i - 1], q = line[i]
            return q.x - p.x > 1e-12 ? p.y + (q.y - p.y) * (u - p.x) / (q.x - p.x) : q.y
        }
        return last.y
    }

    /// Luma at (x, y) in pixels (pixel k covers [k, k + 1)), bilinear between the four nearest pixels.
    static func bilinear(_ reader: LumaReader, _ x: Double, _ y: Double) -> Double {
        let fx = min(max(x - 0.5, 0), Double(reader.width) - 1.001)
        let fy = min(max(y - 0.5, 0), Double(reader.height) - 1.001)
        let x0 = Int(fx), y0 = Int(fy), tx = fx - Double(x0), ty = fy - Double(y0)
        let top = Double(reader.luma(x0, y0)) * (1 - tx) + Double(reader.luma(x0 + 1, y0)) * tx
        let bottom = Double(reader.luma(x0, y0 + 1)) * (1 - tx) + Double(reader.luma(x0 + 1, y0 + 1)) * tx
        return top * (1 - ty) + bottom * ty
    }

    /// Opening and iris position of one eye. `leftToRight`: the outer corner (contour 0) is on the image's
    /// left (the subject's right eye); for the other eye the inner corner (contour 8) is.
    static func eye(_ e: EyeLandmarks, leftToRight: Bool)
        -> (opening: Double, gaze: SIMD2<Double>, toLowerLid: Double)
    {
        func flat(_ p: SIMD3<Float>) -> SIMD2<Double> { SIMD2(Double(p.x), Double(p.y)) }
        let a = flat(leftToRight ? e.outerCorner : e.innerCorner)
        let b = flat(leftToRight ? e.innerCorner : e.outerCorner)
        let axis = b - a
        let width = (axis * axis).sum().squareRoot()
        guard width > 1e-6, e.contour.count >= 16, !e.iris.isEmpty else { return (0, .zero, 0) }
        let along = axis / width
        let down = SIMD2(-along.y, along.x)
        var gap = 0.0, lowerLid = 0.0
        for (upper, lower) in lidPairs {
            gap += ((flat(e.contour[lower]) - flat(e.contour[upper])) * down).sum()
            lowerLid += ((flat(e.contour[lower]) - a) * down).sum()
        }
        let opening = max(0, gap / Double(lidPairs.count)) / width
        let offset = flat(e.irisCentre) - (a + b) / 2
        let toLowerLid = (((flat(e.irisCentre) - a) * down).sum() - lowerLid / Double(lidPairs.count)) / width
        return (opening, SIMD2((offset * along).sum() / width, (offset * down).sum() / width), toLowerLid)
    }
}
