/// SPEC §4's conditions: which guidance codes a frame's measures call for. The same rules, on the same
/// `AnalyzerThresholds`, decide live guidance and the built-in validator's verdict (`LocalValidator`): one
/// capture gate.
///
/// Every threshold has hysteresis: a code that was active in the previous frame stays active until its
/// measure clears the threshold by the margin in `AnalyzerThresholds`, so a measure wobbling around a
/// threshold does not switch the code on and off. With an empty `previous` (a single photo) the plain
/// thresholds apply. A code in `previous` that was not active (one a validator refused: `Analyzer.mustClear`)
/// is held to the same margin from the first frame.
///
/// Light first: on a face too dark or burnt out (`tooDark`/`tooBright`, with their hysteresis), cover, eyes,
/// gaze and sharpness are not judged (a crushed shadow reads as a mask or a dark lens, an iris is guessed)
/// and not reported; only the light is. Except a hand the hand model reads over the face (`handReadsOver`): that is
/// `faceCovered`, and the light is not said while it is there (the hand's own skin is in the light measures).
public enum GuidanceRules {
    /// The active codes in priority order; empty when nothing is wrong (the caller shows `ready`).
    public static func activeCodes(
        _ m: FrameMetrics, previous: Set<GuidanceCode> = [],
        thresholds t: AnalyzerThresholds
    ) -> [GuidanceCode] {
        let h = Hysteresis(previous: previous)
        guard let face = m.face else {
            // A frame too dark to find a face in: say what to fix, not that there is no face.
            let dark = h.below(m.frameLuma, t.darkFrameLuma, t.lumaHysteresis, .tooDark)
            // A face the detector sees but a hand hides from the landmark model: the hand is what to fix.
            let margin = h.was(.faceCovered) ? t.coverHysteresis : 0
            let hidden = m.hiddenByHand.map { $0 >= t.minHandOverFace * (1 - margin) } ?? false
            return [dark ? .tooDark : hidden ? .faceCovered : .noFace]
        }
        var codes: [GuidanceCode] = []
        // Once two faces count, the second may shrink or fade by the margin before the message clears.
        if let score = m.secondFaceScore, let relative = m.secondFaceRelativeWidth,
            h.atLeast(score, t.secondFaceMinScore, t.secondFaceHysteresis, .multipleFaces),
            h.atLeast(relative, t.secondFaceMinRelativeWidth, t.secondFaceHysteresis, .multipleFaces)
        {
            codes.append(.multipleFaces)
        }
        if h.below(face.edgeMargin, t.minEdgeMargin, t.edgeHysteresis, .faceNotVisible) {
            codes.append(.faceNotVisible)
        }
        var dark = false, bright = false
        if let light = face.light {
            dark =
                h.below(light.meanLuma, t.minFaceLuma, t.lumaHysteresis, .tooDark)
                || h.above(light.darkFraction, t.maxDarkFraction, t.maxDarkFraction * t.fractionHysteresis, .tooDark)
            let brightMargin = t.maxBrightFraction * t.fractionHysteresis
            bright =
                h.above(light.meanLuma, t.maxFaceLuma, t.lumaHysteresis, .tooBright)
                || h.above(light.brightFraction, t.maxBrightFraction, brightMargin, .tooBright)
        }
        // Light first: what needs light to be seen is not judged without it.
        let lit = !dark && !bright
        let turned = face.pose.map { h.above(abs($0.yaw), t.maxYaw, t.angleHysteresis, .lookStraight) } ?? false
        let coverMargin = h.was(.faceCovered) ? t.coverHysteresis : 0
        // One decision of the blur, with its hysteresis, for `blurry` and for the cover's flat-lens sign (a blur
        // flattens an eye as a mirror is flat): the two never disagree.
        let blurry = h.below(face.sharpness, t.minSharpness, t.minSharpness * (t.sharpnessHysteresis - 1), .blurry)
        // But on a face too bright, a hand the hand model reads over it is said before the light: a pale hand's skin
        // is not the face's light (a pale hand over the mouth read `tooBright` before it was named, issue 32 item 5).
        // Too dark stays first: there the hand model's reading is the least sure, and more light is the fix.
        let hand = !dark && (face.cover.map { handReadsOver($0, turned: turned, t, margin: coverMargin) } ?? false)
        if let cover = face.cover,
            hand || (lit && !judgedCover(cover, turned: turned, blurry: blurry, t, margin: coverMargin).isEmpty)
        {
            codes.append(.faceCovered)
        }
        if dark { codes.append(.tooDark) }
        if bright, !hand { codes.append(.tooBright) }
        codes += placementCodes(face, h, t)
        // Not read without light, nor behind a dark lens or a hand: the iris model guesses an iris there. A hand
        // the hand model reads over an eye (`handOverAnEye`) is the cover, not a closed eye.
        let eyesCovered =
            face.cover.map {
                !Set($0.regions(t, margin: coverMargin, blurry: blurry)).isDisjoint(with: ["eyes", "eye"])
                    || handOverAnEye($0, turned: turned, t, margin: coverMargin)
            } ?? false
        codes += poseAndGazeCodes(face, lit: lit && !eyesCovered, h, t)
        if let light = face.light, h.below(light.balance, t.minLightBalance, t.balanceHysteresis, .unevenLight) {
            codes.append(.unevenLight)
        }
        if lit, !eyesCovered, eyesAreClosed(face, h, t) { codes.append(.eyesClosed) }
        if lit, blurry { codes.append(.blurry) }
        if let motion = m.motion {
            let factor = 1 - t.motionHysteresis
            if h.above(motion.centreSpeed, t.maxCentreSpeed, t.maxCentreSpeed * factor, .holdStill)
                || h.above(motion.sizeChange, t.maxSizeChange, t.maxSizeChange * factor, .holdStill)
            {
                codes.append(.holdStill)
            }
        }
        return codes
    }

