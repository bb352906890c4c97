#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Whether something covers the face, and where: the lower face (a mask, a hand, a scarf over nose, mouth
/// and chin) or the eyes (dark glasses, a hand).
///
/// Colour and luma are sampled in small patches anchored on the FaceMesh landmarks and compared with the
/// person's own skin (upper cheeks under the eyes, and the forehead), so the measures do not depend on skin
/// tone or exposure. docs/calibration.md ("Covered faces") records the values on open and covered frames.
public struct CoverMetrics: Sendable, Equatable {
    /// The landmark model's face-presence logit (≥ 0: a face), for the record: open faces read 33–60 on the
    /// calibration frames, masks 4–26 and hands over the mouth 22–36, so it overlaps open faces and is not
    /// decided on (a dark or blurred face lowers it too).
    public var presence: Double
    /// Chroma distance (Cb, Cr on 0…255) between the lower face (chin and both sides of the mouth) and the
    /// reference skin: a mask is another colour.
    public var lowerFaceChroma: Double
    /// How much the mouth shows: across the middle of the mouth (seven columns between the corners 61 and 291,
    /// each from above the upper lip to below the lower lip), the median luma range (brightest minus darkest
    /// row) over the reference skin luma. Lips, the seam between them, teeth and the mouth's inside always
    /// make one; a mask or a hand flat over the mouth does not, and a beard around the lips adds to it.
    /// nil when over a quarter of the mouth's samples are burnt out (luma ≥ 250): over-exposure flattens the
    /// mouth too, so it cannot tell.
    public var mouthContrast: Double?
    /// How far the lower face's hue is from any skin or hair colour (Cb, Cr on 0…255): for every unclipped
    /// sample of the lower face (chin, beside the mouth) the distance of its chroma from the wedge of hues
    /// from a little redder than the cheeks' own round to yellow (`CoverMeasures.hueDistance`: skin in light
    /// and shadow, brown, blond, ginger, grey and black hair), and the median. A green, blue, navy or pink
    /// mask, or one printed on such a ground, is outside it, a beard inside. 0 when the colour could not be
    /// measured.
    public var lowerFaceHue: Double = 0
    /// The lower face's saturation (chin, beside the mouth: the chroma of the unclipped patches' mean colour
    /// over their mean luma), the upper face's (between the brows, landmark 9, above any mask), and the lower
    /// face's luma over the upper face's; nil when either lost its colour. A black or grey mask is neutral and
    /// dark under a face that has a colour; skin, shaded or not, has one of its own, and a beard shows skin
    /// between its hairs (docs/calibration.md, "Dark masks").
    public var lowerFaceSaturation: Double? = nil
    public var upperFaceSaturation: Double? = nil
    public var lowerToUpperLuma: Double? = nil
    /// Chroma distance (Cb, Cr) between the mouth (the middle of the lips) and the lower face (chin, beside the
    /// mouth); nil when either lost its colour. Under a mask both are the same cloth; lips show through a beard.
    public var mouthChroma: Double?
    /// Per eye (subject's right, left): the brightest tenth of the eye opening's luma over the reference skin
    /// luma, or over the cheek beside the nose on the eye's own side when that is darker (a hard side light
    /// darkens the eye and its cheek alike); dark lenses keep it low (the white of the eye and the skin around
    /// it are gone).
    public var rightEyeBrightness: Double
    public var leftEyeBrightness: Double
    /// Per eye: the median of the eye opening's luma over the same reference: a lens with a reflection keeps
    /// most of the opening dark though its brightest tenth is the reflection's.
    public var rightEyeMedian: Double = 1
    public var leftEyeMedian: Double = 1
    /// Per eye: the band just below the eye (0.45 eye widths down from its middle) over the cheek beside the
    /// nose on the same side (50, 280): a lens covers the band, the shadow of the brow or of a side light does
    /// not darken the band more than that cheek.
    /// (0, and 0 for the contrast, when not measured: then the brightness alone decides, as before these.)
    public var rightBelowEye: Double = 0
    public var leftBelowEye: Double = 0
    /// Per eye: the opening's contrast, (brightest tenth − darkest tenth) / brightest tenth: a shadow darkens
    /// the white, the iris and the lids alike and keeps it; a flat dark lens has little.
    public var rightEyeContrast: Double = 0
    public var leftEyeContrast: Double = 0
    /// Per eye: the largest step up in luma on the cheek below the eye, against the lens-sized span above it (a
    /// lens's lower edge: from the tinted skin behind the lens to the bare cheek, the frame's rim not read,
    /// `CoverMeasures.PatchSampler.lensEdge`); a shadow fades and clear glasses pass the skin as it is: both
    /// read near 1. 0 when not measured.
    public var rightLensEdge: Double = 0
    public var leftLensEdge: Double = 0
    /// Per eye: the fine texture of the eye and its lids against their own luma (`CoverMeasures.PatchSampler
    /// .lensTexture`), and how far the opening's darkest tenth lies below its median, over the median (the
    /// iris, the pupil or the lash line). An eye keeps both under any shadow or tint, open or closed; a mirror
    /// lens is its own smooth reflection with the eye faint behind it (docs/calibration.md, "A mirror's flat
    /// face"). 1 (an eye) when not measured.
    public var rightEyeTexture: Double = 1
    public var leftEyeTexture: Double = 1
    public var rightEyeDip: Double = 1
    public var leftEyeDip: Double = 1
    /// Per eye: the chroma distance (Cb, Cr on 0…255) of the opening's colour from the reference skin's; nil when
    /// either lost its colour (clipped) or was not measured. ft3_06's eyes squeezed shut and blurred read 0.8–0.9
    /// (lids of the skin's colour), constructed mirrors ≥ 11.4; real closed eyes range 0.2–21.1, and the distance
    /// is absolute, not over luma: a darker lid reads further from the skin, a skin-toned mirror nearer
    /// (docs/calibration.md, "A medium blur").
    public var rightEyeChroma: Double? = nil
    public var leftEyeChroma: Double? = nil
    /// Per eye: the darkest tenth of the eye-and-brow region's luma over the reference skin luma; an eye, its
    /// lashes and brow always have dark parts, a hand over the eye has none.
    public var rightEyeDarkness: Double
    public var leftEyeDarkness: Double
    /// Per eye: its width (corner to corner) over the wider eye's, 1 for the wider. A head turned far to one
    /// side foreshortens the far eye (a near-profile's 0.61–0.65) and sinks it in the nose's shadow, so its
    /// brightness says nothing of a lens there (`minLensEyeWidthRatio`).
    public var rightEyeWidthRatio: Double = 1
    public var leftEyeWidthRatio: Double = 1
    /// The hand-landmark model's hand flag on the mouth (0…1, `HandLandmarker`), from this frame or, between
    /// the model's runs, the last reading within `handMemory`; nil without the model or a recent reading.
    /// A hand across the mouth reads high, a bare, bearded or masked mouth low (docs/calibration.md).
    public var handOverMouth: Double? = nil
    /// The hand model's flag where the hand lies over another part of the face (nose, an eye, a cheek;
    /// `HandLandmarker.reading`), kept like `handOverMouth`; nil without the model or a recent reading.
    public var handOverFace: Double? = nil
    /// The parts the hand lies over (`HandParts`), for the record.
    public var handParts: HandParts = []
    /// The hand reading of this frame read every crop (`HandReading.complete`; a bare flag, as tests give it,
    /// counts as complete).
    public var handComplete = false

