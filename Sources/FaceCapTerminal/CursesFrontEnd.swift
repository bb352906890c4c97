internal import CCurses
import FaceCapCore

#if canImport(Glibc)
import Glibc
#endif

/// The full-screen UI could not start.
public enum TerminalError: UserFacingError, Equatable {
    /// No terminal description for `term` (or none at all), or one that cannot address the cursor.
    case unusableTerminal(term: String)

    public var message: String {
        switch self {
        case .unusableTerminal(let term):
            return term.isEmpty ? Words.text(.terminalUnset) : Words.terminalCannotDraw(term: term)
        }
    }

    public var exitCode: ExitCode { .usage }
}

/// What the terminal turned out to offer, decided once at start-up.
public struct TerminalCapabilities: Equatable, Sendable {
    /// The preview's (and the screens') colours.
    public var palette: PreviewPalette
    /// The locale is UTF-8: half blocks and line drawing; otherwise ASCII only.
    public var unicode: Bool
    /// The terminfo entry in use (a `*-direct` variant of TERM when truecolor needed one).
    public var terminalType: String
    /// The terminfo entry takes colour numbers as 0xRRGGBB.
    public var directColor: Bool
    /// Real pixels for the live preview (nil: character cells).
    public var graphics: GraphicsProtocol? = nil
}

/// The full-screen wizard on ncursesw: draws every `ScreenModel` with the live preview, reads keys,
/// follows resizes and job control, and always gives the terminal back.
///
/// It is Core's `WizardFrontEnd` itself: one thread owns it (the session's run loop), which polls `inputDescriptor`
/// and calls `readInput`, calls `render` after each state change and for each new preview frame (`render` itself
/// drops the preview frames a slow terminal cannot absorb, as its `PreviewPacer` says), `resize` on SIGWINCH,
/// `suspend`/`resume` around SIGTSTP/SIGCONT, and `close` on every way out.
public final class CursesFrontEnd: WizardFrontEnd {
    /// What was chosen at start-up.
    public let capabilities: TerminalCapabilities
    /// The terminal's size in cells (a cell's size in pixels is `GraphicsProbe`'s `cellSize`).
    private var cells: (columns: Int, rows: Int)
    /// The terminal's size in cells (the session's view: always known here).
    public var size: (columns: Int, rows: Int)? { cells }
    /// The descriptor keys arrive on (standard input): poll it for POLLIN, then call `readInput`.
    public var inputDescriptor: Int32? { 0 }
    /// Seconds between preview frames the terminal currently absorbs (1/30 s on a fast terminal).
    public var previewInterval: Double { pacer.interval }
    /// When a preview frame is drawn: the one place the preview's pacing is decided.
    private var pacer = PreviewPacer()
    /// The clock an update's sending is timed with (tests give updates the durations a slow link would).
    var updateClock: any MonotonicClock = SystemClock()
    private static let cellAspect = 2.0

    private let session: CursesSession
    private var state: CursesSession.State { session.state }

    private var painter: CursesPainter
    /// The picture's renderer, chosen at start-up: cells, or a kitty/sixel image.
    private var picture: any PictureRenderer
    /// What was read of an escape sequence, across reads.
    private var keys = KeyDecoder()

    private var lastModel: ScreenModel?
    private var layout: ScreenLayout?
    private var layoutKey: (model: ScreenModel, columns: Int, rows: Int, width: Int, height: Int)?
    private var photo: Frame?
    /// The generation of the photo handed in last (`ShownPhoto`; 0 before any).
    private var photoID = 0
    /// Times the photo was rendered, into cells or at pixel resolution for the image layer.
    var photoRenders: Int { picture.photoRenders }
    /// The size the last `.resize` input reported.
    private var reportedSize: (columns: Int, rows: Int)?
    private var graphicsBytes: [UInt8] = []
    private let output: UnsafeMutablePointer<FILE>?
    /// Bytes sent for the last update (ncurses' output is not counted: it writes itself).
    public private(set) var lastGraphicsBytes = 0

    /// Starts curses on the controlling terminal with what the wizard's options chose (`--color`, `--no-mirror`,
    /// `--graphics`), as the session drives it.
    public convenience init(configuration: WizardConfiguration, environment: [String: String]) throws(TerminalError) {
        try self.init(
            colorMode: configuration.color, mirror: configuration.mirror, graphics: configuration.graphics,
            environment: environment)
    }