    /// Each threshold's hysteresis against the codes of the previous frame.
    struct Hysteresis {
        let previous: Set<GuidanceCode>

        func was(_ code: GuidanceCode) -> Bool { previous.contains(code) }

        /// `value` below `limit`; once on, it needs to reach `limit + margin` to turn off.
        func below(_ value: Double?, _ limit: Double, _ margin: Double, _ code: GuidanceCode) -> Bool {
            guard let value else { return false }
            return value < (was(code) ? limit + margin : limit)
        }

        /// `value` above `limit`; once on, it needs to fall to `limit - margin` to turn off.
        func above(_ value: Double?, _ limit: Double, _ margin: Double, _ code: GuidanceCode) -> Bool {
            guard let value else { return false }
            return value > (was(code) ? limit - margin : limit)
        }

        /// `value` at least `limit` (SPEC's "≥"); once on, it stays on down to `limit - margin`.
        func atLeast(_ value: Double, _ limit: Double, _ margin: Double, _ code: GuidanceCode) -> Bool {
            value >= (was(code) ? limit - margin : limit)
        }
    }

    /// The face's size and place in the frame: closer or back, then left, right, up, down.
    private static func placementCodes(_ face: FaceMetrics, _ h: Hysteresis, _ t: AnalyzerThresholds)
        -> [GuidanceCode]
    {
        var codes: [GuidanceCode] = []
        if h.below(face.widthRatio, t.minFaceWidth, t.geometryHysteresis, .moveCloser)
            || h.below(face.interEyeDistance, t.minInterEyeDistance, t.interEyeHysteresis, .moveCloser)
        {
            codes.append(.moveCloser)
        }
        if h.above(face.widthRatio, t.maxFaceWidth, t.geometryHysteresis, .moveBack) { codes.append(.moveBack) }
        // Mirror convention: a face on the image's left is on the person's right, so they move left.
        if h.below(face.offsetX, -t.maxCentreOffsetX, t.geometryHysteresis, .moveLeft) { codes.append(.moveLeft) }
        if h.above(face.offsetX, t.maxCentreOffsetX, t.geometryHysteresis, .moveRight) { codes.append(.moveRight) }
        // A face above the oval (image y smaller) must come down.
        if h.above(face.offsetY, t.maxCentreOffsetY, t.geometryHysteresis, .moveUp) { codes.append(.moveUp) }
        if h.below(face.offsetY, -t.maxCentreOffsetY, t.geometryHysteresis, .moveDown) { codes.append(.moveDown) }
        return codes
    }

