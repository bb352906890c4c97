// Where the oval guide lies in the preview's pixels, and which colour its outline shows at a pixel.

import FaceCapCore

#if canImport(Glibc)
import Glibc
#endif

/// The oval in preview pixels, worked out once per preview size (`PreviewRaster.prepare`): the face region the
/// tone gain is measured on, and the outline mask the guide is drawn from.
struct OvalMask {
    let pixelsWide: Int, pixelsHigh: Int
    let frameWidth: Int, frameHeight: Int
    let mirror: Bool

    /// Marks the pixels inside `region`'s ellipse (the oval, or where the analyzer's default oval lies).
    func markFaceRegion(_ region: PreviewOverlay, into faceRegion: UnsafeMutableBufferPointer<Bool>) {
        let regionCentreX = (mirror ? 1 - region.centreX : region.centreX) * Double(pixelsWide)
        let regionCentreY = region.centreY * Double(pixelsHigh)
        let regionA = region.widthFraction * Double(pixelsWide) / 2
        let regionB =
            region.widthFraction * Double(frameWidth) * region.heightToWidth / 2
            * Double(pixelsHigh) / Double(frameHeight)
        guard regionA > 0, regionB > 0 else { return }
        for j in 0..<pixelsHigh {
            for i in 0..<pixelsWide {
                let u = (Double(i) + 0.5 - regionCentreX) / regionA, v = (Double(j) + 0.5 - regionCentreY) / regionB
                faceRegion[j * pixelsWide + i] = u * u + v * v <= 1
            }
        }
    }

    /// Marks the outline of `overlay`'s oval (0...1000: clockwise position from the top) and, when it dims the
    /// picture outside, the pixels outside it (-2); the rest keeps -1 (inside).
    func markOutline(_ overlay: PreviewOverlay, into mask: UnsafeMutableBufferPointer<Int16>) {
        // Preview pixels are square (the fit keeps the aspect), so one scale from frame pixels serves both axes;
        // the mirror moves the centre, not the shape.
        let scaleX = Double(pixelsWide) / Double(frameWidth), scaleY = Double(pixelsHigh) / Double(frameHeight)
        let centreFrameX = mirror ? 1 - overlay.centreX : overlay.centreX
        let cx = centreFrameX * Double(pixelsWide), cy = overlay.centreY * Double(pixelsHigh)
        let a = overlay.widthFraction * Double(frameWidth) / 2 * scaleX
        let b = overlay.widthFraction * Double(frameWidth) * overlay.heightToWidth / 2 * scaleY
        guard a > 0, b > 0 else { return }
        @inline(__always) func inside(_ x: Double, _ y: Double) -> Bool {
            let u = (x - cx) / a, v = (y - cy) / b
            return u * u + v * v <= 1
        }
        for j in 0..<pixelsHigh {
            for i in 0..<pixelsWide {
                let x = Double(i), y = Double(j)
                let cornersInside =
                    (inside(x, y) ? 1 : 0) + (inside(x + 1, y) ? 1 : 0) + (inside(x, y + 1) ? 1 : 0)
                    + (inside(x + 1, y + 1) ? 1 : 0)
                let index = j * pixelsWide + i
                if cornersInside > 0 && cornersInside < 4 {
                    // Clockwise from the top, on screen: atan2 of (right, down).
                    var angle = atan2(x + 0.5 - cx, -(y + 0.5 - cy) * a / b)
                    if angle < 0 { angle += 2 * Double.pi }
                    mask[index] = Int16(min(1000, Int(angle / (2 * Double.pi) * 1000)))
                } else if cornersInside == 0 {
                    mask[index] = overlay.dimsOutside ? -2 : -1
                }
            }
        }
    }
}

/// Per frame: which colour the oval's outline shows at a pixel of the mask, if any. The part the stability
/// window has filled and the rest differ; the outline is dashed (a shape cue besides the colour) until the face
/// is ready, then solid.
struct OvalGuide {
    let colours: (filled: SIMD3<Float>, open: SIMD3<Float>)?
    let dashed: Bool
    /// Outline positions below this are drawn as filled; a full window fills all of it.
    let filled: Int

    init(_ overlay: PreviewOverlay?) {
        colours = overlay.map { PreviewRaster.guideColours($0.state) }
        dashed = overlay.map { $0.state == .searching || $0.state == .adjusting } ?? false
        let stability = overlay?.stability ?? 0
        filled = stability >= 1 ? 1001 : Int(max(0, stability.isFinite ? stability : 0) * 1000)
    }

    /// The outline's colour at a pixel whose mask is `m`, or nil where the picture shows.
    @inline(__always)
    func colour(mask m: Int16) -> SIMD3<Float>? {
        guard m >= 0, let colours, !(dashed && m / 42 % 2 == 1) else { return nil }
        return Int(m) < filled ? colours.filled : colours.open
    }
}
