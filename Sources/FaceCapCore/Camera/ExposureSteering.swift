/// A camera control facecap may turn to expose for the face: what the camera offers of it and where it stands.
public struct ExposureKnob: Equatable, Sendable {
    /// The controls that brighten the picture as they go up, in the order facecap turns them to brighten a face:
    /// the camera's own exposure first (its bias, its backlight compensation, the exposure time it was left at),
    /// then amplification (gain), then the brightness offset, which adds no light at all.
    public enum Kind: Equatable, Hashable, Sendable {
        case exposureBias, backlightCompensation, exposureTime, gain, brightness
    }

    public var kind: Kind
    public var minimum: Int
    public var maximum: Int
    /// The control's own step (at least 1).
    public var step: Int
    public var value: Int
    /// Where it stood before facecap turned it.
    public var start: Int

    public init(kind: Kind, minimum: Int, maximum: Int, step: Int, value: Int, start: Int? = nil) {
        self.kind = kind
        self.minimum = minimum
        self.maximum = max(minimum, maximum)
        self.step = max(1, step)
        self.value = value
        self.start = start ?? value
    }

    /// Turned the other way than `direction` from where it started: the first to turn back.
    func isAgainst(_ direction: Int) -> Bool { direction > 0 ? value < start : value > start }

    /// Room left in a direction (+1 brighter, −1 darker).
    func hasRoom(_ direction: Int) -> Bool { direction > 0 ? value < maximum : value > minimum }

    /// Control steps across the whole range.
    public var stepCount: Int { (maximum - minimum) / step }

    /// One small step in `direction`: a twelfth of the range (`stepsPerRange`), whole control steps, at least one.
    func stepped(_ direction: Int, stepsPerRange: Int) -> Int {
        let range = maximum - minimum
        let steps = max(1, range / max(1, stepsPerRange) / step)
        let next = value + direction * steps * step
        // Kept on the control's grid from its minimum, and inside its range.
        let aligned = minimum + ((next - minimum) / step) * step
        return min(maximum, max(minimum, aligned))
    }
}

/// Exposure for the face: from one analysed frame's face and frame luma and what the camera offers, the next turn
/// of a control (`Action`). A backlit face (a window behind) reads dark while the frame as a whole is fine, and the
/// camera's auto exposure, metering the whole frame, leaves it dark; a lamp in front does the reverse.
///
/// Pure and clockless, counted in analysed frames: the same frames give the same steps. Hysteresis on the luma
/// (steering starts past `startBelow`/`startAbove` and stops once the face is back within `targetLow`...`targetHigh`)
/// and a wait of `settleFrames` after each step (the camera applies a control a frame or two later) keep it from
/// hunting; where a step still overshoots, the knob's direction reversals are counted: its step is halved after the
/// first, it is frozen after the second, and steering stops after `maxReversals` in all. Where the camera has a UVC
/// region of interest, auto exposure is pointed at the face instead, and the other controls are turned only if that
/// is not enough after `regionPatience` frames.
public struct ExposureSteering: Equatable, Sendable {
    public struct Limits: Equatable, Sendable {
        /// Face luma below this starts brightening, above `startAbove` darkening (the analyzer's tooDark/tooBright
        /// limits, 60 and 205, with a margin so the camera acts before the person is asked).
        public var startBelow = 80.0
        public var startAbove = 190.0
        /// Steering stops once the face luma is back inside this band.
        public var targetLow = 100.0
        public var targetHigh = 170.0
        /// No face, and a whole frame darker than this (too dark to find a face in, as the analyzer says): brighten.
        public var darkFrameLuma = 50.0
        /// Analysed frames to wait after a step before judging it: a camera applies a control a frame or two after
        /// the write, so judging the next frame would see no change and step again.
        public var settleFrames = 2
        /// The same after a change that acts through the camera's own auto exposure (the region, the exposure
        /// bias), which converges over further frames.
        public var autoSettleFrames = 3
        /// A control with fewer steps than this across its range is not turned: one step of it (a 0/1 backlight
        /// compensation, a boolean) swings the face from too dark to too bright and back, so it cannot be steered
        /// gently.
        public var minimumSteps = 8
        /// Direction reversals in all after which steering stops for the run (each knob's own: halved after one,
        /// frozen after two).
        public var maxReversals = 4
        /// Analysed frames auto exposure gets after being pointed at the face before other controls are turned.
        public var regionPatience = 6
        /// One step is this fraction of a control's range.
        public var stepsPerRange = 12
        /// Below this frame rate the camera's "auto priority" (a longer exposure at a lower rate) is turned off.
        public var minFrameRate = 15.0
        /// The face box moved or changed size by more than this fraction of the frame: the region follows it.
        public var regionMove = 0.1

        public init() {}
    }

    /// What to do to the camera.
    public enum Action: Equatable, Sendable {
        /// Set a control to this value.
        case set(ExposureKnob.Kind, Int)
        /// Point auto exposure at this rectangle (frame pixels).
        case regionOfInterest(Rect)
        /// Turn off auto priority (`exposure_dynamic_framerate`): the frame rate stays what was negotiated.
        case constantFrameRate
    }

    /// What the frame and the camera are like now.
    public struct Input: Equatable, Sendable {
        public var faceLuma: Double?
        public var frameLuma: Double?
        public var faceBox: Rect?
        public var frameWidth: Int
        public var frameHeight: Int
        /// Frames per second the camera delivers, measured; nil until known.
        public var frameRate: Double?
        /// Auto priority is on (nil: the camera has no such control).
        public var autoPriority: Bool?
        /// The camera has UVC region-of-interest auto exposure.
        public var hasRegion: Bool
        public var knobs: [ExposureKnob]