    /// The covered regions by `thresholds`: "mouth" (lower face), "eyes" (both, e.g. sunglasses), "eye"
    /// (one eye, e.g. a hand), "hand" (the hand model sees a hand over the nose, an eye or a cheek); empty when
    /// the face is uncovered.
    /// `margin` (a fraction of each limit, `coverHysteresis`) keeps a region covered until it clears by that much.
    /// `blurry`: the face is `blurry` as `GuidanceRules` judges it (its hysteresis included; the caller decides,
    /// `analyze --json` from the frame's own guidance): then the mirror's flat face (`flatLenses`) is not read —
    /// a blur flattens an eye as a mirror is flat — and a blurry face's eyes are covered only by the other signs
    /// (darkness, the lens's edge). Without it (false) the flat face is read as on a sharp face.
    public func regions(_ t: AnalyzerThresholds, margin: Double = 0, blurry: Bool = false) -> [String] {
        var regions: [String] = []
        if lowerFaceCovered(t, margin: margin) { regions.append("mouth") }
        let right = eyeCovered(
            brightness: rightEyeBrightness, darkness: rightEyeDarkness,
            widthRatio: rightEyeWidthRatio, median: rightEyeMedian, below: rightBelowEye,
            contrast: rightEyeContrast, t, margin: margin)
        let left = eyeCovered(
            brightness: leftEyeBrightness, darkness: leftEyeDarkness,
            widthRatio: leftEyeWidthRatio, median: leftEyeMedian, below: leftBelowEye,
            contrast: leftEyeContrast, t, margin: margin)
        if (right && left) || lensEdges(t, margin: margin) || (!blurry && flatLenses(t, margin: margin)) {
            regions.append("eyes")
        } else if right || left {
            regions.append("eye")
        }
        if handOverFace.map({ $0 >= t.minHandOverFace * (1 - margin) }) ?? false { regions.append("hand") }
        return regions
    }

