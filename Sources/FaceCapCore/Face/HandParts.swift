// Which parts of a face a hand lies over: the hull of the hand model's 21 landmarks against small boxes on the
// FaceMesh landmarks (nose, each eye, each cheek, the chin, the lips). A hand anywhere on the face is said, and which part
// it covers is in the record (docs/calibration.md, "A hand anywhere on the face").

/// The parts of a face a hand can cover, as a set.
public struct HandParts: OptionSet, Sendable, Hashable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    public static let mouth = HandParts(rawValue: 1 << 0)
    public static let nose = HandParts(rawValue: 1 << 1)
    /// The subject's right eye and cheek: the image's left one in a non-mirrored picture (landmarks 33, 133, 50).
    public static let rightEye = HandParts(rawValue: 1 << 2)
    public static let leftEye = HandParts(rawValue: 1 << 3)
    public static let rightCheek = HandParts(rawValue: 1 << 4)
    public static let leftCheek = HandParts(rawValue: 1 << 5)
    /// Below the lower lip, a third of the way to the chin's tip (landmarks 17 → 152), as wide as the mouth (61–291): a hand on
    /// the chin just below the mouth, the lips outside its hull.
    public static let chin = HandParts(rawValue: 1 << 6)

    /// The parts' names in a fixed order, for `analyze --json`.
    public var names: [String] {
        let all: [(HandParts, String)] = [
            (.mouth, "mouth"), (.nose, "nose"), (.rightEye, "rightEye"),
            (.leftEye, "leftEye"), (.rightCheek, "rightCheek"),
            (.leftCheek, "leftCheek"), (.chin, "chin"),
        ]
        return all.filter { contains($0.0) }.map(\.1)
    }
}

/// What one run (or the runs of one frame) of the hand model says of a face: the flag where the hand lies over
/// the lips (`mouth`, as `HandLandmarker.flag` gives it), the flag where it lies over another part (`face`), and
/// the parts it lies over (only from a run whose flag reached `HandLandmarker.partFlag`).
public struct HandReading: Sendable, Equatable {
    public var mouth: Float
    public var face: Float
    public var parts: HandParts
    /// Every crop was read on this frame (not some of them held from earlier runs): what a photo waits for.
    public var complete: Bool

    public init(mouth: Float = 0, face: Float = 0, parts: HandParts = [], complete: Bool = false) {
        self.mouth = mouth; self.face = face; self.parts = parts; self.complete = complete
    }

    /// The two readings together: the higher flag of each kind, and the parts of both; complete if either is.
    public func merged(with other: HandReading) -> HandReading {
        HandReading(
            mouth: max(mouth, other.mouth), face: max(face, other.face), parts: parts.union(other.parts),
            complete: complete || other.complete)
    }
}

extension HandLandmarker {
    /// A part counts as covered when the hand's hull holds at least this share of its box (as the lips'
    /// `minMouthOverlap`).
    public static let minPartOverlap = 0.25
    /// Parts are recorded only from a run whose flag reaches this (MediaPipe's own cut): a low flag's landmarks
    /// are a guess on a face with no hand.
    public static let partFlag: Float = 0.5

    /// The share of each part's box inside the convex hull `hull` of the hand's landmarks, for the face with 468
    /// FaceMesh landmarks `face`. The lips use `mouthOverlap`'s grid; the other parts a 5 × 4 grid over a box
    /// level with the eyes: the nose from between the eyes (168) to under its tip (2), as wide as its wings
    /// (129, 358); each eye corner to corner (33–133, 263–362) and as high as 0.7 of that width, centred on its
    /// lids (159/145, 386/374); each cheek a square of 0.2 face widths (234 → 454) on landmarks 50 and 280,
    /// under the eye beside the nose; the chin from below the lower lip (17) a third of the way to its tip (152), as
    /// wide as the mouth (61, 291).
    static func partOverlaps(hull: [SIMD2<Float>], face: [SIMD3<Float>]) -> [(HandParts, Double)] {
        guard hull.count >= 3 else { return [] }
        func p(_ i: Int) -> SIMD2<Float> { SIMD2(face[i].x, face[i].y) }
        let across0 = p(263) - p(33)
        let span = max((across0 * across0).sum().squareRoot(), 1e-3)
        let across = across0 / span
        let down = SIMD2(-across.y, across.x)
        let faceWidth = ((p(454) - p(234)) * (p(454) - p(234))).sum().squareRoot()
        func share(centre: SIMD2<Float>, halfAcross: Float, halfDown: Float) -> Double {
            var inside = 0
            for i in 0..<5 {
                for j in 0..<4 {
                    let u = ((Float(i) + 0.5) / 5 * 2 - 1) * halfAcross
                    let v = ((Float(j) + 0.5) / 4 * 2 - 1) * halfDown
                    if contains(hull, centre + u * across + v * down) { inside += 1 }
                }
            }
            return Double(inside) / 20
        }
        func eye(_ outer: Int, _ inner: Int, _ upper: Int, _ lower: Int) -> Double {
            let width = abs(((p(inner) - p(outer)) * across).sum())
            let centre = (p(outer) + p(inner)) / 2
            let mid = (p(upper) + p(lower)) / 2
            let c = centre + ((mid - centre) * down).sum() * down
            return share(centre: c, halfAcross: width / 2, halfDown: 0.35 * width)
        }
        let noseTop = p(168), noseBottom = p(2)
        let noseCentre = (noseTop + noseBottom) / 2
        let noseHalfDown = abs(((noseBottom - noseTop) * down).sum()) / 2
        let noseHalfAcross = abs(((p(358) - p(129)) * across).sum()) / 2
        let cheek = 0.1 * faceWidth
        // The upper third of the chin, under the lips: a chin resting on a hand (a real bare face, ft3_05) has the hand
        // under the rest.
        let chinTop = p(17), chinBottom = p(17) + (p(152) - p(17)) / 3
        let chinHalfDown = abs(((chinBottom - chinTop) * down).sum()) / 2
        let chinHalfAcross = abs(((p(291) - p(61)) * across).sum()) / 2
        return [
            (.nose, share(centre: noseCentre, halfAcross: noseHalfAcross, halfDown: noseHalfDown)),
            (.rightEye, eye(33, 133, 159, 145)),
            (.leftEye, eye(263, 362, 386, 374)),
            (.rightCheek, share(centre: p(50), halfAcross: cheek, halfDown: cheek)),
            (.leftCheek, share(centre: p(280), halfAcross: cheek, halfDown: cheek)),
            (.chin, share(centre: (chinTop + chinBottom) / 2, halfAcross: chinHalfAcross, halfDown: chinHalfDown)),
        ]
    }
}