    /// The head turned away, or the eyes looking off the camera for long enough (a glance is not; the eyes only
    /// when `eyesSeen`: lit and uncovered); the head tilted.
    private static func poseAndGazeCodes(
        _ face: FaceMetrics, lit eyesSeen: Bool, _ h: Hysteresis,
        _ t: AnalyzerThresholds
    ) -> [GuidanceCode] {
        guard let pose = face.pose else { return [] }
        var codes: [GuidanceCode] = []
        let gazeOff =
            eyesSeen
            && face.eyes.map { eyes in
                gazeIsOff(
                    eyes, limitX: t.maxGazeX, limitY: t.maxGazeY,
                    margin: h.was(.lookStraight) ? -t.gazeHysteresis : 0, minOpening: t.minEyeOpening,
                    maxIrisToLowerLid: t.maxIrisToLowerLidDown)
                    && (eyes.gazeOffFor ?? .infinity) >= t.minGazeOffTime
            } ?? false
        if h.above(abs(pose.yaw), t.maxYaw, t.angleHysteresis, .lookStraight)
            || h.above(abs(pose.pitch), t.maxPitch, t.angleHysteresis, .lookStraight) || gazeOff
        {
            codes.append(.lookStraight)
        }
        if h.above(abs(pose.roll), t.maxRoll, t.angleHysteresis, .keepHeadLevel) { codes.append(.keepHeadLevel) }
        return codes
    }

    /// An eye closed for longer than a blink, asked only of a lit, uncovered face. The iris model's lids, on either
    /// eye as the validator asks of the photo: a wink held, or a hand over one eye that the cover measures miss,
    /// is said, not left as a "ready" that never captures. Without the iris model, the landmarks' eye aspect
    /// ratio, on either eye as the photo needs it.
    private static func eyesAreClosed(_ face: FaceMetrics, _ h: Hysteresis, _ t: AnalyzerThresholds) -> Bool {
        if let eyes = face.eyes {
            return h.below(eyes.minOpening, t.minEyeOpening, t.eyeOpeningHysteresis, .eyesClosed)
                && (eyes.closedFor ?? .infinity) >= t.minEyesClosedTime
        }
        if let features = face.features {
            return h.below(
                min(features.leftEyeAspectRatio, features.rightEyeAspectRatio), t.minEyeAspectRatio,
                t.eyeHysteresis, .eyesClosed)
        }
        return false
    }

    /// Whether the eyes count as open (`eyesOpen` in JSON): at least one eye above the threshold.
    public static func eyesOpen(_ features: FacialFeatures, thresholds t: AnalyzerThresholds) -> Bool {
        max(features.leftEyeAspectRatio, features.rightEyeAspectRatio) >= t.minEyeAspectRatio
    }

    /// Whether the iris model's reading counts as open (at least one eye above `minEyeOpening`).
    public static func eyesOpen(_ eyes: EyeMetrics, thresholds t: AnalyzerThresholds) -> Bool {
        eyes.maxOpening >= t.minEyeOpening
    }

    /// The cover regions that say `faceCovered`: all of `CoverMetrics.regions` but, on a head turned past
    /// `maxYaw` (`turned`: the pose's own `lookStraight` is said), the hand model's reading beyond the lips
    /// (`hand`) unless it reads a hand over the near eye at `minTurnedHandOverEye` (`handOverAnEye`). Turned
    /// 16–36°, real bare faces read a hand over the near eye, a cheek or the nose (0.51–0.85: the turn's hair,
    /// shadow and outline), the person would be told to uncover a face that is not covered (issue 32 item 4);
    /// that reading is judged again once the face is turned back, before any photo. `blurry`: `blurry`'s own
    /// decision (`CoverMetrics.regions(blurry:)`).
    static func judgedCover(
        _ cover: CoverMetrics, turned: Bool, blurry: Bool, _ t: AnalyzerThresholds, margin: Double
    ) -> [String] {
        let regions = cover.regions(t, margin: margin, blurry: blurry)
        return turned && !handOverAnEye(cover, turned: true, t, margin: margin)
            ? regions.filter { $0 != "hand" } : regions
    }

