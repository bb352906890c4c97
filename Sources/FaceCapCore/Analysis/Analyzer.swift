/// Why the wizard should offer manual capture (SPEC §3, Manual capture).
public enum ManualFallbackReason: String, Sendable, Equatable {
    /// No auto capture within `manualAfter` seconds.
    case timeout
    /// No confident face for `noFaceFallbackAfter` seconds.
    case noConfidentFace
}

/// The auto capture: which frame of the stability window to keep.
public struct AutoCapture: Sendable, Equatable {
    /// Timestamp of the sharpest frame of the window: the frame the analyzer last asked to keep.
    public var frameTimestamp: Double
    public var sharpness: Double
}

/// What the person sees and what the wizard should do, after one frame.
public struct AnalyzerOutput: Sendable, Equatable {
    public var metrics: FrameMetrics
    /// Codes active in this frame (after hysteresis), in priority order; `[.ready]` when none.
    public var active: [GuidanceCode]
    /// The message on screen: changes only after `primaryPersistence` and `minimumDisplay`.
    public var primary: GuidanceCode
    /// Up to two further codes that have persisted, in priority order.
    public var hints: [GuidanceCode]
    /// The codes among `active` that are only just past their limit: the screen shows them with their
    /// gentler words (`Messages.slightGuidanceID`); the codes themselves are the same.
    public var slight: Set<GuidanceCode> = []
    /// True when `primary` or `hints` differ from the previous frame's (for change-only events).
    public var guidanceChanged: Bool
    /// How much of the stability window `ready` has held, 0...1 (the progress ring).
    public var stability: Double
    /// This frame is the sharpest of the current `ready` run: keep a copy of it (at full camera
    /// resolution) in case the run completes.
    public var keepFrame: Bool
    /// Set on the one frame where the run completes: capture the frame kept last.
    public var capture: AutoCapture?
    /// Set (and stays set) once manual capture should be offered.
    public var manualFallback: ManualFallbackReason?
    /// The `ready` run is complete and waits for a hand reading of every crop taken at or after the kept frame:
    /// the face tracker reads them all on the next frame (`HandCadence.capture`).
    public var awaitsHand = false
}

/// The per-frame analysis with memory: measures → hysteresis → persistent primary message and hints
/// → auto-capture decision and manual-fallback signals.
///
/// A value type with no clock, no I/O and no randomness: time comes from the frames' timestamps, so a
/// replayed clip gives the same decisions as the live camera did.
///
/// ```
/// var analyzer = Analyzer(thresholds: thresholds)
/// for each frame: let faces = tracker.track(frame)          // the face models
///                 let out = analyzer.process(frame, faces: faces)
///                 if out.keepFrame { kept = frame }          // swap buffers, no copy per frame
///                 if out.capture != nil { save(kept) }
/// ```
public struct Analyzer: Sendable {
    public var thresholds: AnalyzerThresholds
    /// Codes a validator refused the last photo for (its reasons that are guidance codes): until the next
    /// capture, each is held to its limit plus its hysteresis margin on every frame, as if it had just been
    /// active, so auto capture waits until each refused measure has cleared its limit by that margin for the
    /// whole stability window — never the same fault captured again a second later (SPEC §4, One gate).
    public private(set) var mustClear: Set<GuidanceCode> = []
    /// The last photo was refused for reasons no measure here can hold to a margin (a server's own code, the
    /// validator's `faceUnclear`): auto capture waits for a visible change — the face out of `ready` (moved,
    /// gone, turned…) for `primaryPersistence`, long enough to be said — or, failing that, `ready` held for
    /// `unmeasuredRetryHold` instead of the stability window; never the same picture ~3 s later.
    public private(set) var awaitChange = false
    /// When the current run of frames that are not `ready` began (for `awaitChange`).
    private var notReadySince: Double?

