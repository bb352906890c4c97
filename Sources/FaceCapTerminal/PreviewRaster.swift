import FaceCapCore
#if canImport(Glibc)
import Glibc
#endif

/// One terminal cell of a picture: a character and its colours.
public struct PreviewCell: Equatable, Sendable {
    /// "▀" (foreground = upper pixel, background = lower pixel), or a luminance-ramp character.
    public var character: Unicode.Scalar
    /// Terminal colour number (palette index, or 0xRRGGBB in truecolor); -1 is the terminal's default.
    public var foreground: Int32
    public var background: Int32
    /// Part of the oval guide: drawn bold, so that it stands out even without colour.
    public var isGuide: Bool

    public init(character: Unicode.Scalar, foreground: Int32 = -1, background: Int32 = -1, isGuide: Bool = false) {
        self.character = character
        self.foreground = foreground
        self.background = background
        self.isGuide = isGuide
    }

    public static let blank = PreviewCell(character: " ")
}

/// The oval guide drawn over the live preview, where the analyzer wants the face.
public struct PreviewOverlay: Equatable, Sendable {
    public var state: OvalState
    /// 0...1: how much of the stability window has passed; the outline fills clockwise from the top.
    public var stability: Double
    /// Oval centre as a fraction of the (unmirrored) frame; the analyzer's `ovalCentreX`/`ovalCentreY`.
    public var centreX: Double
    public var centreY: Double
    /// Oval width as a fraction of the frame width: the middle of the analyzer's accepted face widths.
    public var widthFraction: Double
    /// Oval height over width. The analyzer's face box is the landmarks' bounds, about 1.15 times as
    /// tall as wide; a little more leaves room for the hairline.
    public var heightToWidth: Double
    /// Darken the picture outside the oval, so the eye goes to the oval.
    public var dimsOutside: Bool

    /// The oval where `thresholds` want the face: centred on their target, as wide as the middle of
    /// `minFaceWidth...maxFaceWidth` (0.4 of the frame by default).
    public init(state: OvalState, stability: Double, thresholds: AnalyzerThresholds = AnalyzerThresholds(),
                dimsOutside: Bool = true) {
        self.state = state
        self.stability = stability
        centreX = thresholds.ovalCentreX
        centreY = thresholds.ovalCentreY
        widthFraction = (thresholds.minFaceWidth + thresholds.maxFaceWidth) / 2
        heightToWidth = 1.25
        self.dimsOutside = dimsOutside
    }
}

/// Turns a camera frame into a grid of terminal cells: half blocks (two square-ish pixels per cell) or,
/// without colour or UTF-8, a luminance ramp; mirrored on request; with the oval guide drawn over it.
///
/// Samples straight from the frame's own pixel format (YUYV, planar YUV, RGB, grey) with an area
/// average of up to 4×4 taps per pixel, into storage that is reused frame after frame: once the size
/// settles, `render` allocates nothing. Each cell keeps the colour it showed until a new colour is
/// clearly closer (hysteresis), so camera noise does not repaint the terminal.
public struct PreviewRaster: Sendable {
    public let palette: PreviewPalette
    public let unicode: Bool
    public let mirror: Bool
    /// Cell height over cell width (2 for most terminal fonts).
    public let cellAspect: Double
    /// Whether a cell holds two pixels (half blocks) or one (ramp characters).
    public var halfBlocks: Bool { unicode && palette != .monochrome }

    public private(set) var columns = 0
    public private(set) var rows = 0
    /// Row-major, `columns × rows`.
    public private(set) var cells: [PreviewCell] = []

    private let tables: PaletteTables
    /// In 16 and 8 colours with UTF-8: the cell colours the shade glyphs add (`ShadeTable`); cells are then
    /// chosen whole, by error diffusion over cells.
    private let shadeTable: ShadeTable?
    /// In 256 colours with UTF-8: whether a cell whose two pixels are close may be a shade mix of two palette
    /// colours (`PaletteTables.shadeMix(key:)`), and the mix of each 5-bit colour key, worked out the first time
    /// the key is met (0: not yet).
    private let mixes: Bool
    private var mixOfKey: [Int32] = []
    private var geometry: Geometry?
    private var xTaps: [Int32] = []
    private var yTaps: [Int32] = []
    private var tapsX = 1, tapsY = 1
    /// Per pixel: -2 outside the oval, -1 inside, 0...1000 on the outline (clockwise position from the top).
    private var mask: [Int16] = []
    /// The colour each pixel showed last (-1: none yet), and the colour it was worked out from: a pixel
    /// whose colour has not moved further than the palette's hysteresis keeps what it shows.
    private var shown: [Int32] = []
    private var lastInput: [SIMD3<Float>] = []
    /// In 256 colours, the error each pixel receives from the pixels before it (linear light; Floyd–Steinberg).
    private var diffusion: [SIMD3<Float>] = []
    /// Without colour: the brightness range the ramp spans, and the histogram it is taken from.
    private var stretchLow: Float = 0
    private var stretchHigh: Float = 255
    /// In 16 colours (`PreviewPalette.toneMaps`): the gain (linear light, 1...`maxToneGain`) applied to the
    /// picture before it is dithered, from the mean luminance of the face region (`faceRegion`: the oval, or
    /// where the analyzer's oval would be) in the frame drawn; and that mean's sum and count.
    private(set) var toneGain: Float = 1
    private var faceLuminance: Float = 0
    private var faceCount = 0
    private var faceRegion: [Bool] = []
    private var histogram = [Int](repeating: 0, count: 256)
    /// The dither's candidates for each 5-bit colour key (`PaletteTables.pattern`), worked out the first time
    /// the key is met (so start-up costs nothing), 16 a key; `known` has a bit per key worked out.
    private var candidates: [UInt8] = []
    private var known: [UInt64] = []
    private var scratch = [Int](repeating: 0, count: PaletteTables.candidateCount)