    /// Starts curses on the controlling terminal (standard input and output).
    ///
    /// - Parameters:
    ///   - colorMode: `--color`; the caller passes `.none` when NO_COLOR is set.
    ///   - mirror: show the live preview mirrored (`--no-mirror` turns it off); the photo never is.
    ///   - environment: the process environment, for TERM and COLORTERM.
    ///   - graphics: `--graphics`; `auto` asks the terminal whether it shows kitty graphics or sixel.
    ///
    /// The terminal is asked once, before curses starts (so the replies are not read as keys), in one round
    /// (`TerminalProbe`): its background when there is colour, its graphics unless `--graphics cells`.
    public convenience init(
        colorMode: ColorMode, mirror: Bool, graphics: GraphicsMode = .auto,
        environment: [String: String]
    ) throws(TerminalError) {
        var layer: GraphicsLayer?
        var answers: TerminalAnswers?
        let term = environment["TERM"] ?? ""
        if !term.isEmpty, term != "dumb" {
            // FACECAP_TEST_PROBE_TIMEOUT (hidden; tests only): a longer wait for a terminal slowed by a loaded machine.
            let wait =
                environment["FACECAP_TEST_PROBE_TIMEOUT"].flatMap(Double.init).map { min(max($0, 0), 60) }
                ?? TerminalProbe.timeout
            answers = TerminalProbe.ask(
                input: 0, output: 1, background: colorMode != .none,
                graphics: graphics != .cells, timeout: wait)
        }
        if graphics != .cells, !term.isEmpty, term != "dumb" {
            var rows: Int32 = 0, columns: Int32 = 0
            _ = ccurses_terminal_size(1, &rows, &columns)
            let cell = GraphicsProbe.cellSize(descriptor: 1, columns: Int(columns), rows: Int(rows), answers: answers)
            if let kind = GraphicsProbe.choose(graphics, answers: answers, cellSize: cell) {
                layer = GraphicsLayer(
                    kind: kind, cellSize: cell ?? (10, 20), sixelLimit: answers?.sixelLimit,
                    mirror: mirror)
            }
        }
        try self.init(
            colorMode: colorMode, mirror: mirror, environment: environment, output: nil, input: nil,
            graphics: layer, background: answers?.background)
    }

    /// The locale variables name a UTF-8 character set (the first of LC_ALL, LC_CTYPE and LANG that is set).
    static func asksForUTF8(_ environment: [String: String]) -> Bool {
        let value = ["LC_ALL", "LC_CTYPE", "LANG"].lazy.compactMap { environment[$0] }.first { !$0.isEmpty } ?? ""
        let lower = value.lowercased()
        return lower.contains("utf-8") || lower.contains("utf8")
    }

    /// Starts curses writing to `output` and reading `input` (nil: standard output and input); tests
    /// use this to count the bytes a real ncurses sends. `background` is the terminal's, as it answered.
    init(
        colorMode: ColorMode, mirror: Bool, environment: [String: String],
        output: UnsafeMutablePointer<FILE>?, input: UnsafeMutablePointer<FILE>?,
        graphics: GraphicsLayer? = nil, background: TerminalBackground.Colour? = nil
    ) throws(TerminalError) {
        self.output = output
        if setlocale(LC_ALL, "") == nil, Self.asksForUTF8(environment) {
            // The locale asked for is not generated on this system (a minimal Debian without `locales`): glibc's
            // built-in C.UTF-8 still gives ncursesw UTF-8, so the words (facecap's own catalogues) and the
            // drawing keep their characters.
            setlocale(LC_CTYPE, "C.UTF-8")
        }
        let unicode = ccurses_locale_is_utf8() != 0
        let term = environment["TERM"] ?? ""
        guard !term.isEmpty, term != "dumb" else { throw .unusableTerminal(term: term) }
        let colorTerm = (environment["COLORTERM"] ?? "").lowercased()
        let wantsDirect =
            colorMode == .truecolor
            || (colorMode == .auto && (colorTerm == "truecolor" || colorTerm == "24bit"))
        // ncurses only sends 24-bit colours through a terminfo entry that says so (`*-direct`); a
        // terminal that announces truecolor through COLORTERM gets its family's direct entry.
        var candidates = [term]
        if wantsDirect && !term.hasSuffix("-direct") {
            candidates.insert(Self.directVariant(of: term), at: 0)
        }
        session = try CursesSession(candidates: candidates, term: term, output: output, input: input)

        var palette = PreviewPalette.monochrome
        var direct = false
        var screenPairs = ColourPairs.none
        if colorMode != .none && has_colors() {
            start_color()
            use_default_colors()
            let colors = Int(ccurses_colors()), pairs = Int(ccurses_color_pairs())
            direct = colors >= 1 << 24
            palette = Self.palette(
                mode: colorMode, wantsDirect: wantsDirect, direct: direct, colors: colors,
                pairs: pairs)
            // The words' colours, for the terminal's colours and the theme's background.
            screenPairs = ColourPairs(colors: colors, background: background)
            screenPairs.define()
        }
        capabilities = TerminalCapabilities(
            palette: palette, unicode: unicode, terminalType: session.terminalType,
            directColor: direct, graphics: graphics?.kind)
        let cells = CellPicture(palette: palette, unicode: unicode, mirror: mirror, cellAspect: Self.cellAspect)
        picture = graphics.map { ImagePicture(layer: $0, cells: cells) } ?? cells
        keys.eightBitControls = unicode
        self.cells = (Int(ccurses_cols()), Int(ccurses_lines()))
        painter = CursesPainter(palette: palette, unicode: unicode, directColor: direct, pairs: screenPairs)
    }