        public init(
            faceLuma: Double?, frameLuma: Double?, faceBox: Rect? = nil, frameWidth: Int = 640,
            frameHeight: Int = 480, frameRate: Double? = nil, autoPriority: Bool? = nil,
            hasRegion: Bool = false, knobs: [ExposureKnob] = []
        ) {
            self.faceLuma = faceLuma
            self.frameLuma = frameLuma
            self.faceBox = faceBox
            self.frameWidth = frameWidth
            self.frameHeight = frameHeight
            self.frameRate = frameRate
            self.autoPriority = autoPriority
            self.hasRegion = hasRegion
            self.knobs = knobs
        }
    }

    public enum Phase: Equatable, Sendable { case idle, brightening, darkening }

    public let limits: Limits
    public private(set) var phase = Phase.idle
    /// The camera has nothing left to turn the way the face needs (or nothing at all): only the person's light can
    /// help now.
    public private(set) var exhausted = false
    /// Analysed frames since the last change to the camera.
    private var framesSinceChange = Int.max / 2
    /// Frames to wait since that change before the next.
    private var wait = 0
    private var region: Rect?
    private var frameRateKept = false
    /// Per knob: the direction it was last turned, and how often it was turned back the other way.
    private var lastDirection: [ExposureKnob.Kind: Int] = [:]
    private var reversals: [ExposureKnob.Kind: Int] = [:]
    private var totalReversals = 0

    public init(limits: Limits = Limits()) {
        self.limits = limits
    }

    /// Steering is under way and the camera still has room to act.
    public var isAdjusting: Bool { phase != .idle && !exhausted }

    /// Starts over (the camera opened again): nothing pointed, nothing waited for.
    public mutating func reset() {
        self = ExposureSteering(limits: limits)
    }

    /// The changes to make after one analysed frame; at most one exposure change (and the frame rate's) a frame.
    public mutating func next(_ input: Input) -> [Action] {
        var actions: [Action] = []
        if !frameRateKept, input.autoPriority == true, let rate = input.frameRate, rate < limits.minFrameRate {
            frameRateKept = true
            actions.append(.constantFrameRate)
        }
        framesSinceChange += 1
        // The face's luma, or with no face a frame too dark to find one in.
        let luma = input.faceLuma ?? input.frameLuma.flatMap { $0 < limits.darkFrameLuma ? $0 : nil }
        guard let luma else { return actions }
        phase = nextPhase(luma)
        guard phase != .idle else {
            exhausted = false
            return actions
        }
        guard framesSinceChange > wait else { return actions }
        if input.hasRegion, let box = input.faceBox, regionMoved(to: box, input) {
            region = box
            changed(wait: max(limits.regionPatience, limits.autoSettleFrames))
            actions.append(.regionOfInterest(box))
            return actions
        }
        let direction = phase == .brightening ? 1 : -1
        // A knob reversed twice is frozen, and after `maxReversals` reversals in all nothing is turned: the camera
        // keeps overshooting, and the person's light is what is left.
        let knobs =
            totalReversals >= limits.maxReversals
            ? []
            : input.knobs.filter {
                $0.stepCount >= limits.minimumSteps && reversals[$0.kind, default: 0] < 2
            }
        // What was turned the other way is turned back first, the last-resort controls first (a face that was
        // brightened with gain and then meets a lamp loses the gain before its exposure); then the camera's own
        // exposure goes first, the brightness offset last.
        let back = knobs.reversed().first { $0.isAgainst(direction) }
        guard let knob = back ?? knobs.first(where: { $0.hasRoom(direction) }) else {
            exhausted = true
            return actions
        }
        exhausted = false
        if let last = lastDirection[knob.kind], last != direction {
            reversals[knob.kind, default: 0] += 1
            totalReversals += 1
        }
        lastDirection[knob.kind] = direction
        guard reversals[knob.kind, default: 0] < 2 else {
            // Frozen where it stands: stepping it back would only start the swing again.
            changed(wait: limits.settleFrames)
            return actions
        }
        changed(
            wait: knob.kind == .exposureBias
                ? max(limits.settleFrames, limits.autoSettleFrames)
                : limits.settleFrames)
        // Reversed once: half steps, so it can land between the two values it swung between.
        let stepsPerRange = limits.stepsPerRange * (reversals[knob.kind, default: 0] > 0 ? 2 : 1)
        var value = knob.stepped(direction, stepsPerRange: stepsPerRange)
        if back != nil { value = direction > 0 ? min(value, knob.start) : max(value, knob.start) }
        actions.append(.set(knob.kind, value))
        return actions
    }

    private func nextPhase(_ luma: Double) -> Phase {
        if luma < limits.startBelow { return .brightening }
        if luma > limits.startAbove { return .darkening }
        switch phase {
        case .brightening where luma < limits.targetLow: return .brightening
        case .darkening where luma > limits.targetHigh: return .darkening
        default: return .idle
        }
    }

    private mutating func changed(wait frames: Int) {
        framesSinceChange = 0
        wait = frames
    }

    private func regionMoved(to box: Rect, _ input: Input) -> Bool {
        guard let region else { return true }
        let width = Float(max(1, input.frameWidth)), height = Float(max(1, input.frameHeight))
        let limit = Float(limits.regionMove)
        return abs(box.x - region.x) / width > limit || abs(box.y - region.y) / height > limit
            || abs(box.width - region.width) / width > limit || abs(box.height - region.height) / height > limit
    }
}