    /// Something covers the mouth: the mouth shows no lips, seam or teeth at all (a mask, a hand flat over
    /// it), or the lower face is another colour than the skin while the mouth shows little and has the lower
    /// face's own colour (a mask or a scarf: one cloth over both — a beard is another colour too, but the lips
    /// show through it). docs/calibration.md, "Covered faces".
    /// A mouth measure that could not be taken (burnt out, or the lips lost their colour) counts as showing
    /// nothing in the second rule: it is there for a light mask burnt to white in strong light (lower-face
    /// chroma 255), whose mouth cannot be measured either; a beard whose lips are burnt out is called covered
    /// too (in light that strong `tooBright` usually fires as well). Or the hand model sees a hand on the
    /// mouth (`handOverMouth` ≥ `minHandOverMouth`): most hands across the mouth show the lips' range through
    /// the finger gaps and are caught only so. Or the lower face has a hue no skin or hair has
    /// (`lowerFaceHue` > `maxLowerFaceHue`): a green, blue or printed mask, whatever its pleats show.
    public func lowerFaceCovered(_ t: AnalyzerThresholds, margin: Double = 0) -> Bool {
        let hidden = mouthContrast.map { $0 < t.minMouthContrast * (1 + margin) } ?? false
        let coloured =
            lowerFaceChroma > t.maxLowerFaceChroma * (1 - margin)
            && (mouthContrast ?? 0) < t.minColouredMouthContrast * (1 + margin)
            && (mouthChroma ?? 0) < t.maxMaskMouthChroma * (1 + margin)
        let hand = handOverMouth.map { $0 >= t.minHandOverMouth * (1 - margin) } ?? false
        let hue = lowerFaceHue > t.maxLowerFaceHue * (1 - margin)
        return hidden || coloured || hand || hue || neutralDark(t, margin: margin)
    }

    /// A dark mask of no colour (black, charcoal, grey): the lower face nearly neutral (`lowerFaceSaturation`
    /// below `maxNeutralLowerFaceSaturation`, and below the upper face's own, which must have a colour to
    /// compare with: at least `minUpperFaceSaturation`) and darker than the upper face
    /// (`lowerToUpperLuma` below `maxNeutralLowerFaceLuma`). The cheeks are not the reference: a mask pulled up
    /// under the eyes covers them. A grey or white beard is neutral but not dark; a dark beard shows skin.
    func neutralDark(_ t: AnalyzerThresholds, margin: Double = 0) -> Bool {
        guard let low = lowerFaceSaturation, let up = upperFaceSaturation, let luma = lowerToUpperLuma,
            up >= t.minUpperFaceSaturation
        else { return false }
        return low < t.maxNeutralLowerFaceSaturation * (1 + margin) && low < up * (1 + margin)
            && luma < t.maxNeutralLowerFaceLuma * (1 + margin)
    }

    /// Both eyes behind a tinted lens, by the lens's lower edge: the cheek below each eye (seen nearly full
    /// width) steps up by `minLensEdge` or more over the skin seen through the lens (`rightLensEdge`). A lens
    /// that passes much of the light is not dark, and a shadow can be as dark as a light lens; but a shadow
    /// fades and a lens ends. A clear lens in a dark frame shows the skin as it is: its rim is no step. Both
    /// eyes: a pair of glasses has two lenses, and one crease or cast shadow on one cheek is
    /// not a lens. docs/calibration.md, "The lens's edge".
    func lensEdges(_ t: AnalyzerThresholds, margin: Double = 0) -> Bool {
        let limit = t.minLensEdge * (1 - margin)
        return rightLensEdge >= limit && leftLensEdge >= limit
            && rightEyeWidthRatio >= t.minLensEyeWidthRatio && leftEyeWidthRatio >= t.minLensEyeWidthRatio
    }