    private var motion = MotionTracker()
    private var previousActive: Set<GuidanceCode> = []
    /// Active codes shown with their plain words in the previous frame (not slight).
    private var previousPlain: Set<GuidanceCode> = []
    /// When each currently active code (and `ready`) became active.
    private var activeSince: [GuidanceCode: Double] = [:]
    private var shown: GuidanceCode?
    private var shownSince = 0.0
    /// `shown` took a withdrawn word's place before it had held for `primaryPersistence`: it is withdrawn in turn
    /// the frame it clears, and any code that has held may replace it at once.
    private var provisional = false
    private var shownHints: [GuidanceCode] = []
    /// When each hint on screen appeared: a hint, too, stays up for `minimumDisplay`.
    private var hintSince: [GuidanceCode: Double] = [:]
    private var sessionStart: Double?
    private var lastConfidentFace: Double?
    private var readySince: Double?
    private var bestSharpness = -Double.infinity
    private var bestTimestamp = 0.0
    private var captured = false
    private var fallback: ManualFallbackReason?
    private var hadFace = false
    /// The last qualifying second face: when, its score and its width relative to the largest.
    private var secondFace: (time: Double, score: Double, relativeWidth: Double)?
    /// The last iris-model reading and when it was taken; when the current runs of readings with both eyes
    /// closed and with the gaze off began; whether the iris model has run at all this session (then only
    /// frames with a fresh, open, on-camera reading may be captured).
    private var lastEyes: (time: Double, eyes: EyeMetrics)?
    private var closedSince: Double?
    private var gazeOffSince: Double?
    private var eyesSeen = false
    /// The last hand-model reading on the mouth and when it was taken; whether the hand model has read at all
    /// this session (then a capture waits for a reading taken at or after the kept frame); whether the current
    /// `ready` run is complete and waits for that reading (no other frame is kept meanwhile).
    private var lastHand: (time: Double, flag: Double, face: Double?, parts: HandParts)?
    /// When every crop was last read on one frame (`CoverMetrics.handComplete`): what a kept photo waits for.
    private var lastCompleteHand: Double?
    private var handSeen = false
    private var awaitingHand = false
    /// The last hand reading over a face the landmark model rejected (`FrameMetrics.hiddenByHand`) and when.
    private var lastHidden: (time: Double, flag: Double)?

    public init(
        thresholds: AnalyzerThresholds = AnalyzerThresholds(), mustClear: Set<GuidanceCode> = [],
        awaitChange: Bool = false
    ) {
        self.thresholds = thresholds
        self.mustClear = mustClear
        self.awaitChange = awaitChange
    }

    /// Starts a new capture session (e.g. after a retry): timers, stability and messages start over.
    /// `mustClear`: the codes the last photo was refused for (`Analyzer.mustClear`); empty after a pass or
    /// at the first capture. `awaitChange`: the last photo was refused for no measurable reason
    /// (`Analyzer.awaitsChange(reasons:)`).
    public mutating func reset(mustClear: Set<GuidanceCode> = [], awaitChange: Bool = false) {
        self = Analyzer(thresholds: thresholds, mustClear: mustClear, awaitChange: awaitChange)
    }

    /// The guidance codes among a checker's reasons (a server's own codes and the validator's `faceUnclear`
    /// name no measure the analyzer can hold to a margin).
    public static func mustClear(reasons: [String]) -> Set<GuidanceCode> {
        Set(reasons.compactMap(GuidanceCode.init(rawValue:)).filter { $0 != .noFace && $0 != .ready })
    }

    /// Whether a refusal for `reasons` names no measure (`mustClear(reasons:)` is empty: a server's own codes,
    /// `faceUnclear`, or no reason at all): the next capture then waits for a visible change (`awaitChange`).
    public static func awaitsChange(reasons: [String]) -> Bool {
        mustClear(reasons: reasons).isEmpty
    }

