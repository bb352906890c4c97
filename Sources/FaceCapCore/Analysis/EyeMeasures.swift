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
    /// True when the iris model ran on this frame; false when the reading is carried over from a recent
    /// frame (the model runs every few frames).
    public var isFresh: Bool
    /// Seconds both eyes have read closed / the gaze has read off the camera, over consecutive readings
    /// (set by `Analyzer`; nil for a single photo, where the first reading counts at once).
    public var closedFor: Double?
    public var gazeOffFor: Double?

    /// The more open of the two eyes (`eyesClosed` needs both closed).
    public var maxOpening: Double { max(rightOpening, leftOpening) }
    /// The less open of the two (the validator wants both open).
    public var minOpening: Double { min(rightOpening, leftOpening) }
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
        return EyeMetrics(rightOpening: right.opening, leftOpening: left.opening, gazeX: gazeX, gazeY: gazeY,
                          cameraGazeX: gazeX + t.gazeYawFactor * sin(yaw),
                          cameraGazeY: gazeY - t.gazeNeutralY - t.gazePitchFactor * sin(pitch),
                          irisToLowerLid: toLowerLid, isFresh: true, closedFor: nil, gazeOffFor: nil)
    }

    /// Opening and iris position of one eye. `leftToRight`: the outer corner (contour 0) is on the image's
    /// left (the subject's right eye); for the other eye the inner corner (contour 8) is.
    static func eye(_ e: EyeLandmarks, leftToRight: Bool)
        -> (opening: Double, gaze: SIMD2<Double>, toLowerLid: Double) {
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