    /// Both eyes behind mirror lenses, by their flat face: the eye and lids of each (seen nearly full width)
    /// show less fine texture than `maxLensTexture` of their own luma (`rightEyeTexture`) and no dark feature
    /// in the opening (`rightEyeDip` below `maxLensDip`). A mirror reflects the room smoothly and shows the
    /// eye behind it faintly, bright or dark, and may have no edge below it; an eye, open, closed, shadowed or
    /// blurred, keeps its iris or lash line, and a blurred one (flat in texture) keeps it in the dip, unless
    /// it is squeezed shut and blurred (lids alone, flat and smooth): then it has the skin's colour, and each
    /// lens must be at least `minLensChroma` from it (`rightEyeChroma`; an eye whose colour was not measured
    /// passes: a bright mirror clips). A palm laid over an eye is as flat and of the skin's colour too: it is
    /// the hand rule's (`GuidanceRules.handOverAnEye`), not a mirror. Not read
    /// on a face that is `blurry` (`regions(blurry:)`, decided by `GuidanceRules` with `blurry`'s own
    /// hysteresis): a heavy blur flattens both. docs/calibration.md, "A mirror's flat face".
    func flatLenses(_ t: AnalyzerThresholds, margin: Double = 0) -> Bool {
        let texture = t.maxLensTexture * (1 + margin), dip = t.maxLensDip * (1 + margin)
        let chroma = t.minLensChroma * (1 - margin)
        let coloured = (rightEyeChroma ?? .infinity) >= chroma && (leftEyeChroma ?? .infinity) >= chroma
        return coloured && rightEyeTexture < texture && leftEyeTexture < texture && rightEyeDip < dip
            && leftEyeDip < dip
            && rightEyeWidthRatio >= t.minLensEyeWidthRatio && leftEyeWidthRatio >= t.minLensEyeWidthRatio
    }

    /// An eye behind a dark lens or under a hand (no dark iris, lashes or brow). `margin` (a fraction) loosens
    /// the limits for hysteresis. A lens: the opening dark — its brightest tenth (no white of the eye, no lid
    /// skin) or, with a reflection on the lens, its median — and the darkness a lens's, not a shadow's: it
    /// reaches below the eye (`below`), or the opening is flat (`contrast`). The shadow of the brow darkens
    /// the opening but not the band below it, and keeps the iris against the white. Judged only on an eye
    /// seen nearly full width (`widthRatio` ≥ `minLensEyeWidthRatio`): a near-profile's far eye is
    /// foreshortened and shadowed by the nose; the near eye still shows the lens. docs/calibration.md,
    /// "A dark lens told from a shadowed eye".
    func eyeCovered(
        brightness: Double, darkness: Double, widthRatio: Double = 1, median: Double = 1,
        below: Double = 0, contrast: Double = 0, _ t: AnalyzerThresholds, margin: Double = 0
    ) -> Bool {
        let dark = brightness < t.minEyeBrightness * (1 + margin) || median < t.maxLensEyeMedian * (1 + margin)
        let lensLike =
            below < t.maxLensBelowEye * (1 + margin) || contrast < t.maxLensEyeContrast * (1 + margin)
            || brightness < t.maxTintedLensEyeBrightness * (1 + margin)
        let lens = widthRatio >= t.minLensEyeWidthRatio && dark && lensLike
        return lens || darkness > t.maxEyeDarkness * (1 - margin)
    }
}

/// Samples the cover measures from a frame and the face's landmarks.
public enum CoverMeasures {
    /// Patch side in samples (8 × 8 bilinear samples per region).
    static let samples = 8

    /// Mean, Cb/Cr means and 10th/90th luma percentiles of one patch.
    struct Patch {
        var luma: Double, cb: Double, cr: Double, low: Double, high: Double, median = 0.0
        /// False when most samples are clipped: the patch's colour is not the surface's.
        var hasColour: Bool
        /// How many unclipped samples' (Cb − 128, Cr − 128) were written to the caller's chroma buffer.
        var chromaCount = 0
    }