    /// Analyses one frame and the faces the models found in it.
    public mutating func process(_ frame: Frame, faces: [Face]) -> AnalyzerOutput {
        // Hysteresis on the face score too: a face already seen may dip a little below the cut.
        let minScore = thresholds.minFaceScore - (hadFace ? thresholds.faceScoreHysteresis : 0)
        var metrics = FaceMeasures.measure(frame: frame, faces: faces, thresholds: thresholds, minScore: minScore)
        hadFace = metrics.face != nil
        let t = frame.timestamp
        if let score = metrics.secondFaceScore, let relative = metrics.secondFaceRelativeWidth {
            secondFace = (t, score, relative)
        } else if metrics.face != nil, let seen = secondFace, t - seen.time >= 0,
            t - seen.time <= thresholds.secondFaceMemory
        {
            // Not looked for in this frame (tracking), or missed once: the person is still there.
            metrics.secondFaceScore = seen.score
            metrics.secondFaceRelativeWidth = seen.relativeWidth
        }
        trackEyes(&metrics, time: t)
        trackHand(&metrics, time: t)
        if let face = metrics.face {
            let box = face.box
            metrics.motion = motion.update(
                time: t, centreX: Double(box.centre.x) / Double(frame.width),
                centreY: Double(box.centre.y) / Double(frame.height), width: face.widthRatio,
                frameAspect: Double(frame.width) / Double(max(frame.height, 1)), lookBack: thresholds.motionLookBack)
        } else {
            motion.reset()
        }
        return decide(metrics, isWarmUp: frame.isWarmUp)
    }

    /// Carries the last eye reading over the frames between iris-model runs (for `eyeMemory`) and times
    /// how long the eyes have read closed or off the camera.
    mutating func trackEyes(_ metrics: inout FrameMetrics, time t: Double) {
        guard metrics.face != nil else {
            lastEyes = nil; closedSince = nil; gazeOffSince = nil
            return
        }
        if var eyes = metrics.face?.eyes {
            eyesSeen = true
            // Timed against the limit with its margin while the code is shown or must clear after a refusal,
            // as the rule that reads these timers does (otherwise an eye between the two would read `ready`
            // while the capture, which asks the margin, never keeps a frame).
            let holdClosed = previousActive.contains(.eyesClosed) || mustClear.contains(.eyesClosed)
            let holdOff = previousActive.contains(.lookStraight) || mustClear.contains(.lookStraight)
            let closed = GuidanceRules.eyeClosed(eyes, thresholds, holdingMargin: holdClosed)
            let off = GuidanceRules.gazeOff(eyes, thresholds, holdingMargin: holdOff)
            closedSince = closed ? (closedSince ?? t) : nil
            gazeOffSince = off ? (gazeOffSince ?? t) : nil
            eyes.closedFor = closedSince.map { t - $0 } ?? 0
            eyes.gazeOffFor = gazeOffSince.map { t - $0 } ?? 0
            metrics.face?.eyes = eyes
            lastEyes = (t, eyes)
        } else if let last = lastEyes, t - last.time >= 0, t - last.time <= thresholds.eyeMemory {
            var eyes = last.eyes
            eyes.isFresh = false
            eyes.closedFor = closedSince.map { t - $0 } ?? 0
            eyes.gazeOffFor = gazeOffSince.map { t - $0 } ?? 0
            metrics.face?.eyes = eyes
        }
    }

    /// Carries the last hand flags (mouth and the rest of the face) over the frames between hand-model runs (for
    /// `handMemory`).
    mutating func trackHand(_ metrics: inout FrameMetrics, time t: Double) {
        // A face hidden by a hand is read at the hand's cadence too: the reading holds for `handMemory`.
        if metrics.face != nil {
            lastHidden = nil
        } else if let flag = metrics.hiddenByHand {
            lastHidden = (t, flag)
        } else if let last = lastHidden, t - last.time >= 0, t - last.time <= thresholds.handMemory {
            metrics.hiddenByHand = last.flag
        }
        guard metrics.face?.cover != nil else {
            if metrics.face == nil { lastHand = nil }
            return
        }
        if let cover = metrics.face?.cover, let flag = cover.handOverMouth {
            lastHand = (t, flag, cover.handOverFace, cover.handParts)
            if cover.handComplete { lastCompleteHand = t }
            handSeen = true
        } else if let last = lastHand, t - last.time >= 0, t - last.time <= thresholds.handMemory {
            metrics.face?.cover?.handOverMouth = last.flag
            metrics.face?.cover?.handOverFace = last.face
            metrics.face?.cover?.handParts = last.parts
        }
    }

