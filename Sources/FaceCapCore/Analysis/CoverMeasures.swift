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
    /// Chroma distance (Cb, Cr) between the mouth (the middle of the lips) and the lower face (chin, beside the
    /// mouth); nil when either lost its colour. Under a mask both are the same cloth; lips show through a beard.
    public var mouthChroma: Double?
    /// Per eye (subject's right, left): the brightest tenth of the eye region's luma over the reference skin
    /// luma; dark lenses keep it low (the white of the eye and the skin around it are gone).
    public var rightEyeBrightness: Double
    public var leftEyeBrightness: Double
    /// Per eye: the darkest tenth of the eye-and-brow region's luma over the reference skin luma; an eye, its
    /// lashes and brow always have dark parts, a hand over the eye has none.
    public var rightEyeDarkness: Double
    public var leftEyeDarkness: Double
    /// The hand-landmark model's hand flag on the mouth (0…1, `HandLandmarker`), from this frame or, between
    /// the model's runs, the last reading within `handMemory`; nil without the model or a recent reading.
    /// A hand across the mouth reads high, a bare, bearded or masked mouth low (docs/calibration.md).
    public var handOverMouth: Double? = nil

    /// The covered regions by `thresholds`: "mouth" (lower face), "eyes" (both, e.g. sunglasses), "eye"
    /// (one eye, e.g. a hand); empty when the face is uncovered.
    /// `margin` (a fraction of each limit, `coverHysteresis`) keeps a region covered until it clears by that much.
    public func regions(_ t: AnalyzerThresholds, margin: Double = 0) -> [String] {
        var regions: [String] = []
        if lowerFaceCovered(t, margin: margin) { regions.append("mouth") }
        let right = eyeCovered(brightness: rightEyeBrightness, darkness: rightEyeDarkness, t, margin: margin)
        let left = eyeCovered(brightness: leftEyeBrightness, darkness: leftEyeDarkness, t, margin: margin)
        if right && left {
            regions.append("eyes")
        } else if right || left {
            regions.append("eye")
        }
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
        let coloured = lowerFaceChroma > t.maxLowerFaceChroma * (1 - margin)
            && (mouthContrast ?? 0) < t.minColouredMouthContrast * (1 + margin)
            && (mouthChroma ?? 0) < t.maxMaskMouthChroma * (1 + margin)
        let hand = handOverMouth.map { $0 >= t.minHandOverMouth * (1 - margin) } ?? false
        let hue = lowerFaceHue > t.maxLowerFaceHue * (1 - margin)
        return hidden || coloured || hand || hue
    }

    /// An eye behind a dark lens (no bright white of the eye or skin) or under a hand (no dark iris, lashes
    /// or brow). `margin` (a fraction) loosens the limits for hysteresis.
    func eyeCovered(brightness: Double, darkness: Double, _ t: AnalyzerThresholds, margin: Double = 0) -> Bool {
        brightness < t.minEyeBrightness * (1 + margin) || darkness > t.maxEyeDarkness * (1 - margin)
    }
}

/// Samples the cover measures from a frame and the face's landmarks.
public enum CoverMeasures {
    /// Patch side in samples (8 × 8 bilinear samples per region).
    static let samples = 8

    /// Mean, Cb/Cr means and 10th/90th luma percentiles of one patch.
    struct Patch {
        var luma: Double, cb: Double, cr: Double, low: Double, high: Double
        /// False when most samples are clipped: the patch's colour is not the surface's.
        var hasColour: Bool
        /// (Cb − 128, Cr − 128) of every unclipped sample.
        var chroma: [SIMD2<Double>] = []
    }