    /// The measures for the face with 468 `points` (frame pixels) and presence logit `presence`; nil without
    /// landmarks or for a frame whose data is too short. Its scratch (samples, sorted lumas, the lower face's
    /// chroma) is on the stack: a frame's measure allocates no buffers.
    public static func measure(frame: Frame, points: [SIMD3<Float>], presence: Float) -> CoverMetrics? {
        guard points.count >= FaceLandmarker.count else { return nil }
        let n = samples * samples
        return withUnsafeTemporaryAllocation(of: SIMD2<Double>.self, capacity: 3 * n) { chroma -> CoverMetrics? in
            withUnsafeTemporaryAllocation(of: Double.self, capacity: 3 * n) { scratch -> CoverMetrics? in
                measure(frame: frame, points: points, presence: presence, chroma: chroma, scratch: scratch)
            }
        }
    }

    /// `measure`, with `chroma` (3 × 64) for the lower face's samples and `scratch` (≥ 3 × 64) for sorting.
    static func measure(
        frame: Frame, points: [SIMD3<Float>], presence: Float,
        chroma: UnsafeMutableBufferPointer<SIMD2<Double>>,
        scratch: UnsafeMutableBufferPointer<Double>
    ) -> CoverMetrics? {
        guard let face = PatchSampler(frame: frame, points: points, chroma: chroma, scratch: scratch) else {
            return nil
        }
        guard let cheekR = face.patch(face.p(118), 0.16, 0.10), let cheekL = face.patch(face.p(347), 0.16, 0.10),
            let forehead = face.patch(face.p(151) + 0.05 * face.eyeSpan * face.down, 0.3, 0.12),
            let chin = face.patch(face.p(200), 0.28, 0.10, chromaAt: 0),
            let besideR = face.patch(face.p(206), 0.12, 0.12, chromaAt: 1),
            let besideL = face.patch(face.p(426), 0.12, 0.12, chromaAt: 2),
            let brows = face.patch(face.p(9), 0.14, 0.08)
        else { return nil }
        // The reference skin: the two upper cheeks, and the forehead unless hair makes it unlike them.
        let cheekLuma = (cheekR.luma + cheekL.luma) / 2
        let withForehead = abs(forehead.luma - cheekLuma) < 0.25 * cheekLuma
        let skinLuma = max(1, withForehead ? (cheekR.luma + cheekL.luma + forehead.luma) / 3 : cheekLuma)
        let lowerPatches = LowerFace(chin: chin, besideR: besideR, besideL: besideL)
        let skinColour = colour(cheekR, cheekL, withForehead ? forehead : nil)
        let cheekColour = colour(cheekR, cheekL, nil)
        let lower = colour(chin, besideR, besideL)
        let lowerChroma = lowerFaceChroma(
            lowerPatches, lower: lower, skin: skinColour, cheeks: cheekColour,
            skinLuma: skinLuma)
        let lowerHue = face.lowerFaceHue(lowerPatches, lower: lower, cheeks: cheekColour)
        let against = lowerAgainstBrows(lowerPatches, lower: lower, brows: brows)
        let mouthChroma = face.mouthChroma(lower: lower)
        let mouth = mouthContrast(
            frame, face.p, eyeSpan: face.eyeSpan, rotation: face.rotation, down: face.down,
            skinLuma: skinLuma)
        guard let right = face.eye(33, 133, cheek: 50, skinLuma: skinLuma, skin: skinColour),
            let left = face.eye(362, 263, cheek: 280, skinLuma: skinLuma, skin: skinColour)
        else { return nil }
        let rightWidth = face.distance(33, 133), leftWidth = face.distance(362, 263)
        let widest = max(rightWidth, leftWidth, 1e-6)
        var metrics = CoverMetrics(
            presence: Double(presence), lowerFaceChroma: lowerChroma, mouthContrast: mouth,
            lowerFaceHue: lowerHue, lowerFaceSaturation: against.lower,
            upperFaceSaturation: against.upper, lowerToUpperLuma: against.lumaRatio,
            mouthChroma: mouthChroma,
            rightEyeBrightness: right.brightness, leftEyeBrightness: left.brightness,
            rightEyeMedian: right.median, leftEyeMedian: left.median,
            rightBelowEye: right.below, leftBelowEye: left.below,
            rightEyeContrast: right.contrast, leftEyeContrast: left.contrast,
            rightLensEdge: right.edge, leftLensEdge: left.edge,
            rightEyeTexture: right.texture, leftEyeTexture: left.texture,
            rightEyeDip: right.dip, leftEyeDip: left.dip,
            rightEyeDarkness: right.darkness, leftEyeDarkness: left.darkness,
            rightEyeWidthRatio: rightWidth / widest, leftEyeWidthRatio: leftWidth / widest)
        (metrics.rightEyeChroma, metrics.leftEyeChroma) = (right.chroma, left.chroma)
        return metrics
    }

