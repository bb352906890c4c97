#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `CoverMeasures.measure`'s parts: the patches it samples around the face, and what it reads from them.
extension CoverMeasures {
    /// Samples patches on one face: sizes in eye spans (corner 33 to corner 263), level with the eyes.
    struct PatchSampler {
        let frame: Frame
        let points: [SIMD3<Float>]
        /// The lower face's chroma (3 slots of `samples × samples`) and the sorting scratch.
        let chroma: UnsafeMutableBufferPointer<SIMD2<Double>>
        let scratch: UnsafeMutableBufferPointer<Double>
        let eyeSpan: Float
        let rotation: Float
        /// A unit step down the face, across the eyes' line.
        let down: SIMD2<Float>

        /// Nil when the eyes are less than 2 pixels apart.
        init?(
            frame: Frame, points: [SIMD3<Float>], chroma: UnsafeMutableBufferPointer<SIMD2<Double>>,
            scratch: UnsafeMutableBufferPointer<Double>
        ) {
            self.frame = frame
            self.points = points
            self.chroma = chroma
            self.scratch = scratch
            let across = SIMD2(points[263].x, points[263].y) - SIMD2(points[33].x, points[33].y)
            eyeSpan = (across * across).sum().squareRoot()
            guard eyeSpan > 2 else { return nil }
            rotation = atan2f(across.y, across.x)
            down = SIMD2(-across.y, across.x) / eyeSpan
        }

        func p(_ i: Int) -> SIMD2<Float> { SIMD2(points[i].x, points[i].y) }
        func mid(_ a: Int, _ b: Int) -> SIMD2<Float> { (p(a) + p(b)) / 2 }
        func distance(_ a: Int, _ b: Int) -> Double { Double(((p(b) - p(a)) * (p(b) - p(a))).sum().squareRoot()) }

        /// A patch of `w × h` eye spans around `centre`, its chroma kept in `slot` when given.
        func patch(_ centre: SIMD2<Float>, _ w: Float, _ h: Float, chromaAt slot: Int? = nil) -> Patch? {
            let n = samples * samples
            let into = slot.map { UnsafeMutableBufferPointer(rebasing: chroma[($0 * n)..<($0 * n + n)]) }
            return sample(
                frame, centre: centre, width: w * eyeSpan, height: h * eyeSpan, rotation: rotation,
                scratch: scratch, chroma: into)
        }

        /// The median of the lower face's samples' distances outside the hues of skin and hair, against the
        /// cheeks alone (a fringe on the forehead can pass for skin by its luma); 0 without colour.
        func lowerFaceHue(_ lowerFace: LowerFace, lower: Colour, cheeks: Colour) -> Double {
            guard cheeks.count > 0, lower.count > 0 else { return 0 }
            let n = samples * samples
            let skin = SIMD2(cheeks.cb - 128, cheeks.cr - 128)
            var count = 0
            func add(_ patch: Patch, slot: Int) {
                guard patch.hasColour else { return }
                for i in 0..<patch.chromaCount {
                    scratch[count] = hueDistance(chroma[slot * n + i], skin: skin)
                    count += 1
                }
            }
            add(lowerFace.chin, slot: 0); add(lowerFace.besideR, slot: 1); add(lowerFace.besideL, slot: 2)
            guard count > 0 else { return 0 }
            let distances = UnsafeMutableBufferPointer(rebasing: scratch[0..<count])
            insertionSort(distances)
            return distances[count / 2]
        }

        /// The lips' colour against the lower face's.
        func mouthChroma(lower: Colour) -> Double? {
            let mouthWidth = ((p(291) - p(61)) * (p(291) - p(61))).sum().squareRoot() / eyeSpan
            let lipsHeight = ((p(17) - p(0)) * (p(17) - p(0))).sum().squareRoot() / eyeSpan
            guard lower.count > 0, let lips = patch(mid(0, 17), 0.6 * mouthWidth, max(0.7 * lipsHeight, 0.03)),
                lips.hasColour
            else { return nil }
            return ((lips.cb - lower.cb) * (lips.cb - lower.cb) + (lips.cr - lower.cr) * (lips.cr - lower.cr))
                .squareRoot()
        }