    /// The stateful half of `process`, on measures already taken (tests drive it with made-up measures).
    public mutating func decide(_ metrics: FrameMetrics, isWarmUp: Bool = false) -> AnalyzerOutput {
        let t = metrics.timestamp
        if let start = sessionStart, t < start {
            // Time went backwards (a looped clip): a new session rather than negative durations (a refusal
            // still has to be cleared).
            reset(mustClear: mustClear, awaitChange: awaitChange)
        }
        let start = sessionStart ?? t
        sessionStart = start
        if metrics.face?.eyes != nil { eyesSeen = true }
        let codes = GuidanceRules.activeCodes(
            metrics, previous: previousActive.union(mustClear),
            thresholds: thresholds)
        previousActive = Set(codes)
        let active = codes.isEmpty ? [GuidanceCode.ready] : codes
        let slight = GuidanceRules.slightCodes(
            metrics, active: codes, previousPlain: previousPlain,
            thresholds: thresholds)
        previousPlain = Set(codes).subtracting(slight)
        // When each active code became active: kept for codes still active, now for new ones.
        let since = active.map { activeSince[$0] ?? t }
        activeSince = Dictionary(zip(active, since), uniquingKeysWith: { first, _ in first })
        let settled = zip(active, since).filter { t - $0.1 >= thresholds.primaryPersistence }.map(\.0)
        let (primary, switched) = choosePrimary(active: active, settled: settled, at: t, hasFace: metrics.face != nil)
        let hints = chooseHints(settled: settled, primary: primary, at: t)
        let changed = hints != shownHints || switched
        shownHints = hints

        // After a refusal no measure names: a change seen (out of `ready` long enough to be said) ends the wait.
        if awaitChange, !isWarmUp {
            if codes.isEmpty {
                notReadySince = nil
            } else {
                let since = notReadySince ?? t
                notReadySince = since
                if t - since >= thresholds.primaryPersistence { awaitChange = false }
            }
        }
        let window =
            awaitChange
            ? max(thresholds.unmeasuredRetryHold, thresholds.stabilityWindow)
            : thresholds.stabilityWindow
        let (keep, capture) = autoCapture(ready: codes.isEmpty && !isWarmUp, metrics, at: t, window: window)
        let stability: Double
        if captured {
            stability = 1
        } else if let since = readySince {
            stability = window > 0 ? min(1, (t - since) / window) : 1
        } else {
            stability = 0
        }

        if metrics.face != nil { lastConfidentFace = t }
        if fallback == nil, !captured {
            if t - start >= thresholds.manualAfter {
                fallback = .timeout
            } else if t - (lastConfidentFace ?? start) >= thresholds.noFaceFallbackAfter {
                fallback = .noConfidentFace
            }
        }
        return AnalyzerOutput(
            metrics: metrics, active: active, primary: primary, hints: hints, slight: slight,
            guidanceChanged: changed, stability: stability, keepFrame: keep,
            capture: capture, manualFallback: captured ? nil : fallback,
            awaitsHand: awaitingHand && capture == nil)
    }