    private struct Geometry: Equatable {
        var frameWidth, frameHeight, columns, rows: Int
        var oval: OvalShape?
    }

    private struct OvalShape: Equatable {
        var centreX, centreY, widthFraction, heightToWidth: Double
        var dimsOutside: Bool
    }

    /// How far (linear light) the error diffusion lets a pixel's wanted colour go beyond black or white, so
    /// that the error a dark pixel owes is paid later instead of dropped (0.01-0.02 measured best on dark skin in
    /// PreviewFidelityTests; 0.1 measured worse, 5.2 ΔE, in a NumPy model of the raster). In a real terminal's capture (tmux, the inner
    /// 0.7 of the oval) it costs luma r on dark skin (0.92 → 0.83) for ΔE 6.0 → 4.0 and hue 8.9° → 1.0°.
    static let errorReach: Float = 0.02

    /// In 256 colours with shade mixes (`PreviewPalette.mixes`): how close (ΔE) a cell's two pixels must be for
    /// the cell to be drawn as one mixed colour instead of a half block of two palette colours. Measured
    /// (PreviewFidelityTests, dark skin / light skin at 80×24's preview size, before the mixes' reach and pattern
    /// weight were settled): 4: 2.4 / 2.0 ΔE; 8: 2.0 / 1.4; 12: 1.9 / 1.4; 20: 1.9 / 1.5. Beyond 8 little is
    /// gained and more of the picture's vertical detail (an eyelid, the edge of the lips) goes to one colour a cell.
    static let mixCloseness: Float = 8

    /// Luminance ramp, darkest first, for cells without colour or without half blocks.
    static let ramp: [UInt8] = Array(" .:;*+=xnoe&#@B".utf8)

    public init(palette: PreviewPalette, unicode: Bool, mirror: Bool, cellAspect: Double = 2) {
        self.palette = palette
        self.unicode = unicode
        self.mirror = mirror
        self.cellAspect = cellAspect
        tables = PaletteTables.table(palette)
        shadeTable = unicode && palette.shades ? ShadeTable.table(palette) : nil
        mixes = unicode && palette.mixes
        if mixes { mixOfKey = [Int32](repeating: 0, count: 32 * 32 * 32) }
        if !tables.entries.isEmpty {
            candidates = [UInt8](repeating: 0, count: 32 * 32 * 32 * PaletteTables.candidateCount)
            known = [UInt64](repeating: 0, count: 32 * 32 * 32 / 64)
        }
    }

    /// The largest rectangle inside `area` that shows a `frameWidth × frameHeight` picture undistorted,
    /// centred in it.
    public static func fit(frameWidth: Int, frameHeight: Int, in area: CellRect, cellAspect: Double = 2) -> CellRect {
        guard frameWidth > 0, frameHeight > 0, !area.isEmpty else {
            return CellRect(x: area.x, y: area.y, width: 0, height: 0)
        }
        let aspect = Double(frameWidth) / Double(frameHeight)
        // A cell is 1 wide and `cellAspect` tall.
        var width = area.width
        var height = Int((Double(width) / aspect / cellAspect).rounded())
        if height > area.height {
            height = area.height
            width = min(area.width, Int((Double(height) * cellAspect * aspect).rounded()))
        }
        width = max(width, 1)
        height = max(height, 1)
        return CellRect(x: area.x + (area.width - width) / 2, y: area.y + (area.height - height) / 2,
                        width: width, height: height)
    }

    /// The cell at `column`, `row` of the last render.
    public subscript(column: Int, row: Int) -> PreviewCell { cells[row * columns + column] }

    /// Whether a dark face is brightened before it is dithered: in 16 colours without shade cells
    /// (`PreviewPalette.toneMaps`), and in 8 colours with them (`maxToneGain`).
    var toneMaps: Bool { shadeTable == nil ? palette.toneMaps : palette == .ansi8 }