    deinit { close() }

    // MARK: Drawing

    /// Draws `model`; `preview` is the newest camera frame (for `.livePreview`), `photo` the photo taken
    /// (for `.photo`). Sends only what changed. Returns false when it skipped a preview frame because the
    /// terminal is still busy with earlier output (the model is unchanged, so nothing is lost). `now` is the
    /// monotonic clock's time unless given (tests give the times the preview rate is judged at).
    @discardableResult
    public func render(_ model: ScreenModel, preview frame: Frame?, photo: ShownPhoto?, at now: Double?) -> Bool {
        renderPaced(model, preview: frame, photo: photo, at: now)
    }

    /// The session's `render` (`WizardFrontEnd`): paced as above, on the monotonic clock.
    public func render(_ model: ScreenModel, preview: Frame?, photo: ShownPhoto?) {
        renderPaced(model, preview: preview, photo: photo, at: nil)
    }

    @discardableResult
    private func renderPaced(_ model: ScreenModel, preview frame: Frame?, photo: ShownPhoto?, at now: Double?) -> Bool {
        guard state == .active else {
            lastModel = model
            return false
        }
        let now = now ?? SystemClock().now()
        if pacer.holdsBack(model, after: lastModel, hasFrame: frame != nil, at: now) { return false }
        renderNow(model, preview: frame, photo: photo, now: now)
        return true
    }

    /// Draws without the preview-rate check (tests measure every frame with it).
    func renderNow(_ model: ScreenModel, preview frame: Frame?, photo: ShownPhoto?, now: Double? = nil) {
        guard state == .active else { return }
        lastModel = model
        if let photo, photo.generation != photoID {
            self.photo = photo.frame
            photoID = photo.generation
        }
        draw(model, preview: frame, now: now ?? SystemClock().now())
    }

    private func draw(_ model: ScreenModel, preview frame: Frame?, now: Double) {
        let window = ccurses_stdscr()
        let (columns, rows) = cells
        let pictureFrame: Frame?
        switch model.picture {
        case .livePreview?: pictureFrame = frame
        case .photo?: pictureFrame = photo
        case .tutorialIllustration?, nil: pictureFrame = nil
        }
        let width = pictureFrame?.width ?? 4, height = pictureFrame?.height ?? 3
        if let key = layoutKey, key.model == model, key.columns == columns, key.rows == rows, key.width == width,
            key.height == height, layout != nil
        {
            // The layout of this screen at this size is known: a preview frame only repaints the picture.
        } else {
            layout = ScreenLayout(
                model, columns: columns, rows: rows, unicode: capabilities.unicode,
                pictureSize: (width, height), cellAspect: Self.cellAspect)
            layoutKey = (model, columns, rows, width, height)
        }
        guard let layout else { return }
        werase(window)
        let scene = PictureScene(
            model: model, rect: layout.picture, frame: frame, photo: photo, photoID: photoID,
            columns: columns, rows: rows)
        picture.paint(scene, painter: &painter)
        if case .livePreview? = model.picture, layout.picture != nil, pictureFrame != nil { pacer.drew(at: now) }
        for item in layout.items where item.row < rows && item.column < columns { painter.put(item) }
        wnoutrefresh(window)
        let start = updateClock.now()
        graphicsBytes.removeAll(keepingCapacity: true)
        picture.sendBefore(into: &graphicsBytes)
        sendGraphics()
        doupdate()
        var sent = graphicsBytes.count
        graphicsBytes.removeAll(keepingCapacity: true)
        picture.send(scene, into: &graphicsBytes)
        sendGraphics()
        sent += graphicsBytes.count
        lastGraphicsBytes = sent
        // The time ncurses' update and the image took to write: a link that backs up makes writes block.
        pacer.noteUpdate(seconds: updateClock.now() - start)
    }