    /// The primary message: the highest-priority code that has held for `primaryPersistence` (`settled`),
    /// switched to only once the current one has been up for `minimumDisplay`. The persistence is for
    /// switching between two live problems: a word that moves the person (a direction, `holdStill`) is
    /// withdrawn on the first frame its condition clears, and what is true now takes its place at once —
    /// the person reads and reacts a few tenths of a second later, and a stale "Move down" kept them
    /// moving past the oval (issue 35). What takes its place: the first true code that has held, or is itself
    /// such a word (true on this frame), or `ready`; failing those, the first true code, provisionally (below).
    /// A frame without a face clears nothing: a face missed once does not turn "Move down" into "Position your
    /// face in the oval" for 0.8 s. `ready` gives way, as every other message, to a problem that has held: a
    /// direction seen on one frame does not flash over "Perfect". Returns the primary and whether it switched.
    private mutating func choosePrimary(
        active: [GuidanceCode], settled: [GuidanceCode], at t: Double,
        hasFace: Bool
    ) -> (GuidanceCode, Bool) {
        func takesPlaceAtOnce(_ code: GuidanceCode) -> Bool {
            settled.contains(code) || code.withdrawnWhenCleared || code == .ready
        }
        var primary = shown ?? active[0]
        var switched = false
        if provisional, settled.contains(primary) { provisional = false }
        if shown == nil {
            shownSince = t
            switched = true
        } else if primary.withdrawnWhenCleared || provisional, !active.contains(primary), hasFace || provisional {
            primary = active.first(where: takesPlaceAtOnce) ?? active[0]
            // A problem seen on this frame alone is shown until something that holds replaces it, and withdrawn
            // the frame it clears: no 0.8 s for a word that may be one frame's noise.
            provisional = !takesPlaceAtOnce(primary)
            shownSince = provisional ? t - thresholds.minimumDisplay : t
            switched = true
        } else if let candidate = settled.first, candidate != primary,
            t - shownSince >= thresholds.minimumDisplay || provisional
        {
            primary = candidate
            shownSince = t
            provisional = false
            switched = true
        }
        shown = primary
        return (primary, switched)
    }

    /// Up to two hints besides the primary: codes that have held. A hint shown less than `minimumDisplay` ago stays
    /// even if its condition just cleared (SPEC §4: each shown message stays ≥ 800 ms), unless it became the primary
    /// or moves the person.
    private mutating func chooseHints(settled: [GuidanceCode], primary: GuidanceCode, at t: Double)
        -> [GuidanceCode]
    {
        var hintCandidates = settled.filter { $0 != primary && $0 != .ready }
        for code in shownHints
        where code != primary && !hintCandidates.contains(code) && !code.withdrawnWhenCleared
            && t - (hintSince[code] ?? t) < thresholds.minimumDisplay
        {
            hintCandidates.append(code)
        }
        let hints = Array(hintCandidates.sorted().prefix(2))
        for code in hints where hintSince[code] == nil { hintSince[code] = t }
        for code in hintSince.keys where !hints.contains(code) { hintSince[code] = nil }
        return hints
    }

    /// Auto capture: `ready` (and not warming up) without a break for the stability `window`; the sharpest frame
    /// kept. Returns whether to keep this frame, and the capture once the window is full.
    private mutating func autoCapture(ready: Bool, _ metrics: FrameMetrics, at t: Double, window: Double)
        -> (keep: Bool, capture: AutoCapture?)
    {
        guard ready, !captured else {
            readySince = nil
            awaitingHand = false
            return (false, nil)
        }
        var keep = false
        var capture: AutoCapture?
        let runStart = readySince ?? t
        if readySince == nil { bestSharpness = -Double.infinity }
        readySince = runStart
        let sharpness = metrics.face?.sharpness ?? 0
        // Once the iris model has run, a frame is kept only with its own reading of open eyes on the
        // camera: a blink or a glance inside the window does not end it but is never the photo.
        let eyesOK =
            !eyesSeen
            || GuidanceRules.eyesCapturable(metrics.face?.eyes, thresholds: thresholds, mustClear: mustClear)
        if eyesOK, sharpness > bestSharpness, !awaitingHand {
            bestSharpness = sharpness
            bestTimestamp = t
            keep = true
        }
        // No frame kept yet (every one blinked or glanced): wait for one rather than capture nothing.
        if t - runStart >= window, bestSharpness > -Double.infinity {
            // The kept frames are eye frames, which the live hand model mostly does not read (FaceTracker): a hand
            // come over the mouth since its last run would be seen only by the validator, which reads the hand on
            // every photo and would refuse it. So once the hand model runs, the photo waits for a reading at or
            // after the kept frame (at most `FaceTracker.handInterval` frames); a hand there ends the run.
            let handRead = !handSeen || (lastCompleteHand.map { $0 >= bestTimestamp } ?? false)
            if handRead {
                capture = AutoCapture(frameTimestamp: bestTimestamp, sharpness: bestSharpness)
                captured = true
            } else {
                awaitingHand = true
            }
        }
        return (keep, capture)
    }
}