extension HandLandmarker {
    /// The crops read for a face the landmark model rejected (`hidesFace`): upright squares this many times the
    /// detection's box wide, on its centre. A hand over a face the detector still finds is framed in one of them
    /// about as the hand graph frames a hand: of 81 constructed hands that hid a real face from the landmark
    /// model, 1.3 box widths alone saw 72 (flag ≥ 0.6), the three 79 (docs/calibration.md, "The hand that hides
    /// the face").
    public static let hiddenFaceCropSides: [Float] = [1.0, 1.3, 1.6]
    /// The hand's hull must hold at least this share of the middle of the box (a 5 × 5 grid over its central
    /// half, eyes to mouth) for the hand to hide the face: a hand beside the face hides nothing.
    public static let minHiddenFaceOverlap = 0.25

    /// The hand flag over a detection the landmark model did not confirm (`box`, frame pixels): the highest of
    /// the model's flags on the crops `hiddenFaceCropSides` whose landmarks' hull covers at least
    /// `minHiddenFaceOverlap` of the box's middle (0 when none does); nil when the frame's data is too short.
    /// One model run per crop.
    public func hidesFace(in frame: Frame, box: Rect) -> Float? {
        var best: Float = 0
        for scale in Self.hiddenFaceCropSides {
            let roi = FaceROI(centre: box.centre, side: scale * box.width, rotation: 0)
            guard let raw = flag(in: frame, roi: roi) else { return nil }
            Self.convexHull(points, into: &hull, sorted: &sorted)
            if Self.middleOverlap(hull: hull, box: box) >= Self.minHiddenFaceOverlap { best = max(best, raw) }
        }
        return best
    }

    /// Over a detection the landmark model rejected, a palm's hand is also tested against the middle of the
    /// detector's box raised by this many box heights (its top quarter and a quarter box above), and counts there
    /// from `minRaisedOverlap` (`FaceTracker.hiddenByHandOrPalm`): a hand over the eyes and forehead hides them from
    /// the detector and the landmark model, whose box then slides down onto the lower face and holds nothing under
    /// the hand (ft3_03, a real hand over both eyes on a small face: its palm's hull held
    /// none of the box's middle and 0.44–0.52 of it raised half a box; the one bare real face with a palm there,
    /// ft3_15's hand on her forehead, 0.20; docs/calibration.md, "A hand over the eyes above a box that slid down").
    public static let palmBoxRaise: Float = 0.5
    public static let minRaisedOverlap = 0.35

    /// The share of a 5 × 5 grid over the central half of `box`, raised by `raise` box heights, inside the convex
    /// polygon `hull`.
    static func middleOverlap(hull: [SIMD2<Float>], box: Rect, raise: Float = 0) -> Double {
        guard hull.count >= 3 else { return 0 }
        var inside = 0
        for i in 0..<5 {
            for j in 0..<5 {
                let q = SIMD2(
                    box.x + box.width * (0.25 + 0.5 * (Float(i) + 0.5) / 5),
                    box.y + box.height * (0.25 - raise + 0.5 * (Float(j) + 0.5) / 5))
                if contains(hull, q) { inside += 1 }
            }
        }
        return Double(inside) / 25
    }
}