    /// Draws `frame` into `columns × rows` cells, with `overlay` over it. A frame whose data is shorter
    /// than its format needs yields blank cells.
    public mutating func render(_ frame: Frame, columns: Int, rows: Int, overlay: PreviewOverlay? = nil) {
        let columns = max(0, columns), rows = max(0, rows)
        let oval = overlay.map {
            OvalShape(centreX: $0.centreX, centreY: $0.centreY, widthFraction: $0.widthFraction,
                      heightToWidth: $0.heightToWidth, dimsOutside: $0.dimsOutside)
        }
        let wanted = Geometry(frameWidth: frame.width, frameHeight: frame.height, columns: columns, rows: rows,
                              oval: oval)
        if geometry != wanted { prepare(wanted, overlay: overlay) }
        guard columns > 0, rows > 0 else { return }
        guard frame.width > 0, frame.height > 0,
              let needed = frame.format.byteCount(width: frame.width, height: frame.height),
              frame.data.count >= needed else {
            for i in cells.indices { cells[i] = .blank }
            return
        }
        draw(frame, overlay: overlay)
        // In 8 colours (with shade cells), and in 16 colours without UTF-8, a face darker than the palette can draw
        // is brightened (`toneGain`); the gain comes from
        // the frame drawn, so when it moves, the frame is drawn again with the new one (a thumbnail, drawn once,
        // gets it too).
        if toneMaps && updateToneGain() { draw(frame, overlay: overlay) }
    }

    /// Floyd–Steinberg: `e`, the error left at `index` (in a grid `width` wide, at `column`), shared out to the
    /// right (7/16) and, when there is a row `below`, down-left (3/16), down (5/16) and down-right (1/16); one
    /// spread for the pixels and for the shade cells.
    @inline(__always)
    private static func spread(_ e: SIMD3<Float>, at index: Int, width: Int, column: Int, below: Bool,
                               into diffusion: UnsafeMutableBufferPointer<SIMD3<Float>>) {
        let right = column + 1 < width
        if right { diffusion[index + 1] += e * (7.0 / 16) }
        guard below else { return }
        let next = index + width
        if column > 0 { diffusion[next - 1] += e * (3.0 / 16) }
        diffusion[next] += e * (5.0 / 16)
        if right { diffusion[next + 1] += e * (1.0 / 16) }
    }

    private mutating func draw(_ frame: Frame, overlay: PreviewOverlay?) {
        let w = frame.width, h = frame.height
        let convert = YUVToRGB(range: frame.colorRange)
        frame.data.withUnsafeBufferPointer { buffer in
            let p = buffer.baseAddress!
            let chromaW = (w + 1) / 2, chromaH = (h + 1) / 2
            switch frame.format {
            case .rgb24: fill(RGBSource(p: p, width: w), convert: nil, overlay: overlay)
            case .gray: fill(GraySource(p: p, width: w), convert: convert, overlay: overlay)
            case .yuyv: fill(YUYVSource(p: p, rowBytes: chromaW * 4), convert: convert, overlay: overlay)
            case .yuv420p:
                fill(PlanarSource(y: p, u: p + w * h, v: p + w * h + chromaW * chromaH, width: w,
                                  chromaWidth: chromaW, shiftX: 1, shiftY: 1), convert: convert, overlay: overlay)
            case .yuv422p:
                fill(PlanarSource(y: p, u: p + w * h, v: p + w * h + chromaW * h, width: w, chromaWidth: chromaW,
                                  shiftX: 1, shiftY: 0), convert: convert, overlay: overlay)
            case .yuv444p:
                fill(PlanarSource(y: p, u: p + w * h, v: p + 2 * w * h, width: w, chromaWidth: w, shiftX: 0,
                                  shiftY: 0), convert: convert, overlay: overlay)
            }
        }
    }

    /// Where each of the raster's buffers lives, for tests that check nothing is reallocated per frame.
    var storageAddresses: [UInt] {
        func address<T>(_ array: [T]) -> UInt { array.withUnsafeBufferPointer { UInt(bitPattern: $0.baseAddress) } }
        return [address(cells), address(shown), address(lastInput), address(histogram), address(candidates),
                address(known), address(mask), address(xTaps), address(yTaps), address(diffusion), address(faceRegion),
                address(mixOfKey)]
    }

    // MARK: Geometry