    private func sendGraphics() {
        guard !graphicsBytes.isEmpty else { return }
        guard let output else {
            // ncurses has flushed its own buffer of standard output by now (doupdate ends with a flush).
            POSIX.writeAll(1, graphicsBytes, retryingAgain: true)
            return
        }
        graphicsBytes.withUnsafeBytes { _ = fwrite($0.baseAddress, 1, $0.count, output) }
        fflush(output)
    }

    // MARK: Input

    /// Every key waiting on the terminal, without blocking; `.resize` when ncurses saw the size change. A
    /// terminal's reply that comes after the start-up wait is no key (`KeyDecoder`).
    public func readInput() -> [FrontEndInput] {
        guard state == .active else { return [] }
        var inputs: [FrontEndInput] = []
        var character: wint_t = 0
        for _ in 0..<256 {
            let result = wget_wch(ccurses_stdscr(), &character)
            if result == KEY_CODE_YES {
                if Int32(character) == KEY_RESIZE {
                    // ncurses queues KEY_RESIZE from its own SIGWINCH handling and from resizeterm, so one
                    // change can arrive several times: report each new size once.
                    let before = cells
                    refreshSize()
                    if cells != before || reportedSize.map({ $0 != cells }) ?? true {
                        reportedSize = cells
                        inputs.append(.resized(columns: cells.columns, rows: cells.rows))
                    }
                } else {
                    inputs += keys.decode(code: Int32(character), at: SystemClock().now()).map { .key($0) }
                }
            } else if result == OK {
                inputs += keys.decode(character: UInt32(character), at: SystemClock().now()).map { .key($0) }
            } else {
                inputs += keys.endOfInput().map { .key($0) }
                break
            }
        }
        return inputs
    }

    // MARK: Size and job control

    /// Call on SIGWINCH: takes the real size from the terminal (TIOCGWINSZ), resizes curses and redraws
    /// the last screen at the new size. Returns the new size, which the flow needs as an event.
    @discardableResult
    public func resize() -> (columns: Int, rows: Int)? {
        guard state == .active else { return cells }
        var rows: Int32 = 0, columns: Int32 = 0
        if ccurses_terminal_size(1, &rows, &columns) == 0 || ccurses_terminal_size(0, &rows, &columns) == 0 {
            resize(columns: Int(columns), rows: Int(rows))
        } else {
            refreshSize()
        }
        return cells
    }

    /// Resizes curses to `columns × rows` and redraws the last screen there (its preview returns with
    /// the next frame).
    func resize(columns: Int, rows: Int) {
        if columns != Int(ccurses_cols()) || rows != Int(ccurses_lines()) {
            resizeterm(Int32(rows), Int32(columns))
        }
        refreshSize()
        picture.invalidate()
        if let model = lastModel { draw(model, preview: nil, now: SystemClock().now()) }
    }

    private func refreshSize() {
        let new = (Int(ccurses_cols()), Int(ccurses_lines()))
        guard new != cells || layout == nil else { return }
        cells = new
        layout = nil
        layoutKey = nil
    }

    /// Takes the image away before the terminal goes back to the shell (a kitty image would stay on it).
    private func removeImage() {
        graphicsBytes.removeAll(keepingCapacity: true)
        picture.remove(into: &graphicsBytes)
        sendGraphics()
    }

    /// Call on SIGTSTP, before stopping the process: gives the terminal back to the shell.
    public func suspend() {
        guard state == .active else { return }
        removeImage()
        session.suspend()
    }

    /// Call on SIGCONT: takes the terminal again and repaints everything (the shell drew over it, and the
    /// window may have changed size while the process was stopped).
    public func resume() {
        guard state == .suspended else { return }
        picture.invalidate()
        session.resume()
        resize()
    }

    /// Ends curses and restores the terminal; safe to call more than once and on every path out.
    public func close() {
        guard state != .closed else { return }
        if state == .active { removeImage() }
        session.close()
    }
}