    /// Whether the hand model itself reads a hand over the face: its flag on the mouth at `minHandOverMouth`, or on
    /// another part at `minHandOverFace` — on a `turned` head only over the near eye (`handOverAnEye`) — each less
    /// `margin`. Judged in any light: the light measures read the hand's skin too (`activeCodes`).
    static func handReadsOver(_ cover: CoverMetrics, turned: Bool, _ t: AnalyzerThresholds, margin: Double) -> Bool {
        let mouth = cover.handOverMouth.map { $0 >= t.minHandOverMouth * (1 - margin) } ?? false
        let face = cover.handOverFace.map { $0 >= t.minHandOverFace * (1 - margin) } ?? false
        return mouth || (face && !turned) || handOverAnEye(cover, turned: turned, t, margin: margin)
    }

    /// The hand model reads a hand over an eye seen nearly full width (`handParts` names it, its
    /// `CoverMetrics.rightEyeWidthRatio` ≥ `minLensEyeWidthRatio`, as the lens rules ask) with a flag at
    /// `minHandOverFace` less `margin`, or at `minTurnedHandOverEye` on a `turned` head, whose margin is taken off
    /// what the flag lacks of 1 (0.9 held down to 0.89, not 0.81: bare turned faces read up to 0.853): a hand over
    /// that eye, turned head or not. Its iris and lids are not read behind the hand: `faceCovered`, never
    /// `eyesClosed`. An eye foreshortened below that width ratio (the far eye of a near-profile) is the pose's; at
    /// 16–30° the far eye may be wider, and only the turned limit guards it (issue 32 items 1 and 4;
    /// docs/calibration.md, "A hand over an eye on a turned head").
    static func handOverAnEye(_ cover: CoverMetrics, turned: Bool, _ t: AnalyzerThresholds, margin: Double) -> Bool {
        let limit = turned ? 1 - (1 - t.minTurnedHandOverEye) * (1 + margin) : t.minHandOverFace * (1 - margin)
        guard let flag = cover.handOverFace, flag >= limit else { return false }
        return (cover.handParts.contains(.rightEye) && cover.rightEyeWidthRatio >= t.minLensEyeWidthRatio)
            || (cover.handParts.contains(.leftEye) && cover.leftEyeWidthRatio >= t.minLensEyeWidthRatio)
    }

    /// Whether the pose-corrected gaze is beyond `limitX`/`limitY` (+ `margin`, negative for hysteresis).
    /// A closed eye has no gaze (the model still places an iris, behind the lid or a hand), and the gaze is
    /// both eyes' mean: with either eye closed it is never off — that eye is `eyesClosed` instead.
    /// Looking down also needs the iris near the lower lid (`maxIrisToLowerLidDown`): wide-open eyes on the
    /// camera read down by the corners alone.
    public static func gazeIsOff(
        _ eyes: EyeMetrics, limitX: Double, limitY: Double, margin: Double = 0,
        minOpening: Double = AnalyzerThresholds().minEyeOpening,
        maxIrisToLowerLid: Double = AnalyzerThresholds().maxIrisToLowerLidDown
    ) -> Bool {
        let down = eyes.cameraGazeY > limitY + margin && eyes.irisToLowerLid > maxIrisToLowerLid
        return eyes.minOpening >= minOpening
            && (abs(eyes.cameraGazeX) > limitX + margin || eyes.cameraGazeY < -(limitY + margin) || down)
    }

    /// A frame the auto capture may keep, as far as the eyes go: read on this very frame, both eyes open (the
    /// validator asks it of each eye) and on the camera by the plain thresholds (no hold time: a blink, a wink
    /// or a glance is never the captured frame).
    /// A code in `mustClear` (refused by a validator) asks its measure to clear the limit by its margin.
    public static func eyesCapturable(
        _ eyes: EyeMetrics?, thresholds t: AnalyzerThresholds,
        mustClear: Set<GuidanceCode> = []
    ) -> Bool {
        guard let eyes else { return false }
        return eyes.isFresh && !eyeClosed(eyes, t, holdingMargin: mustClear.contains(.eyesClosed))
            && !gazeOff(eyes, t, holdingMargin: mustClear.contains(.lookStraight))
    }

    /// Either eye closed by the limit, or by the limit and its margin when `holdingMargin` (the code is shown,
    /// or must clear after a refusal): one reading for the analyzer's timers and the capture.
    static func eyeClosed(_ eyes: EyeMetrics, _ t: AnalyzerThresholds, holdingMargin: Bool) -> Bool {
        eyes.minOpening < t.minEyeOpening + (holdingMargin ? t.eyeOpeningHysteresis : 0)
    }

