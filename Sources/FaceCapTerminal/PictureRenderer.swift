internal import CCurses
import FaceCapCore

// How the picture (the live preview, the photo's thumbnail) reaches the terminal: one renderer, chosen once at
// start-up (chafa's canvas picks its pixel renderer once): in cells, or as a kitty/sixel image with cells where an
// image cannot go. Only the renderer decides what to send for the picture and when.

/// What one update shows of the picture.
struct PictureScene {
    let model: ScreenModel
    /// The picture's cells (nil: none, or no room).
    let rect: CellRect?
    /// The newest camera frame, when this update has one.
    let frame: Frame?
    /// The photo taken, and which one it is (a new number for each new photo).
    let photo: Frame?
    let photoID: Int
    let columns: Int
    let rows: Int
}

/// Draws the picture of each update: `paint` (cells into curses' window), then, around curses' update,
/// `sendBefore` (what must go first) and `send` (bytes of its own, for an image).
protocol PictureRenderer {
    /// The image protocol it speaks, nil for cells.
    var kind: GraphicsProtocol? { get }
    /// Times the photo was rendered, into cells or at pixel resolution (tests count them).
    var photoRenders: Int { get }
    /// Decides what this update shows and paints the picture's cells, where it shows cells.
    mutating func paint(_ scene: PictureScene, painter: inout CursesPainter)
    /// Just before curses' update: the bytes that must reach the terminal before curses' own (an image that
    /// must go).
    mutating func sendBefore(into bytes: inout [UInt8])
    /// After curses' update: the bytes of the picture itself, when it is not made of cells.
    mutating func send(_ scene: PictureScene, into bytes: inout [UInt8])
    /// What is on the terminal must be drawn again (a resize, a suspension, a repaint).
    mutating func invalidate()
    /// The bytes that take the picture away before the terminal goes back to the shell.
    mutating func remove(into bytes: inout [UInt8])
}

/// The picture in cells: the project's raster, with the preview's overlay; the photo rendered once per photo and
/// rectangle, its cells copied on every redraw.
struct CellPicture: PictureRenderer {
    private var preview: PreviewRaster
    private var photoRaster: PreviewRaster
    /// Which photo, over which cells, `photoRaster` holds: a photo screen drawn again (a countdown's second,
    /// a key) copies its cells instead of rendering the photo again.
    private var photoRendered: (photo: Int, rect: CellRect)?
    /// Times the photo was rendered into cells.
    private(set) var photoCellRenders = 0

    init(palette: PreviewPalette, unicode: Bool, mirror: Bool, cellAspect: Double) {
        preview = PreviewRaster(palette: palette, unicode: unicode, mirror: mirror, cellAspect: cellAspect)
        photoRaster = PreviewRaster(palette: palette, unicode: unicode, mirror: false, cellAspect: cellAspect)
    }

    var kind: GraphicsProtocol? { nil }
    var photoRenders: Int { photoCellRenders }

    mutating func paint(_ scene: PictureScene, painter: inout CursesPainter) {
        guard let rect = scene.rect else { return }
        switch scene.model.picture {
        case .livePreview(let oval, let stability)?:
            guard let frame = scene.frame else { return }
            preview.render(
                frame, columns: rect.width, rows: rect.height,
                overlay: PreviewOverlay(state: oval, stability: stability))
            painter.put(preview, at: rect, columns: scene.columns, rows: scene.rows)
        case .photo?:
            guard let photo = scene.photo else { return }
            if photoRendered.map({ $0.photo != scene.photoID || $0.rect != rect }) ?? true {
                photoRaster.render(photo, columns: rect.width, rows: rect.height, overlay: nil)
                photoRendered = (scene.photoID, rect)
                photoCellRenders += 1
            }
            painter.put(photoRaster, at: rect, columns: scene.columns, rows: scene.rows)
        case .tutorialIllustration?, nil:
            break
        }
    }

    func sendBefore(into bytes: inout [UInt8]) {}
    func send(_ scene: PictureScene, into bytes: inout [UInt8]) {}
    func invalidate() {}
    func remove(into bytes: inout [UInt8]) {}
}