    /// The wedge of skin and hair hues reaches this far (radians) to the red side of the skin's own hue: the
    /// chin and the skin around the lips are often redder than the cheeks.
    static let redTolerance = 25 * Double.pi / 180
    /// The hue angle (atan2(Cr − 128, Cb − 128)) skin has in daylight and under a webcam's white balance, and
    /// the range a cheek reading is believed in: the calibration faces read 116°–130° from fair to dark skin.
    static let skinHue = 120 * Double.pi / 180
    static let skinHues = (80 * Double.pi / 180)...(170 * Double.pi / 180)

    /// How far `chroma` (Cb − 128, Cr − 128) lies outside the hues of skin and hair: the wedge from a little
    /// redder than the skin's own hue (`skin`, the cheeks; `redTolerance`) round to yellow (−Cb), any
    /// saturation — skin in light and shadow, brown, blond, ginger, grey and black hair. 0 inside it;
    /// outside, the distance to its nearer edge.
    static func hueDistance(_ chroma: SIMD2<Double>, skin: SIMD2<Double>) -> Double {
        let yellow = SIMD2<Double>(-1, 0)
        // Skin of every tone lies near one hue; a cheek reading far from it is covered itself (a mask reaching
        // up under the eyes) and the usual skin hue stands in for it.
        let measured = (skin * skin).sum() > 1 ? atan2(skin.y, skin.x) : skinHue
        let hue = skinHues.contains(measured) ? measured : skinHue
        let red = hue - redTolerance
        let edge = SIMD2(cos(red), sin(red))
        func cross(_ a: SIMD2<Double>, _ b: SIMD2<Double>) -> Double { a.x * b.y - a.y * b.x }
        let wedge = cross(edge, yellow)
        if wedge > 0, cross(edge, chroma) >= 0, cross(chroma, yellow) >= 0 { return 0 }
        func distance(to ray: SIMD2<Double>) -> Double {
            let off = chroma - max((chroma * ray).sum(), 0) * ray
            return (off * off).sum().squareRoot()
        }
        return min(distance(to: edge), wedge > 0 ? distance(to: yellow) : .infinity)
    }

    /// `CoverMetrics.mouthContrast`: seven columns at 25…75 % of the way from corner 61 to corner 291, on the
    /// line through the middle of the lips (0 to 17), each 3 × 24 samples from 40 % of the lips' height above
    /// the upper lip (0) to as far below the lower lip (17); per column the range of its row means.
    static func mouthContrast(
        _ frame: Frame, _ p: (Int) -> SIMD2<Float>, eyeSpan: Float, rotation: Float,
        down: SIMD2<Float>, skinLuma: Double
    ) -> Double? {
        let a = p(61), b = p(291), centre = (p(0) + p(17)) / 2
        let top = ((p(0) - centre) * down).sum(), bottom = ((p(17) - centre) * down).sum()
        let lips = max(bottom - top, 0.02 * eyeSpan)
        let from = top - 0.4 * lips, to = bottom + 0.4 * lips
        let rows = 24, cols = 3
        return withUnsafeTemporaryAllocation(of: Float.self, capacity: rows * cols * 3) { rgb -> Double? in
            withUnsafeTemporaryAllocation(of: Double.self, capacity: 7) { ranges -> Double? in
                var burnt = 0
                for k in 0..<7 {
                    let t = 0.25 + Float(k) / 12
                    var base = a + t * (b - a)
                    base += ((centre - base) * down).sum() * down
                    let mid = base + (from + to) / 2 * down
                    let map = SamplingMap(
                        centre: Point2(x: mid.x, y: mid.y), width: 0.03 * eyeSpan, height: to - from,
                        rotation: rotation)
                    guard
                        fillTensor(
                            rgb, width: cols, height: rows, from: frame, map: map, border: .replicate, scale: 1,
                            offset: 0)
                    else { return nil }
                    var low = Double.infinity, high = -Double.infinity
                    for r in 0..<rows {
                        var y = 0.0
                        for c in 0..<cols {
                            let i = 3 * (r * cols + c)
                            let sample =
                                0.299 * Double(rgb[i]) + 0.587 * Double(rgb[i + 1]) + 0.114 * Double(rgb[i + 2])
                            if sample >= 250 { burnt += 1 }
                            y += sample
                        }
                        y /= Double(cols)
                        low = min(low, y)
                        high = max(high, y)
                    }
                    ranges[k] = high - low
                }
                guard burnt * 4 <= 7 * rows * cols else { return nil }
                insertionSort(ranges)
                return ranges[3] / skinLuma
            }
        }
    }

