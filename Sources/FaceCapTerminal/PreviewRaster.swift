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
    public init(
        state: OvalState, stability: Double, thresholds: AnalyzerThresholds = AnalyzerThresholds(),
        dimsOutside: Bool = true
    ) {
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
    /// chosen whole, by error diffusion over cells (`ShadeCells`).
    private let shadeTable: ShadeTable?
    /// In 256 colours with UTF-8: whether a cell whose two pixels are close may be a shade mix of two palette
    /// colours (`ShadeMixer`).
    private let mixes: Bool
    /// The working buffers, allocated once per size (`prepare`); copied before a write when another copy of this
    /// raster shares them.
    private var storage: RasterStorage
    private var geometry: Geometry?
    private var tapsX = 1, tapsY = 1
    /// Without colour: the brightness range the ramp spans, taken from the histogram of the frame drawn.
    private var stretchLow: Float = 0
    private var stretchHigh: Float = 255
    /// In 16 colours (`PreviewPalette.toneMaps`): the gain (linear light, 1...`maxToneGain`) applied to the
    /// picture before it is dithered, from the mean luminance of the face region (`faceRegion`: the oval, or
    /// where the analyzer's oval would be) in the frame drawn; and that mean's sum and count.
    private(set) var toneGain: Float = 1
    private var faceLuminance: Float = 0
    private var faceCount = 0

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
        storage = RasterStorage(paletteCaches: !tables.entries.isEmpty, mixes: mixes)
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
        return CellRect(
            x: area.x + (area.width - width) / 2, y: area.y + (area.height - height) / 2,
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
        if !isKnownUniquelyReferenced(&storage) { storage = RasterStorage(copying: storage) }
        let oval = overlay.map {
            OvalShape(
                centreX: $0.centreX, centreY: $0.centreY, widthFraction: $0.widthFraction,
                heightToWidth: $0.heightToWidth, dimsOutside: $0.dimsOutside)
        }
        let wanted = Geometry(
            frameWidth: frame.width, frameHeight: frame.height, columns: columns, rows: rows,
            oval: oval)
        if geometry != wanted { prepare(wanted, overlay: overlay) }
        guard columns > 0, rows > 0 else { return }
        guard frame.width > 0, frame.height > 0,
            let needed = frame.format.byteCount(width: frame.width, height: frame.height),
            frame.data.count >= needed
        else {
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
                fill(
                    PlanarSource(
                        y: p, u: p + w * h, v: p + w * h + chromaW * chromaH, width: w,
                        chromaWidth: chromaW, shiftX: 1, shiftY: 1), convert: convert, overlay: overlay)
            case .yuv422p:
                fill(
                    PlanarSource(
                        y: p, u: p + w * h, v: p + w * h + chromaW * h, width: w, chromaWidth: chromaW,
                        shiftX: 1, shiftY: 0), convert: convert, overlay: overlay)
            case .yuv444p:
                fill(
                    PlanarSource(
                        y: p, u: p + w * h, v: p + 2 * w * h, width: w, chromaWidth: w, shiftX: 0,
                        shiftY: 0), convert: convert, overlay: overlay)
            }
        }
    }

    /// Where each of the raster's buffers lives, for tests that check nothing is reallocated per frame.
    var storageAddresses: [UInt] {
        [cells.withUnsafeBufferPointer { UInt(bitPattern: $0.baseAddress) }] + storage.addresses
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
        storage.resize(pixels: pixelsWide * pixelsHigh, diffusion: palette.diffuses || shadeTable != nil)
        guard pixelsWide > 0, pixelsHigh > 0, g.frameWidth > 0, g.frameHeight > 0 else {
            storage.sizeTaps(xCount: 0, yCount: 0)
            return
        }
        tapsX = min(4, max(1, g.frameWidth / pixelsWide))
        tapsY = min(4, max(1, g.frameHeight / pixelsHigh))
        storage.sizeTaps(xCount: pixelsWide * tapsX, yCount: pixelsHigh * tapsY)
        let xTaps = storage.xTaps, yTaps = storage.yTaps
        for i in 0..<pixelsWide {
            let source = mirror ? pixelsWide - 1 - i : i
            for k in 0..<tapsX {
                let x = (Double(source) + (Double(k) + 0.5) / Double(tapsX)) * Double(g.frameWidth) / Double(pixelsWide)
                xTaps[i * tapsX + k] = Int32(min(g.frameWidth - 1, max(0, Int(x))))
            }
        }
        for j in 0..<pixelsHigh {
            for k in 0..<tapsY {
                let y = (Double(j) + (Double(k) + 0.5) / Double(tapsY)) * Double(g.frameHeight) / Double(pixelsHigh)
                yTaps[j * tapsY + k] = Int32(min(g.frameHeight - 1, max(0, Int(y))))
            }
        }
        let oval = OvalMask(
            pixelsWide: pixelsWide, pixelsHigh: pixelsHigh, frameWidth: g.frameWidth,
            frameHeight: g.frameHeight, mirror: mirror)
        // The face region the tone gain is measured on: the oval, or where the analyzer's default oval lies.
        oval.markFaceRegion(overlay ?? PreviewOverlay(state: .searching, stability: 0), into: storage.faceRegion)
        if let overlay { oval.markOutline(overlay, into: storage.mask) }
    }

    // MARK: Per frame

    /// Draws one frame from `source` into `cells`, cell by cell (`RasterPass`).
    private mutating func fill<S: PixelSource>(_ source: S, convert: YUVToRGB?, overlay: PreviewOverlay?) {
        let storage = self.storage
        for i in storage.diffusion.indices { storage.diffusion[i] = .zero }
        for i in storage.histogram.indices { storage.histogram[i] = 0 }
        let perCell = halfBlocks ? 2 : 1
        let columns = self.columns, rows = self.rows
        let quantiser = Quantiser(
            palette: palette, tables: tables, unicode: unicode, stretch: (stretchLow, stretchHigh),
            candidates: storage.candidates, known: storage.known, scratch: storage.scratch)
        let dither = ErrorDiffusion(
            quantiser: quantiser, shown: storage.shown, lastInput: storage.lastInput,
            diffusion: storage.diffusion, hysteresis: palette.hysteresis, pixelsWide: columns,
            pixelsHigh: rows * perCell)
        let sampler = GridSampler(
            source, convert: convert, xTaps: UnsafePointer(storage.xTaps.baseAddress!),
            yTaps: UnsafePointer(storage.yTaps.baseAddress!), tapsX: tapsX, tapsY: tapsY)
        let pixels = PixelColours(
            quantiser: quantiser, dither: dither, palette: palette,
            shadeCells: shadeTable != nil, mixes: mixes, toneMaps: toneMaps, gain: toneGain,
            storage: storage)
        let pass = RasterPass(
            sampler: sampler, guide: OvalGuide(overlay), pixels: pixels, mask: storage.mask,
            pixelsWide: columns, perCell: perCell)
        // The cells' maker, chosen once a frame (a generic argument, so each cell costs no dispatch).
        let mixer = mixes ? ShadeMixer(tables: tables, dither: dither, mixOfKey: storage.mixOfKey) : nil
        let shadeCells = shadeTable.map {
            ShadeCells(
                table: $0, quantiser: quantiser, shown: storage.shown, lastInput: storage.lastInput,
                diffusion: storage.diffusion, hysteresis: palette.hysteresis, columns: columns, rows: rows,
                keep: palette == .ansi8 ? 0.75 : 1)
        }
        let symbols = SymbolCells(perCell: perCell, monochrome: palette == .monochrome, ramp: Self.ramp)
        let face = cells.withUnsafeMutableBufferPointer { cells in
            if let mixer { return pass.draw(with: mixer, into: cells, rows: rows) }
            if let shadeCells { return pass.draw(with: shadeCells, into: cells, rows: rows) }
            return pass.draw(with: symbols, into: cells, rows: rows)
        }
        if palette == .monochrome { updateStretch() }
        faceLuminance = face.luminance
        faceCount = face.count
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
        for i in storage.shown.indices { storage.shown[i] = -1 }
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
        let histogram = storage.histogram
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
            for i in storage.shown.indices { storage.shown[i] = -1 }
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
    static let rampDensity: [Float] = [
        0, 0.025, 0.049, 0.063, 0.089, 0.108, 0.124, 0.135, 0.152, 0.167, 0.186,
        0.208, 0.236, 0.242, 0.256,
    ]
}