    /// The measures for the face with 468 `points` (frame pixels) and presence logit `presence`; nil without
    /// landmarks or for a frame whose data is too short.
    public static func measure(frame: Frame, points: [SIMD3<Float>], presence: Float) -> CoverMetrics? {
        guard points.count >= FaceLandmarker.count else { return nil }
        func p(_ i: Int) -> SIMD2<Float> { SIMD2(points[i].x, points[i].y) }
        let across = p(263) - p(33)
        let eyeSpan = (across * across).sum().squareRoot()
        guard eyeSpan > 2 else { return nil }
        let rotation = atan2f(across.y, across.x)
        let down = SIMD2(-across.y, across.x) / eyeSpan
        // A patch of `w × h` eye spans (corner 33 to corner 263) around `centre`, level with the eyes.
        func patch(_ centre: SIMD2<Float>, _ w: Float, _ h: Float) -> Patch? {
            sample(frame, centre: centre, width: w * eyeSpan, height: h * eyeSpan, rotation: rotation)
        }
        func mid(_ a: Int, _ b: Int) -> SIMD2<Float> { (p(a) + p(b)) / 2 }
        guard let cheekR = patch(p(118), 0.16, 0.10), let cheekL = patch(p(347), 0.16, 0.10),
              let forehead = patch(p(151) + 0.05 * eyeSpan * down, 0.3, 0.12),
              let chin = patch(p(200), 0.28, 0.10),
              let besideR = patch(p(206), 0.12, 0.12), let besideL = patch(p(426), 0.12, 0.12) else { return nil }
        // The reference skin: the two upper cheeks, and the forehead unless hair makes it unlike them.
        let cheeks = [cheekR, cheekL]
        var skinPatches = cheeks
        let cheekLuma = (cheekR.luma + cheekL.luma) / 2
        if abs(forehead.luma - cheekLuma) < 0.25 * cheekLuma { skinPatches.append(forehead) }
        let skinLuma = max(1, skinPatches.reduce(0) { $0 + $1.luma } / Double(skinPatches.count))
        // Colour only from patches that kept theirs (not clipped); none left: no colour verdict.
        let skinColour = skinPatches.filter(\.hasColour)
        let lowerAll = [chin, besideR, besideL]
        let lower = lowerAll.filter(\.hasColour)
        var lowerChroma = 0.0
        var mouthChroma: Double?
        if cheeks.contains(where: \.hasColour), lower.isEmpty, lowerAll.reduce(0, { $0 + $1.luma }) / 3 > skinLuma {
            // A lower face burnt to white under cheeks that kept their colour: a white or light mask in strong
            // light (skin in front of it would be darker than the cheeks, not brighter): another colour. (The
            // cheeks, not the forehead: a light fringe there keeps its colour when the skin has lost it.)
            lowerChroma = 255
        } else if !skinColour.isEmpty, !lower.isEmpty {
            let n = Double(skinColour.count), m = Double(lower.count)
            let skinCb = skinColour.reduce(0) { $0 + $1.cb } / n, skinCr = skinColour.reduce(0) { $0 + $1.cr } / n
            let lowerCb = lower.reduce(0) { $0 + $1.cb } / m, lowerCr = lower.reduce(0) { $0 + $1.cr } / m
            lowerChroma = ((lowerCb - skinCb) * (lowerCb - skinCb) + (lowerCr - skinCr) * (lowerCr - skinCr))
                .squareRoot()
        }
        // The hue reference is the cheeks alone: a fringe on the forehead can pass for skin by its luma.
        var lowerHue = 0.0
        let cheekColour = cheeks.filter(\.hasColour)
        let lowerSamples = lower.flatMap(\.chroma)
        if !cheekColour.isEmpty, !lowerSamples.isEmpty {
            let n = Double(cheekColour.count)
            let skin = SIMD2(cheekColour.reduce(0) { $0 + $1.cb } / n - 128,
                             cheekColour.reduce(0) { $0 + $1.cr } / n - 128)
            let distances = lowerSamples.map { hueDistance($0, skin: skin) }.sorted()
            lowerHue = distances[distances.count / 2]
        }
        let mouthWidth = ((p(291) - p(61)) * (p(291) - p(61))).sum().squareRoot() / eyeSpan
        let lipsHeight = ((p(17) - p(0)) * (p(17) - p(0))).sum().squareRoot() / eyeSpan
        if !lower.isEmpty, let lips = patch(mid(0, 17), 0.6 * mouthWidth, max(0.7 * lipsHeight, 0.03)), lips.hasColour {
            let m = Double(lower.count)
            let lowerCb = lower.reduce(0) { $0 + $1.cb } / m, lowerCr = lower.reduce(0) { $0 + $1.cr } / m
            mouthChroma = ((lips.cb - lowerCb) * (lips.cb - lowerCb) + (lips.cr - lowerCr) * (lips.cr - lowerCr))
                .squareRoot()
        }

        let mouth = mouthContrast(frame, p, eyeSpan: eyeSpan, rotation: rotation, down: down, skinLuma: skinLuma)

        func eye(_ a: Int, _ b: Int) -> (brightness: Double, darkness: Double)? {
            let v = p(b) - p(a)
            let width = (v * v).sum().squareRoot() / eyeSpan
            guard let opening = patch(mid(a, b), 0.8 * width, 0.35 * width),
                  let region = patch(mid(a, b) - 0.3 * width * eyeSpan * down, 1.4 * width, 1.1 * width) else {
                return nil
            }
            return (opening.high / skinLuma, region.low / skinLuma)
        }
        guard let right = eye(33, 133), let left = eye(362, 263) else { return nil }
        return CoverMetrics(presence: Double(presence), lowerFaceChroma: lowerChroma, mouthContrast: mouth,
                            lowerFaceHue: lowerHue, mouthChroma: mouthChroma,
                            rightEyeBrightness: right.brightness, leftEyeBrightness: left.brightness,
                            rightEyeDarkness: right.darkness, leftEyeDarkness: left.darkness)
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
    static func mouthContrast(_ frame: Frame, _ p: (Int) -> SIMD2<Float>, eyeSpan: Float, rotation: Float,
                              down: SIMD2<Float>, skinLuma: Double) -> Double? {
        let a = p(61), b = p(291), centre = (p(0) + p(17)) / 2
        let top = ((p(0) - centre) * down).sum(), bottom = ((p(17) - centre) * down).sum()
        let lips = max(bottom - top, 0.02 * eyeSpan)
        let from = top - 0.4 * lips, to = bottom + 0.4 * lips
        let rows = 24, cols = 3
        var ranges: [Double] = []
        var burnt = 0
        var rgb = [Float](repeating: 0, count: rows * cols * 3)
        for k in 0..<7 {
            let t = 0.25 + Float(k) / 12
            var base = a + t * (b - a)
            base += ((centre - base) * down).sum() * down
            let mid = base + (from + to) / 2 * down
            let map = SamplingMap(centre: Point2(x: mid.x, y: mid.y), width: 0.03 * eyeSpan, height: to - from,
                                  rotation: rotation)
            let filled = rgb.withUnsafeMutableBufferPointer {
                fillTensor($0, width: cols, height: rows, from: frame, map: map, border: .replicate, scale: 1, offset: 0)
            }
            guard filled else { return nil }
            var low = Double.infinity, high = -Double.infinity
            for r in 0..<rows {
                var y = 0.0
                for c in 0..<cols {
                    let i = 3 * (r * cols + c)
                    let sample = 0.299 * Double(rgb[i]) + 0.587 * Double(rgb[i + 1]) + 0.114 * Double(rgb[i + 2])
                    if sample >= 250 { burnt += 1 }
                    y += sample
                }
                y /= Double(cols)
                low = min(low, y)
                high = max(high, y)
            }
            ranges.append(high - low)
        }
        guard burnt * 4 <= 7 * rows * cols else { return nil }
        ranges.sort()
        return ranges[ranges.count / 2] / skinLuma
    }

    /// An 8 × 8 bilinear sample of the rotated rectangle, as BT.601 Y, Cb, Cr statistics.
    static func sample(_ frame: Frame, centre: SIMD2<Float>, width: Float, height: Float, rotation: Float) -> Patch? {
        let n = samples
        var rgb = [Float](repeating: 0, count: n * n * 3)
        let map = SamplingMap(centre: Point2(x: centre.x, y: centre.y), width: width, height: height,
                              rotation: rotation)
        let filled = rgb.withUnsafeMutableBufferPointer {
            fillTensor($0, width: n, height: n, from: frame, map: map, border: .replicate, scale: 1, offset: 0)
        }
        guard filled else { return nil }
        var lumas = [Double](repeating: 0, count: n * n)
        // Colour (BT.601 Cb, Cr) from unclipped samples only: a channel at 235+ is on its way to clipping and
        // has lost its hue (an over-exposed cheek turns orange); a patch with fewer than half such samples
        // has no colour of its own.
        var cb = 0.0, cr = 0.0, coloured = 0.0
        var cbAll = 0.0, crAll = 0.0
        var chroma: [SIMD2<Double>] = []
        chroma.reserveCapacity(n * n)
        for i in 0..<(n * n) {
            let r = Double(rgb[3 * i]), g = Double(rgb[3 * i + 1]), b = Double(rgb[3 * i + 2])
            let y = 0.299 * r + 0.587 * g + 0.114 * b
            lumas[i] = y
            let u = 128 + 0.564 * (b - y), v = 128 + 0.713 * (r - y)
            cbAll += u; crAll += v
            if max(r, g, b) < 235 {
                cb += u; cr += v; coloured += 1
                chroma.append(SIMD2(u - 128, v - 128))
            }
        }
        let count = Double(n * n)
        let hasColour = coloured >= count / 2
        if coloured == 0 { (cb, cr, coloured) = (cbAll, crAll, count) }
        lumas.sort()
        return Patch(luma: lumas.reduce(0, +) / count, cb: cb / coloured, cr: cr / coloured,
                     low: lumas[n * n / 10], high: lumas[n * n - 1 - n * n / 10], hasColour: hasColour,
                     chroma: chroma)
    }
}