/// The picture as a kitty or sixel image over the cells the layout gives it, in cells where an image cannot go
/// (behind the help overlay, on the last row, with no photo at hand). ncurses knows nothing of the image: the cells
/// under it stay blank.
struct ImagePicture: PictureRenderer {
    private var layer: GraphicsLayer
    private var cells: CellPicture
    /// The image must go and be drawn again (the terminal was resized, suspended or repainted).
    private var stale = false
    /// This update's decision (`plan`).
    private var planned: (draw: CellRect?, remove: Bool) = (nil, false)

    init(layer: GraphicsLayer, cells: CellPicture) {
        self.layer = layer
        self.cells = cells
    }

    var kind: GraphicsProtocol? { layer.kind }
    var photoRenders: Int { cells.photoRenders + layer.photoRenders }

    mutating func paint(_ scene: PictureScene, painter: inout CursesPainter) {
        planned = plan(scene)
        if planned.draw == nil { cells.paint(scene, painter: &painter) }
    }

    mutating func sendBefore(into bytes: inout [UInt8]) {
        guard planned.remove else { return }
        layer.remove(into: &bytes)
        // ncurses believes the cells under a sixel image are blank, and the terminal shows pixels there:
        // only a repaint of every cell takes the picture away.
        if layer.kind == .sixel { clearok(ccurses_curscr(), true) }
    }

    mutating func send(_ scene: PictureScene, into bytes: inout [UInt8]) {
        stale = false
        guard let rect = planned.draw else { return }
        if let frame = scene.frame, case .livePreview(let oval, let stability)? = scene.model.picture {
            layer.draw(frame, overlay: PreviewOverlay(state: oval, stability: stability), at: rect, into: &bytes)
        } else if let photo = scene.photo, case .photo? = scene.model.picture {
            layer.draw(photo, overlay: nil, at: rect, photo: true, photoID: scene.photoID, into: &bytes)
        }
    }

    mutating func invalidate() { stale = true }

    mutating func remove(into bytes: inout [UInt8]) { layer.remove(into: &bytes) }

    /// Whether this update shows the live preview or the photo's thumbnail as an image (and where), and
    /// whether the image on screen must go first: when the picture moves, changes size or goes, behind the
    /// help overlay (which the image would cover), when it would touch the last row (a sixel there scrolls
    /// the screen) and after a resize or a suspension. An update without a frame (a resize, a key) keeps a
    /// preview image that still fits; the photo is always at hand.
    private func plan(_ scene: PictureScene) -> (draw: CellRect?, remove: Bool) {
        var wanted: CellRect?
        var isPhoto = false
        switch scene.model.picture {
        case .livePreview?: break
        case .photo? where scene.photo != nil: isPhoto = true
        case .photo?, .tutorialIllustration?, nil: return (nil, layer.shown != nil)
        }
        if !scene.model.showsHelp, let rect = scene.rect, !rect.isEmpty,
            rect.y + rect.height < scene.rows, rect.x + rect.width <= scene.columns
        {
            wanted = rect
        }
        return Self.plan(
            shown: layer.shown, shownIsPhoto: layer.shownIsPhoto, wanted: wanted, isPhoto: isPhoto,
            stale: stale, hasFrame: scene.frame != nil)
    }

    /// The decision of `plan`: the image on screen stays only when it is the same kind of picture (the photo,
    /// or the preview) over the same cells and nothing made it stale. The photo's image over the preview's cells
    /// (Retry → the capture at the same size) goes at once, not with the first camera frame.
    static func plan(
        shown: CellRect?, shownIsPhoto: Bool, wanted: CellRect?, isPhoto: Bool, stale: Bool,
        hasFrame: Bool
    ) -> (draw: CellRect?, remove: Bool) {
        let keep = wanted != nil && wanted == shown && shownIsPhoto == isPhoto && !stale
        let remove = shown != nil && !keep
        return (!hasFrame && !isPhoto && !keep ? nil : wanted, remove)
    }
}
