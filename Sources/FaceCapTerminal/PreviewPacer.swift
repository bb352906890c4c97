import FaceCapCore

/// When the live preview is drawn: the one place its pacing is decided (issue 33). The session hands the front end
/// the screen whenever something in it is new, with the newest frame while the live picture shows; the pacer says
/// whether an update that brings nothing but a new frame is drawn now or dropped (the next frame comes soon), and
/// adapts its interval to what the terminal takes: when sending a frame takes long (a slow link backs up and
/// `doupdate` blocks in write), frames come less often, so output never takes more than about a third of the time
/// and keys stay responsive. Any other change (words, the oval, another screen) is always drawn at once.
struct PreviewPacer {
    static let fastestInterval = 1.0 / 30
    static let slowestInterval = 1.0

    /// Seconds between preview frames the terminal currently absorbs (1/30 s on a fast terminal).
    private(set) var interval = PreviewPacer.fastestInterval
    /// When a preview frame was last drawn.
    private var lastDraw = -Double.infinity
    /// The time an update takes to send, a moving average.
    private var updateSeconds = 0.0

    /// Whether the update of `model` with a `frame`, after `last` was drawn, waits for a later frame: only a new
    /// preview frame is held back, and only while the interval since the last one drawn has not passed. A frame
    /// up to a fifth of the interval early is on time: camera frames arrive with jitter, and a strict comparison
    /// against a 30 fps camera's own period dropped every other frame (20 fps shown).
    func holdsBack(_ model: ScreenModel, after last: ScreenModel?, hasFrame: Bool, at now: Double) -> Bool {
        hasFrame && Self.differsOnlyInPreview(model, last) && now - lastDraw < 0.8 * interval
    }

    /// A preview frame was drawn at `now`.
    mutating func drew(at now: Double) { lastDraw = now }

    /// An update took `seconds` to send (ncurses' update and the image). Faster updates count more than slow
    /// ones, so the rate comes back within about a second of the link clearing (at a sample's weight of 0.2 it
    /// took 2.5 s).
    mutating func noteUpdate(seconds: Double) {
        let weight = seconds < updateSeconds ? 0.5 : 0.2
        updateSeconds = updateSeconds == 0 ? seconds : (1 - weight) * updateSeconds + weight * seconds
        interval = min(Self.slowestInterval, max(Self.fastestInterval, 3 * updateSeconds))
    }

    /// Whether `model` is `last` with at most a new stability: a preview frame, which may be dropped,
    /// rather than a change the person must see.
    static func differsOnlyInPreview(_ model: ScreenModel, _ last: ScreenModel?) -> Bool {
        guard var last else { return false }
        if case .livePreview(let oval, _) = model.picture, case .livePreview(oval, _) = last.picture {
            last.picture = model.picture
        }
        return model == last
    }
}
