import FaceCapCore

/// The live preview, and the photo's thumbnail, in real pixels, over the cells the layout gives the picture.
///
/// The pixels come from the project's own raster (`PreviewRaster`) at pixel resolution in true colour, so
/// the picture is mirrored, dimmed outside the oval and carries the oval guide exactly as the cells do.
/// ncurses knows nothing of the image: the front end leaves the cells under it blank, and calls `remove`
/// (and, for sixel, makes ncurses repaint the screen) whenever the picture's cells change or go.
struct GraphicsLayer {
    let kind: GraphicsProtocol
    /// One cell in pixels.
    let cellSize: (width: Int, height: Int)
    /// The largest sixel image the terminal takes (XTSMGRAPHICS), if it said.
    let sixelLimit: (width: Int, height: Int)?
    static let imageID = 7351
    /// Picture pixels across at most: the terminal (kitty) or the encoder (sixel) scales them up. The
    /// preview need not be finer than a camera frame, and each picture pixel is at least two screen pixels,
    /// so the one-pixel outline of the oval stays visible.
    static let maximumWidth = 320

    private var raster: PreviewRaster
    /// The photo's raster: never mirrored (the photo is what is kept and sent).
    private var photoRaster: PreviewRaster
    private var rgb: [UInt8] = []
    private var sentRGB: [UInt8] = []
    /// The cells the image covers on screen now (nil: none shown).
    private(set) var shown: CellRect?
    /// The image shown is the photo (not the live preview).
    private(set) var shownIsPhoto = false
    /// Which photo, over which cells, `rgb` holds (nil: it holds a preview frame, or nothing yet): the same photo
    /// over the same cells is not rendered again.
    private var rendered: (photo: Int, rect: CellRect)?
    /// Times a photo was rendered at pixel resolution (tests count them).
    private(set) var photoRenders = 0
    private var sixel = SixelEncoder()
    private var kitty = KittyEncoder()

    init(
        kind: GraphicsProtocol, cellSize: (width: Int, height: Int), sixelLimit: (width: Int, height: Int)?,
        mirror: Bool
    ) {
        self.kind = kind
        self.cellSize = (max(1, cellSize.width), max(1, cellSize.height))
        self.sixelLimit = sixelLimit
        raster = PreviewRaster(palette: .truecolor, unicode: true, mirror: mirror)
        photoRaster = PreviewRaster(palette: .truecolor, unicode: true, mirror: false)
    }

    /// The screen pixels of `rect`, the picture's pixels and how many screen pixels each one covers.
    func geometry(_ rect: CellRect) -> (width: Int, height: Int, sourceWidth: Int, sourceHeight: Int, scale: Int) {
        var width = rect.width * cellSize.width, height = rect.height * cellSize.height
        if kind == .sixel {
            if let limit = sixelLimit {
                width = min(width, limit.width)
                height = min(height, limit.height)
            }
            // Whole six-row bands, so the image never reaches into the row below its cells.
            height -= height % 6
        }
        let scale = max(2, (width + Self.maximumWidth - 1) / Self.maximumWidth)
        var sourceWidth = (width + scale - 1) / scale, sourceHeight = (height + scale - 1) / scale
        // The raster's half blocks hold two pixels a row.
        sourceHeight += sourceHeight % 2
        sourceWidth = max(1, sourceWidth)
        return (width, height, sourceWidth, max(2, sourceHeight), scale)
    }

    /// The bytes that show `frame` with `overlay` over `rect` (appended to `out`, cursor movement included;
    /// the cursor is saved and restored around them). Nothing when the same picture is already there.
    /// `photo`: the photo taken (the success and retry thumbnails), drawn as it is, never mirrored; `photoID`
    /// tells one photo from another (the front end counts them), so a photo screen drawn again (a countdown's
    /// second, a key) reuses the pixels of the last render instead of rendering the photo again.
    mutating func draw(
        _ frame: Frame, overlay: PreviewOverlay?, at rect: CellRect, photo: Bool = false,
        photoID: Int = 0, into out: inout [UInt8]
    ) {
        let g = geometry(rect)
        guard g.width > 0, g.height > 0 else { return }
        if photo, let rendered, rendered.photo == photoID, rendered.rect == rect {
            if shown == rect && shownIsPhoto { return }
        } else {
            fill(frame, overlay: overlay, photo: photo, geometry: g)
            rendered = photo ? (photoID, rect) : nil
        }
        // A still scene keeps its image: nothing is sent.
        if shown == rect && shownIsPhoto == photo && rgb == sentRGB { return }
        // DECSC, the cursor to the picture's top-left cell (CUP is 1-based), the image, DECRC: ncurses
        // finds the cursor where it left it.
        out += [0x1B, UInt8(ascii: "7"), 0x1B, UInt8(ascii: "[")]
        appendDecimal(rect.y + 1, to: &out)
        out.append(UInt8(ascii: ";"))
        appendDecimal(rect.x + 1, to: &out)
        out.append(UInt8(ascii: "H"))
        switch kind {
        case .sixel:
            sixel.encode(
                rgb, sourceWidth: g.sourceWidth, sourceHeight: g.sourceHeight, scale: g.scale,
                width: g.width, height: g.height, into: &out)
        case .kitty:
            kitty.encode(
                rgb, width: g.sourceWidth, height: g.sourceHeight, id: Self.imageID, columns: rect.width,
                rows: rect.height, into: &out)
        }
        out += [0x1B, UInt8(ascii: "8")]
        sentRGB = rgb
        shown = rect
        shownIsPhoto = photo
    }

    /// Renders `frame` at pixel resolution into `rgb`.
    private mutating func fill(
        _ frame: Frame, overlay: PreviewOverlay?, photo: Bool,
        geometry g: (width: Int, height: Int, sourceWidth: Int, sourceHeight: Int, scale: Int)
    ) {
        if photo {
            photoRaster.render(frame, columns: g.sourceWidth, rows: g.sourceHeight / 2, overlay: nil)
            photoRenders += 1
        } else {
            raster.render(frame, columns: g.sourceWidth, rows: g.sourceHeight / 2, overlay: overlay)
        }
        let count = g.sourceWidth * g.sourceHeight * 3
        if rgb.count != count { rgb = [UInt8](repeating: 0, count: count) }
        let cells = photo ? photoRaster.cells : raster.cells
        let w = g.sourceWidth
        for row in 0..<(g.sourceHeight / 2) {
            for x in 0..<w {
                let cell = cells[row * w + x]
                let top = ((row * 2) * w + x) * 3, bottom = ((row * 2 + 1) * w + x) * 3
                let upper = cell.foreground < 0 ? 0 : cell.foreground
                let lower = cell.background < 0 ? 0 : cell.background
                rgb[top] = UInt8(upper >> 16 & 0xFF)
                rgb[top + 1] = UInt8(upper >> 8 & 0xFF)
                rgb[top + 2] = UInt8(upper & 0xFF)
                rgb[bottom] = UInt8(lower >> 16 & 0xFF)
                rgb[bottom + 1] = UInt8(lower >> 8 & 0xFF)
                rgb[bottom + 2] = UInt8(lower & 0xFF)
            }
        }
    }

    /// The bytes that take the image away (kitty: a delete command; sixel: none, the caller has ncurses
    /// repaint the cells), and forgets it.
    mutating func remove(into out: inout [UInt8]) {
        guard shown != nil else { return }
        if kind == .kitty { out += KittyEncoder.delete(id: Self.imageID) }
        shown = nil
        shownIsPhoto = false
        sentRGB.removeAll(keepingCapacity: true)
    }
}