    /// Sizes the storage and works out, once per size, which frame pixels each preview pixel averages
    /// and where the oval lies.
    private mutating func prepare(_ g: Geometry, overlay: PreviewOverlay?) {
        geometry = g
        columns = g.columns
        rows = g.rows
        let pixelsWide = g.columns, pixelsHigh = g.rows * (halfBlocks ? 2 : 1)
        cells = [PreviewCell](repeating: .blank, count: g.columns * g.rows)
        shown = [Int32](repeating: -1, count: pixelsWide * pixelsHigh)
        lastInput = [SIMD3<Float>](repeating: .zero, count: pixelsWide * pixelsHigh)
        diffusion = palette.diffuses || shadeTable != nil ? [SIMD3<Float>](repeating: .zero, count: pixelsWide * pixelsHigh) : []
        guard pixelsWide > 0, pixelsHigh > 0, g.frameWidth > 0, g.frameHeight > 0 else {
            xTaps = []; yTaps = []; mask = []; faceRegion = []
            return
        }
        tapsX = min(4, max(1, g.frameWidth / pixelsWide))
        tapsY = min(4, max(1, g.frameHeight / pixelsHigh))
        xTaps = [Int32](repeating: 0, count: pixelsWide * tapsX)
        for i in 0..<pixelsWide {
            let source = mirror ? pixelsWide - 1 - i : i
            for k in 0..<tapsX {
                let x = (Double(source) + (Double(k) + 0.5) / Double(tapsX)) * Double(g.frameWidth) / Double(pixelsWide)
                xTaps[i * tapsX + k] = Int32(min(g.frameWidth - 1, max(0, Int(x))))
            }
        }
        yTaps = [Int32](repeating: 0, count: pixelsHigh * tapsY)
        for j in 0..<pixelsHigh {
            for k in 0..<tapsY {
                let y = (Double(j) + (Double(k) + 0.5) / Double(tapsY)) * Double(g.frameHeight) / Double(pixelsHigh)
                yTaps[j * tapsY + k] = Int32(min(g.frameHeight - 1, max(0, Int(y))))
            }
        }
        mask = [Int16](repeating: -1, count: pixelsWide * pixelsHigh)
        // The face region the tone gain is measured on: the oval, or where the analyzer's default oval lies.
        let region = overlay ?? PreviewOverlay(state: .searching, stability: 0)
        let regionCentreX = (mirror ? 1 - region.centreX : region.centreX) * Double(pixelsWide)
        let regionCentreY = region.centreY * Double(pixelsHigh)
        let regionA = region.widthFraction * Double(pixelsWide) / 2
        let regionB = region.widthFraction * Double(g.frameWidth) * region.heightToWidth / 2
            * Double(pixelsHigh) / Double(g.frameHeight)
        faceRegion = [Bool](repeating: false, count: pixelsWide * pixelsHigh)
        if regionA > 0, regionB > 0 {
            for j in 0..<pixelsHigh {
                for i in 0..<pixelsWide {
                    let u = (Double(i) + 0.5 - regionCentreX) / regionA, v = (Double(j) + 0.5 - regionCentreY) / regionB
                    faceRegion[j * pixelsWide + i] = u * u + v * v <= 1
                }
            }
        }
        guard let overlay else { return }
        // The oval in preview pixels. Preview pixels are square (the fit keeps the aspect), so one scale
        // from frame pixels serves both axes; the mirror moves the centre, not the shape.
        let scaleX = Double(pixelsWide) / Double(g.frameWidth), scaleY = Double(pixelsHigh) / Double(g.frameHeight)
        let centreFrameX = mirror ? 1 - overlay.centreX : overlay.centreX
        let cx = centreFrameX * Double(pixelsWide), cy = overlay.centreY * Double(pixelsHigh)
        let a = overlay.widthFraction * Double(g.frameWidth) / 2 * scaleX
        let b = overlay.widthFraction * Double(g.frameWidth) * overlay.heightToWidth / 2 * scaleY
        guard a > 0, b > 0 else { return }
        @inline(__always) func inside(_ x: Double, _ y: Double) -> Bool {
            let u = (x - cx) / a, v = (y - cy) / b
            return u * u + v * v <= 1
        }
        for j in 0..<pixelsHigh {
            for i in 0..<pixelsWide {
                let x = Double(i), y = Double(j)
                let cornersInside = (inside(x, y) ? 1 : 0) + (inside(x + 1, y) ? 1 : 0) + (inside(x, y + 1) ? 1 : 0)
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

    // MARK: Per frame

    private mutating func fill<S: PixelSource>(_ source: S, convert: YUVToRGB?, overlay: PreviewOverlay?) {
        let pixelsWide = columns
        let perCell = halfBlocks ? 2 : 1
        let guide = overlay.map { Self.guideColours($0.state) }
        // A shape cue besides the colour: the outline is dashed until the face is ready, then solid.
        let dashed = overlay.map { $0.state == .searching || $0.state == .adjusting } ?? false
        // Outline positions below `filled` are drawn as filled; a full window fills all of it.
        let stability = overlay?.stability ?? 0
        let filled = stability >= 1 ? 1001 : Int(max(0, stability.isFinite ? stability : 0) * 1000)
        let stretch = (stretchLow, stretchHigh)
        let toneMaps = self.toneMaps, gain = toneGain
        let shadeTable = self.shadeTable
        // With shade cells, the share of each cell's error the error diffusion passes on: all of it in 16
        // colours; in 8 colours three quarters (all of it drew a dark face as a busy pattern that hid its
        // shading: luma r 0.78 against 0.93 on the dark-skinned fixture, brightened, in a NumPy model).
        let shadeKeep: Float = palette == .ansi8 ? 0.75 : 1

        var faceLuminance: Float = 0
        var faceCount = 0
        let tables = self.tables
        mixOfKey.withUnsafeMutableBufferPointer { mixOfKey in
        diffusion.withUnsafeMutableBufferPointer { diffusion in
        for i in diffusion.indices { diffusion[i] = .zero }
        candidates.withUnsafeMutableBufferPointer { candidates in
        known.withUnsafeMutableBufferPointer { known in
        scratch.withUnsafeMutableBufferPointer { scratch in
        let quantiser = Quantiser(palette: palette, tables: tables, unicode: unicode, stretch: stretch,
                                  candidates: candidates, known: known, scratch: scratch)
        let hysteresis = palette.hysteresis
        let monochrome = palette == .monochrome
        let diffuses = palette.diffuses
        let pixelsHigh = rows * perCell
        let ramp = Self.ramp
        xTaps.withUnsafeBufferPointer { xs in
            yTaps.withUnsafeBufferPointer { ys in
                mask.withUnsafeBufferPointer { mask in
                    shown.withUnsafeMutableBufferPointer { shown in
                        lastInput.withUnsafeMutableBufferPointer { lastInput in
                            histogram.withUnsafeMutableBufferPointer { histogram in
                                cells.withUnsafeMutableBufferPointer { cells in
                                    // Error diffusion: the colour nearest what this pixel wants plus the
                                    // error the pixels before it left. A pixel whose input has not moved keeps
                                    // its colour (and passes on the error it now leaves), so a still scene
                                    // repaints nothing and nothing cascades. The carried error may take a
                                    // channel a little below 0 (or above 1): clamped at the ends, the error a
                                    // dark pixel owes was dropped, and dark skin came out bluer (hue 7° off,
                                    // 4.9-5.4 ΔE).
                                    @inline(__always)
                                    func diffusePixel(_ rgb: SIMD3<Float>, at index: Int, column: Int, py: Int,
                                                      upperHalf: Bool) -> Int32 {
                                        let own = ColourSpace.linear(rgb)
                                        let wanted = (own + diffusion[index])
                                            .clamped(lowerBound: SIMD3(repeating: -Self.errorReach),
                                                     upperBound: SIMD3(repeating: 1 + Self.errorReach))
                                        let d = rgb - lastInput[index]
                                        let colour: Int32
                                        // (A mix code in `shown` is a shade cell's, not this pixel's colour.)
                                        if shown[index] >= 0, shown[index] < PaletteTables.mixFlag,
                                           (d * d).sum() <= hysteresis * hysteresis {
                                            colour = shown[index]
                                        } else {
                                            colour = quantiser.nearest(linear: wanted, own: own)
                                            shown[index] = colour
                                            lastInput[index] = rgb
                                        }
                                        let e = wanted - quantiser.linear(of: colour)
                                        let right = column + 1 < pixelsWide
                                        if upperHalf {
                                            // The lower pixel of this cell comes next, then the next column:
                                            // no error goes down-left.
                                            if right { diffusion[index + 1] += e * (7.0 / 16) }
                                            diffusion[index + pixelsWide] += e * (8.0 / 16)
                                            if right { diffusion[index + pixelsWide + 1] += e * (1.0 / 16) }
                                        } else {
                                            Self.spread(e, at: index, width: pixelsWide, column: column,
                                                        below: py + 1 < pixelsHigh, into: diffusion)
                                        }
                                        return colour
                                    }
                                    // In 256 colours with shade mixes: the mix a cell inside the picture is
                                    // drawn with, or nil when it stays a half block. A cell that showed a mix
                                    // keeps it while its input has not moved, one that showed a half block
                                    // keeps that; otherwise a cell whose two pixels are within
                                    // `mixCloseness` of each other is drawn as the mix nearest what the two
                                    // want (their own colours plus the error carried to them), and passes on
                                    // what each of them then misses, as two pixels would.
                                    @inline(__always)
                                    func mixCell(_ halves: (SIMD3<Float>, SIMD3<Float>), upper: Int, lower: Int,
                                                 column: Int, row: Int) -> Int32? {
                                        let rgb = (halves.0 + halves.1) / 2
                                        let d = rgb - lastInput[upper]
                                        let own0 = ColourSpace.linear(halves.0), own1 = ColourSpace.linear(halves.1)
                                        var code: Int32
                                        if shown[upper] >= PaletteTables.mixFlag, (d * d).sum() <= hysteresis * hysteresis {
                                            code = shown[upper]
                                        } else {
                                            if shown[upper] >= 0, shown[upper] < PaletteTables.mixFlag, shown[lower] >= 0 {
                                                let d0 = halves.0 - lastInput[upper], d1 = halves.1 - lastInput[lower]
                                                if (d0 * d0).sum() <= hysteresis * hysteresis,
                                                   (d1 * d1).sum() <= hysteresis * hysteresis { return nil }
                                            }
                                            let apart = ColourSpace.lab(linear: own0) - ColourSpace.lab(linear: own1)
                                            guard (apart * apart).sum() <= Self.mixCloseness * Self.mixCloseness else {
                                                return nil
                                            }
                                            code = 0
                                        }
                                        let reach = SIMD3<Float>(repeating: Self.errorReach)
                                        let wanted0 = (own0 + diffusion[upper])
                                            .clamped(lowerBound: -reach, upperBound: 1 + reach)
                                        let wanted1 = (own1 + diffusion[lower])
                                            .clamped(lowerBound: -reach, upperBound: 1 + reach)
                                        if code == 0 {
                                            let wanted = (wanted0 + wanted1) / 2
                                            let key = tables.key(linear: wanted)
                                            if mixOfKey[key] == 0 { mixOfKey[key] = tables.shadeMix(key: key) }
                                            code = mixOfKey[key]
                                            // The key's mix is the best for the key's colour, up to 4 levels a
                                            // channel from this one: the palette colour nearest this one is
                                            // taken when it is nearer (a grey of the ramp is drawn as itself).
                                            if code >> 16 & 255 != 0 {
                                                let plain = tables.diffusionEntry(wanted: wanted, own: (own0 + own1) / 2)
                                                let lab = ColourSpace.lab(linear: wanted.clamped(lowerBound: .zero,
                                                                                                 upperBound: SIMD3(repeating: 1)))
                                                let p = tables.labs[plain] - lab
                                                let m = ColourSpace.lab(linear: tables.linear(ofMix: code)) - lab
                                                if (p * p).sum() <= (m * m).sum() {
                                                    code = PaletteTables.mixFlag | Int32(plain) << 8 | Int32(plain)
                                                }
                                            }
                                            shown[upper] = code
                                            lastInput[upper] = rgb
                                            shown[lower] = -1
                                        }
                                        // Each pixel's error as if it were drawn in the mix: the upper one's to the
                                        // right and, through the lower one, down.
                                        let mix = tables.linear(ofMix: code)
                                        let e0 = wanted0 - mix, e1 = wanted1 - mix + e0 * (8.0 / 16)
                                        if column + 1 < pixelsWide {
                                            diffusion[upper + 1] += e0 * (7.0 / 16)
                                            diffusion[lower + 1] += e0 * (1.0 / 16)
                                        }
                                        Self.spread(e1, at: lower, width: pixelsWide, column: column,
                                                    below: 2 * row + 2 < pixelsHigh, into: diffusion)
                                        return code
                                    }
                                    for i in histogram.indices { histogram[i] = 0 }
                                    let taps = Float(tapsX * tapsY)
                                    let tapCount = SIMD3<Int32>(repeating: Int32(tapsX * tapsY))
                                    let halfTapCount = tapCount / 2
                                    for row in 0..<rows {
                                        for column in 0..<pixelsWide {
                                            var colours = (Int32(-1), Int32(-1))
                                            var guideCell = false
                                            // With shade cells: each half's colour, worked out for the cell
                                            // after both halves are read (colour -3: not yet chosen).
                                            var halves = (SIMD3<Float>.zero, SIMD3<Float>.zero)
                                            var outside = true
                                            for half in 0..<perCell {
                                                let py = row * perCell + half
                                                let index = py * pixelsWide + column
                                                var sum = SIMD3<Int32>.zero
                                                let columnTaps = xs.baseAddress! + column &* tapsX
                                                for ty in 0..<tapsY {
                                                    sum &+= source.rowSum(Int(ys[py &* tapsY &+ ty]), columnTaps,
                                                                          tapsX)
                                                }
                                                var rgb: SIMD3<Float>
                                                if let convert {
                                                    // The average rounded half away from zero, in integers: the
                                                    // sums are whole and ≥ 0, so (sum + ⌊taps/2⌋) / taps is what
                                                    // rounding sum / taps in Float gives (no lane's `roundf` call).
                                                    let q = (sum &+ halfTapCount) / tapCount
                                                    let c = convert.rgb(y: UInt8(truncatingIfNeeded: q.x),
                                                                        u: UInt8(truncatingIfNeeded: q.y),
                                                                        v: UInt8(truncatingIfNeeded: q.z))
                                                    rgb = SIMD3(Float(c.r), Float(c.g), Float(c.b))
                                                } else {
                                                    rgb = SIMD3<Float>(sum) / taps
                                                }
                                                let m = mask[index]
                                                var colour: Int32
                                                if m >= 0, let guide, !(dashed && m / 42 % 2 == 1) {
                                                    let g = Int(m) < filled ? guide.filled : guide.open
                                                    colour = quantiser.nearest(g)
                                                    guideCell = true
                                                    // The picture under the outline is quantised afresh when it shows.
                                                    shown[index] = -1
                                                } else {
                                                    if toneMaps {
                                                        let l = ColourSpace.linear(rgb)
                                                        if faceRegion[index] {
                                                            faceLuminance += 0.2126 * l.x + 0.7152 * l.y + 0.0722 * l.z
                                                            faceCount += 1
                                                        }
                                                        if gain > 1 {
                                                            let b = l * gain
                                                            rgb = SIMD3(ColourSpace.srgb(b.x), ColourSpace.srgb(b.y),
                                                                        ColourSpace.srgb(b.z))
                                                        }
                                                    }
                                                    if m == -2 { rgb *= 0.6 }
                                                    if monochrome {
                                                        let luma = 0.299 * rgb.x + 0.587 * rgb.y + 0.114 * rgb.z
                                                        histogram[Int(max(0, min(255, luma)))] += 1
                                                    }
                                                    let d = rgb - lastInput[index]
                                                    if shadeTable != nil {
                                                        if half == 0 { halves.0 = rgb } else { halves.1 = rgb }
                                                        if m != -2 { outside = false }
                                                        colour = -3
                                                    } else
                                                    if mixes && m != -2 {
                                                        // Worked out for the cell once both halves are read.
                                                        if half == 0 { halves.0 = rgb } else { halves.1 = rgb }
                                                        colour = -3
                                                    } else
                                                    if diffuses && m != -2 {
                                                        colour = diffusePixel(rgb, at: index, column: column, py: py,
                                                                              upperHalf: perCell == 2 && half == 0)
                                                    } else if shown[index] >= 0,
                                                              (d * d).sum() <= hysteresis * hysteresis {
                                                        colour = shown[index]
                                                    } else {
                                                        // Outside the oval the dimmed surround is flat (the
                                                        // nearest colour): calm, so the eye goes to the face.
                                                        colour = m == -2 && !monochrome ? quantiser.nearest(rgb)
                                                            : quantiser.dither(rgb, x: column, y: py)
                                                        shown[index] = colour
                                                        lastInput[index] = rgb
                                                    }
                                                }
                                                if half == 0 { colours.0 = colour } else { colours.1 = colour }
                                            }
                                            let cellIndex = row * pixelsWide + column
                                            if mixes, perCell == 2 {
                                                let upper = 2 * row * pixelsWide + column, lower = upper + pixelsWide
                                                if !guideCell && colours.0 == -3 && colours.1 == -3,
                                                   let code = mixCell(halves, upper: upper, lower: lower, column: column,
                                                                      row: row) {
                                                    cells[cellIndex] = tables.cell(ofMix: code)
                                                    continue
                                                }
                                                if colours.0 == -3 {
                                                    colours.0 = diffusePixel(halves.0, at: upper, column: column,
                                                                             py: 2 * row, upperHalf: true)
                                                }
                                                if colours.1 == -3 {
                                                    colours.1 = diffusePixel(halves.1, at: lower, column: column,
                                                                             py: 2 * row + 1, upperHalf: false)
                                                }
                                                cells[cellIndex] = PreviewCell(character: "▀", foreground: colours.0,
                                                                               background: colours.1, isGuide: guideCell)
                                                continue
                                            }
                                            if let shadeTable, perCell == 2 {
                                                // The cell's two pixels as one colour (linear light), keyed
                                                // by its upper pixel's place in `shown`/`lastInput`.
                                                let upper = 2 * row * pixelsWide + column
                                                if guideCell || colours.0 != -3 || colours.1 != -3 {
                                                    // Part outline: the picture's half is its nearest colour.
                                                    if colours.0 == -3 { colours.0 = quantiser.nearest(halves.0) }
                                                    if colours.1 == -3 { colours.1 = quantiser.nearest(halves.1) }
                                                    shown[upper] = -1
                                                    cells[cellIndex] = PreviewCell(character: "▀", foreground: colours.0,
                                                                                   background: colours.1,
                                                                                   isGuide: guideCell)
                                                    continue
                                                }
                                                let rgb = (halves.0 + halves.1) / 2
                                                let own = (ColourSpace.linear(halves.0) + ColourSpace.linear(halves.1)) / 2
                                                let d = rgb - lastInput[upper]
                                                let still = shown[upper] >= 0 && (d * d).sum() <= hysteresis * hysteresis
                                                var entry: Int
                                                if outside {
                                                    // The dimmed surround: flat, the nearest cell colour.
                                                    entry = still ? Int(shown[upper]) : shadeTable.nearest(linear: own)
                                                } else {
                                                    // Error diffusion over cells, as in 256 colours: a cell
                                                    // whose input has not moved keeps its colour and passes
                                                    // on the error it now leaves.
                                                    let wanted = (own + diffusion[cellIndex])
                                                        .clamped(lowerBound: SIMD3(repeating: -Self.errorReach),
                                                                 upperBound: SIMD3(repeating: 1 + Self.errorReach))
                                                    entry = still ? Int(shown[upper]) : shadeTable.nearest(linear: wanted)
                                                    let e = (wanted - shadeTable.linear[entry]) * shadeKeep
                                                    Self.spread(e, at: cellIndex, width: pixelsWide, column: column,
                                                                below: row + 1 < rows, into: diffusion)
                                                }
                                                if !still {
                                                    shown[upper] = Int32(entry)
                                                    lastInput[upper] = rgb
                                                }
                                                let chosen = shadeTable.entries[entry]
                                                cells[cellIndex] = PreviewCell(character: chosen.character,
                                                                               foreground: chosen.foreground,
                                                                               background: chosen.background)
                                            } else if perCell == 2 {
                                                cells[cellIndex] = PreviewCell(character: "▀", foreground: colours.0,
                                                                               background: colours.1,
                                                                               isGuide: guideCell)
                                            } else if monochrome {
                                                let character = guideCell
                                                    ? Unicode.Scalar("o") : Unicode.Scalar(ramp[Int(colours.0)])
                                                cells[cellIndex] = PreviewCell(character: character, isGuide: guideCell)
                                            } else {
                                                // Colour without half blocks: a space on the colour, one pixel a cell.
                                                cells[cellIndex] = PreviewCell(character: guideCell ? "o" : " ",
                                                                               foreground: colours.0,
                                                                               background: colours.0,
                                                                               isGuide: guideCell)
                                            }
                                        }
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
        }
        }
        }
        }
        }
        if palette == .monochrome { updateStretch() }
        self.faceLuminance = faceLuminance
        self.faceCount = faceCount
    }

    /// The tone gain for the frame just drawn: the face region's mean luminance brought up to
    /// `toneTarget` (at most `maxToneGain` times; never darker), in steps of 1/16. It moves only when the
    /// wanted gain is more than 0.1 away, so a still scene keeps its cells; when it moves, every pixel is
    /// worked out again. Returns whether it moved.
    private mutating func updateToneGain() -> Bool {
        guard faceCount > 0 else { return false }
        let mean = faceLuminance / Float(faceCount)
        let eight = palette == .ansi8
        let wanted = min(eight ? 2 : Self.maxToneGain, max(1, (eight ? 0.064 : Self.toneTarget) / max(mean, 1e-4)))
        guard abs(wanted - toneGain) > 0.1 || (wanted == 1 && toneGain != 1 && abs(wanted - toneGain) > 0.05)
        else { return false }
        toneGain = max(1, (wanted * 16).rounded(.down) / 16)
        for i in shown.indices { shown[i] = -1 }
        return true
    }

    /// Mean luminance (linear) a face is brought up to in 16 colours, and the most it is brightened. Light
    /// skin (sergey.png, grace_hopper.jpg: 0.18-0.20) is left alone; the dark-skinned fixture (0.032) gets
    /// 1.5625. Measured on that fixture (PreviewFidelityTests): luma r 0.67 → 0.88 at 1.6, ΔE 12.1 → 13.0
    /// (brighter than the source); at 2 r 0.92 but ΔE 15.5.
    /// In 8 colours with shade cells: up to 0.064 and 2 times (the fixture gets 2): its 92 cell colours have
    /// few dark ones, and luma r on the dark fixture (NumPy model) was 0.58-0.65 as it is, 0.86-0.87 at 1.6,
    /// 0.93 at 2; the colour error is 15 then, not an acceptance figure in 8 colours.
    static let toneTarget: Float = 0.052
    static let maxToneGain: Float = 1.6

    /// Without colour, the ramp spans the picture's own range of brightness (2nd to 98th percentile of
    /// the last frame): a face lit softly still uses every character. The range moves only in steps, so a
    /// still scene keeps its characters; when it moves, every cell is worked out again.
    private mutating func updateStretch() {
        let total = histogram.reduce(0, +)
        guard total > 0 else { return }
        var low = 0, high = 255, seen = 0
        for (i, n) in histogram.enumerated() {
            if seen <= total / 50 { low = i }
            seen += n
            if seen < total - total / 50 { high = i + 1 }
        }
        let l = Float(low), h = Float(max(low + 32, min(255, high)))
        if abs(l - stretchLow) > 8 || abs(h - stretchHigh) > 8 {
            (stretchLow, stretchHigh) = (l, h)
            for i in shown.indices { shown[i] = -1 }
        }
    }

    /// The oval's colours: the part the stability window has filled, and the rest.
    static func guideColours(_ state: OvalState) -> (filled: SIMD3<Float>, open: SIMD3<Float>) {
        switch state {
        case .searching: return (SIMD3(200, 200, 200), SIMD3(200, 200, 200))
        case .adjusting: return (SIMD3(255, 175, 0), SIMD3(255, 175, 0))
        case .ready: return (SIMD3(95, 255, 95), SIMD3(0, 135, 0))
        case .capturing: return (SIMD3(255, 255, 255), SIMD3(255, 255, 255))
        }
    }

    /// How much of a cell each ramp character inks (DejaVu Sans Mono, measured by rendering each glyph in
    /// its cell: tools/preview_fidelity.py --densities); the ramp goes up in about even steps.
    static let rampDensity: [Float] = [0, 0.025, 0.049, 0.063, 0.089, 0.108, 0.124, 0.135, 0.152, 0.167, 0.186,
                                       0.208, 0.236, 0.242, 0.256]
}