        /// One eye from corner `a` to corner `b`: the brightest tenth of its opening, the darkest of the region
        /// around it, the opening's median, the band just below it against `cheek`, and the opening's contrast.
        func eye(_ a: Int, _ b: Int, cheek: Int, skinLuma: Double, skin: Colour) -> Eye? {
            let v = p(b) - p(a)
            let width = (v * v).sum().squareRoot() / eyeSpan
            guard let opening = patch(mid(a, b), 0.8 * width, 0.35 * width),
                let region = patch(mid(a, b) - 0.3 * width * eyeSpan * down, 1.4 * width, 1.1 * width),
                let band = patch(mid(a, b) + 0.45 * width * eyeSpan * down, 0.7 * width, 0.15 * width),
                let side = patch(p(cheek), 0.14, 0.10)
            else {
                return nil
            }
            // The lens measures against the darker of the skin and this eye's own cheek: in a hard side light
            // the far eye and its cheek are dark alike.
            let reference = max(1, min(skinLuma, side.luma))
            return Eye(
                brightness: opening.high / reference, darkness: region.low / skinLuma,
                median: opening.median / reference, below: band.luma / max(side.luma, 1),
                contrast: (opening.high - opening.low) / max(opening.high, 1),
                edge: lensEdge(below: mid(a, b), eyeWidth: width * eyeSpan) ?? 0,
                texture: lensTexture(at: mid(a, b), eyeWidth: width * eyeSpan) ?? 1,
                dip: (opening.median - opening.low) / max(opening.median, 1),
                chroma: opening.hasColour && skin.count > 0 ? hypot(opening.cb - skin.cb, opening.cr - skin.cr) : nil)
        }

        /// `CoverMetrics.rightEyeTexture`: the eye and its lids (1.0 × 0.5 eye widths around the corners' middle,
        /// `lensTextureColumns` × `lensTextureRows` samples 1/16 of an eye width apart): the mean of each inner
        /// sample's luma less the mean of its four neighbours, over the patch's mean luma. An eye shows iris,
        /// white, lash line and lid creases, however shadowed or tinted (the ratio keeps); a mirror shows its
        /// own smooth reflection with the eye only faintly behind it (a patch past the frame's edge reads its edge pixels
        /// repeated, which look flat). Nil when the frame's data is short.
        func lensTexture(at centre: SIMD2<Float>, eyeWidth: Float) -> Double? {
            let rows = lensTextureRows, cols = lensTextureColumns
            return withUnsafeTemporaryAllocation(of: Float.self, capacity: rows * cols * 3) { rgb -> Double? in
                let map = SamplingMap(
                    centre: Point2(x: centre.x, y: centre.y), width: eyeWidth,
                    height: 0.5 * eyeWidth, rotation: rotation)
                guard
                    fillTensor(
                        rgb, width: cols, height: rows, from: frame, map: map, border: .replicate,
                        scale: 1, offset: 0)
                else { return nil }
                func y(_ r: Int, _ c: Int) -> Double {
                    let i = 3 * (r * cols + c)
                    return 0.299 * Double(rgb[i]) + 0.587 * Double(rgb[i + 1]) + 0.114 * Double(rgb[i + 2])
                }
                var total = 0.0, detail = 0.0
                for r in 0..<rows {
                    for c in 0..<cols {
                        total += y(r, c)
                        guard r > 0, r < rows - 1, c > 0, c < cols - 1 else { continue }
                        detail += abs(y(r, c) - (y(r - 1, c) + y(r + 1, c) + y(r, c - 1) + y(r, c + 1)) / 4)
                    }
                }
                let mean = total / Double(rows * cols)
                return detail / Double((rows - 2) * (cols - 2)) / max(mean, 1)
            }
        }

        /// `CoverMetrics.rightLensEdge`: a strip below the eye (0.6 eye widths wide, from 0.22 to 1.4 eye widths
        /// down, from the lower lid over the cheek: `lensEdgeRows` rows of `lensEdgeColumns` samples) read as one
        /// luma profile, and the largest step up it takes: the mean of three rows over the lens-sized span above
        /// them (`lensEdgeSpan` rows, 0.26 eye widths), read by its second-brightest row. A lens's lower edge is
        /// such a step, from the tinted skin behind it to the bare cheek (1/T for a lens passing T of the light);
        /// the frame's rim, however thick (up to half the span), is the span's darkest rows and is not read, so
        /// clear glasses in a dark frame step by about 1; a shadow fades over the cheek. Nil when the strip is
        /// outside the frame.
        func lensEdge(below centre: SIMD2<Float>, eyeWidth: Float) -> Double? {
            let rows = lensEdgeRows, cols = lensEdgeColumns
            return withUnsafeTemporaryAllocation(of: Float.self, capacity: rows * cols * 3) { rgb -> Double? in
                withUnsafeTemporaryAllocation(of: Double.self, capacity: rows) { profile -> Double? in
                    let mid = centre + 0.81 * eyeWidth * down
                    let map = SamplingMap(
                        centre: Point2(x: mid.x, y: mid.y), width: 0.6 * eyeWidth,
                        height: 1.18 * eyeWidth, rotation: rotation)
                    guard
                        fillTensor(
                            rgb, width: cols, height: rows, from: frame, map: map, border: .replicate,
                            scale: 1, offset: 0)
                    else { return nil }
                    for r in 0..<rows {
                        var y = 0.0
                        for c in 0..<cols {
                            let i = 3 * (r * cols + c)
                            y += 0.299 * Double(rgb[i]) + 0.587 * Double(rgb[i + 1]) + 0.114 * Double(rgb[i + 2])
                        }
                        profile[r] = y / Double(cols)
                    }
                    var step = 0.0
                    for k in lensEdgeSpan...(rows - 3) {
                        var first = 0.0, second = 0.0
                        for r in (k - lensEdgeSpan)..<k {
                            if profile[r] > first {
                                (first, second) = (profile[r], first)
                            } else if profile[r] > second {
                                second = profile[r]
                            }
                        }
                        let outside = (profile[k] + profile[k + 1] + profile[k + 2]) / 3
                        step = max(step, outside / max(second, 1))
                    }
                    return step
                }
            }
        }
    }