    /// Sorts `values` in place without a buffer (a patch's 64 lumas, the lower face's ≤ 192 hue distances).
    static func insertionSort(_ values: UnsafeMutableBufferPointer<Double>) {
        guard values.count > 1 else { return }
        for i in 1..<values.count {
            let v = values[i]
            var j = i
            while j > 0, values[j - 1] > v {
                values[j] = values[j - 1]
                j -= 1
            }
            values[j] = v
        }
    }

    /// An 8 × 8 bilinear sample of the rotated rectangle, as BT.601 Y, Cb, Cr statistics; `scratch` (≥ 64)
    /// holds the lumas, and `chroma` (64), when given, receives each unclipped sample's (Cb − 128, Cr − 128).
    static func sample(
        _ frame: Frame, centre: SIMD2<Float>, width: Float, height: Float, rotation: Float,
        scratch: UnsafeMutableBufferPointer<Double>,
        chroma: UnsafeMutableBufferPointer<SIMD2<Double>>? = nil
    ) -> Patch? {
        let n = samples
        return withUnsafeTemporaryAllocation(of: Float.self, capacity: n * n * 3) { rgb -> Patch? in
            let map = SamplingMap(
                centre: Point2(x: centre.x, y: centre.y), width: width, height: height,
                rotation: rotation)
            guard
                fillTensor(
                    rgb, width: n, height: n, from: frame, map: map, border: .replicate, scale: 1,
                    offset: 0)
            else { return nil }
            let lumas = UnsafeMutableBufferPointer(rebasing: scratch[0..<(n * n)])
            // Colour (BT.601 Cb, Cr) from unclipped samples only: a channel at 235+ is on its way to clipping and
            // has lost its hue (an over-exposed cheek turns orange); a patch with fewer than half such samples
            // has no colour of its own.
            var cb = 0.0, cr = 0.0, coloured = 0.0
            var cbAll = 0.0, crAll = 0.0
            var chromaCount = 0
            for i in 0..<(n * n) {
                let r = Double(rgb[3 * i]), g = Double(rgb[3 * i + 1]), b = Double(rgb[3 * i + 2])
                let y = 0.299 * r + 0.587 * g + 0.114 * b
                lumas[i] = y
                let u = 128 + 0.564 * (b - y), v = 128 + 0.713 * (r - y)
                cbAll += u; crAll += v
                if max(r, g, b) < 235 {
                    cb += u; cr += v; coloured += 1
                    if let chroma {
                        chroma[chromaCount] = SIMD2(u - 128, v - 128)
                        chromaCount += 1
                    }
                }
            }
            let count = Double(n * n)
            let hasColour = coloured >= count / 2
            if coloured == 0 { (cb, cr, coloured) = (cbAll, crAll, count) }
            insertionSort(lumas)
            var sum = 0.0
            for y in lumas { sum += y }
            return Patch(
                luma: sum / count, cb: cb / coloured, cr: cr / coloured,
                low: lumas[n * n / 10], high: lumas[n * n - 1 - n * n / 10], median: lumas[n * n / 2],
                hasColour: hasColour, chromaCount: chromaCount)
        }
    }
}