    /// The eyes off the camera by the limit, or by the limit less its margin when `holdingMargin`.
    static func gazeOff(_ eyes: EyeMetrics, _ t: AnalyzerThresholds, holdingMargin: Bool) -> Bool {
        gazeIsOff(
            eyes, limitX: t.maxGazeX, limitY: t.maxGazeY, margin: holdingMargin ? -t.gazeHysteresis : 0,
            minOpening: t.minEyeOpening, maxIrisToLowerLid: t.maxIrisToLowerLidDown)
    }

    /// The active codes of `active` that are *slight*: past the limit but not past the `far…` limits (SPEC
    /// §4's table; for the directions `farCentreOffsetX`/`Y`), so the screen asks gently
    /// (`Messages.slightGuidanceID`: "A little lower"). `previousPlain`: the codes
    /// shown plain in the previous frame, which stay plain until back inside the far limits by their margin.
    public static func slightCodes(
        _ m: FrameMetrics, active: [GuidanceCode], previousPlain: Set<GuidanceCode> = [],
        thresholds t: AnalyzerThresholds
    ) -> Set<GuidanceCode> {
        guard let face = m.face else { return [] }
        var slight: Set<GuidanceCode> = []
        /// `value` inside `limit` (a lower limit when `isMinimum`); a code shown plain needs the margin too.
        func inside(_ value: Double, _ limit: Double, _ margin: Double, isMinimum: Bool, _ code: GuidanceCode) -> Bool {
            let m = previousPlain.contains(code) ? margin : 0
            return isMinimum ? value >= limit + m : value <= limit - m
        }
        let fraction = t.fractionHysteresis
        if let light = face.light {
            if active.contains(.tooDark),
                inside(light.meanLuma, t.farMinFaceLuma, t.lumaHysteresis, isMinimum: true, .tooDark),
                inside(
                    light.darkFraction, t.farMaxDarkFraction, t.farMaxDarkFraction * fraction, isMinimum: false,
                    .tooDark)
            {
                slight.insert(.tooDark)
            }
            if active.contains(.tooBright),
                inside(light.meanLuma, t.farMaxFaceLuma, t.lumaHysteresis, isMinimum: false, .tooBright),
                inside(
                    light.brightFraction, t.farMaxBrightFraction, t.farMaxBrightFraction * fraction,
                    isMinimum: false, .tooBright)
            {
                slight.insert(.tooBright)
            }
            if active.contains(.unevenLight),
                inside(light.balance, t.farMinLightBalance, t.balanceHysteresis, isMinimum: true, .unevenLight)
            {
                slight.insert(.unevenLight)
            }
        }
        for (code, offset, far) in [
            (GuidanceCode.moveLeft, face.offsetX, t.farCentreOffsetX),
            (.moveRight, face.offsetX, t.farCentreOffsetX),
            (.moveUp, face.offsetY, t.farCentreOffsetY),
            (.moveDown, face.offsetY, t.farCentreOffsetY),
        ]
        where active.contains(code) && inside(abs(offset), far, t.geometryHysteresis, isMinimum: false, code) {
            slight.insert(code)
        }
        if let pose = face.pose {
            // Only a head turned a little: eyes looking away are no "little" matter.
            let eyesAway =
                face.eyes.map {
                    gazeIsOff(
                        $0, limitX: t.maxGazeX, limitY: t.maxGazeY, minOpening: t.minEyeOpening,
                        maxIrisToLowerLid: t.maxIrisToLowerLidDown)
                } ?? false
            if active.contains(.lookStraight), !eyesAway,
                inside(abs(pose.yaw), t.farMaxYaw, t.angleHysteresis, isMinimum: false, .lookStraight),
                inside(abs(pose.pitch), t.farMaxPitch, t.angleHysteresis, isMinimum: false, .lookStraight)
            {
                slight.insert(.lookStraight)
            }
            if active.contains(.keepHeadLevel),
                inside(abs(pose.roll), t.farMaxRoll, t.angleHysteresis, isMinimum: false, .keepHeadLevel)
            {
                slight.insert(.keepHeadLevel)
            }
        }
        return slight
    }
}