    /// The lens-edge strip's rows (0.033 eye widths apart) and columns, and the span above a step it reads
    /// the lens by (0.26 eye widths: a rim up to six rows, 0.2 eye widths, thick leaves the span's two
    /// brightest rows inside the lens).
    static let lensEdgeRows = 36
    static let lensEdgeColumns = 4
    static let lensEdgeSpan = 8
    /// The lens-texture patch's samples across and down the eye (`PatchSampler.lensTexture`).
    static let lensTextureColumns = 16
    static let lensTextureRows = 8

    struct Eye {
        var brightness: Double, darkness: Double, median: Double, below: Double, contrast: Double, edge: Double
        var texture: Double, dip: Double
        /// The opening's chroma distance from the skin's; nil when either lost its colour.
        var chroma: Double?
    }

    /// The chin and the skin beside the mouth on either side, their chroma in slots 0, 1 and 2.
    struct LowerFace {
        var chin: Patch, besideR: Patch, besideL: Patch
    }

    /// Mean chroma over the patches that kept their colour (not clipped), and how many did; (0, 0, 0) for none.
    typealias Colour = (cb: Double, cr: Double, count: Double)

    /// Colour only from patches that kept theirs; none left: no colour verdict. (Sums over the patches in place:
    /// no arrays of patches per frame.)
    static func colour(_ a: Patch, _ b: Patch, _ c: Patch?) -> Colour {
        var cb = 0.0, cr = 0.0, count = 0.0
        func add(_ patch: Patch?) {
            guard let patch, patch.hasColour else { return }
            cb += patch.cb; cr += patch.cr; count += 1
        }
        add(a); add(b); add(c)
        return count > 0 ? (cb / count, cr / count, count) : (0, 0, 0)
    }

    /// The lower face's chroma distance from the skin's.
    static func lowerFaceChroma(
        _ lowerFace: LowerFace, lower: Colour, skin: Colour, cheeks: Colour,
        skinLuma: Double
    ) -> Double {
        let lumaMean = (lowerFace.chin.luma + lowerFace.besideR.luma + lowerFace.besideL.luma) / 3
        if cheeks.count > 0, lower.count == 0, lumaMean > skinLuma {
            // A lower face burnt to white under cheeks that kept their colour: a white or light mask in strong
            // light (skin in front of it would be darker than the cheeks, not brighter): another colour. (The
            // cheeks, not the forehead: a light fringe there keeps its colour when the skin has lost it.)
            return 255
        }
        guard skin.count > 0, lower.count > 0 else { return 0 }
        return ((lower.cb - skin.cb) * (lower.cb - skin.cb) + (lower.cr - skin.cr) * (lower.cr - skin.cr))
            .squareRoot()
    }

    /// The lower face against the upper face between the brows: saturation and luma (`neutralDark`). The brows'
    /// colour even when a channel nears clipping (a ruddy skin's red at 240 still has its hue: it can only read
    /// less saturated, never more), but not burnt to white.
    static func lowerAgainstBrows(_ lowerFace: LowerFace, lower: Colour, brows: Patch)
        -> (lower: Double?, upper: Double?, lumaRatio: Double?)
    {
        guard lower.count > 0, brows.luma < 230 else { return (nil, nil, nil) }
        let chin = lowerFace.chin, besideR = lowerFace.besideR, besideL = lowerFace.besideL
        let luma =
            ((chin.hasColour ? chin.luma : 0) + (besideR.hasColour ? besideR.luma : 0)
                + (besideL.hasColour ? besideL.luma : 0)) / lower.count
        func saturation(_ cb: Double, _ cr: Double, _ y: Double) -> Double {
            ((cb - 128) * (cb - 128) + (cr - 128) * (cr - 128)).squareRoot() / max(y, 1)
        }
        return (
            saturation(lower.cb, lower.cr, luma), saturation(brows.cb, brows.cr, brows.luma),
            luma / max(brows.luma, 1)
        )
    }
}
