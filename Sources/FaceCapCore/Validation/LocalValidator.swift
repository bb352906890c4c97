/// The built-in validator (SPEC §8, the default without `--server`): the kept photo, at full resolution,
/// measured as the analyzer measures a frame and held to `ValidatorThresholds`.
///
/// Reason codes are guidance codes where one says what to do (`tooDark`, `lookStraight`, `moveCloser`
/// for a face with too few pixels…) plus the validator's own, `LocalValidator.faceUnclear` and
/// `LocalValidator.photoUnusable`. Pure: no clock, no I/O; the face models run in the caller.
public struct LocalValidator: Sendable {
    /// The landmark model could not confirm the face, so pose, eyes and framing cannot be checked
    /// (typically a face half turned away, covered or in very poor light). Advice: face the camera in
    /// good light with nothing covering the face.
    public static let faceUnclear = "faceUnclear"
    /// The photo itself could not be measured (no pixels, or fewer bytes than its size says): a fault
    /// upstream, not something the person did. Advice: take the photo again.
    public static let photoUnusable = "photoUnusable"

    public var thresholds: ValidatorThresholds
    /// Measuring parameters shared with live guidance (`pitchOffset`, `darkPixelLuma`, …).
    public var measuring: AnalyzerThresholds

    public init(thresholds: ValidatorThresholds = ValidatorThresholds(),
                measuring: AnalyzerThresholds = AnalyzerThresholds()) {
        self.thresholds = thresholds
        self.measuring = measuring
    }

    /// What the validator measured and what it found wrong.
    public struct Assessment: Sendable, Equatable {
        /// The measures of the photo (the report's "validation" section prints them).
        public var metrics: FrameMetrics
        /// Distance between the eye centres in photo pixels, nil without landmarks.
        public var interEyeDistance: Double?
        /// Reason codes in priority order; empty when the photo passes.
        public var reasons: [String]

        /// `.pass`, or `.retry` with the reasons — `.manualReview` when this was the final attempt.
        public func verdict(isFinal: Bool) -> ValidationVerdict {
            guard !reasons.isEmpty else { return ValidationVerdict(result: .pass) }
            return ValidationVerdict(result: isFinal ? .manualReview : .retry, reasons: reasons)
        }
    }

    /// Measures `frame` (the full-resolution, unmirrored photo) with the faces the models found in it.
    public func assess(_ frame: Frame, faces: [Face]) -> Assessment {
        let t = thresholds
        var measuring = self.measuring
        measuring.minFaceScore = t.minFaceScore
        let metrics = FaceMeasures.measure(frame: frame, faces: faces, thresholds: measuring)
        guard frame.isWellFormed, frame.width > 0, frame.height > 0, metrics.frameLuma != nil else {
            return Assessment(metrics: metrics, interEyeDistance: nil, reasons: [Self.photoUnusable])
        }
        guard let face = metrics.face else {
            return Assessment(metrics: metrics, interEyeDistance: nil, reasons: [GuidanceCode.noFace.rawValue])
        }
        var codes: [GuidanceCode] = []
        var unclear = false
        if let score = metrics.secondFaceScore, let relative = metrics.secondFaceRelativeWidth,
           score >= t.secondFaceMinScore, relative >= t.secondFaceMinRelativeWidth {
            codes.append(.multipleFaces)
        }
        if face.edgeMargin < t.minEdgeMargin { codes.append(.faceNotVisible) }
        if let cover = face.cover, !cover.regions(measuring).isEmpty { codes.append(.faceCovered) }
        let points = faces[face.index].landmarks?.points ?? []
        var interEye: Double?
        if points.count >= 468 {
            // Eye centres as the tracker's keypoints define them: the midpoints of each eye's corners.
            let right = (points[33] + points[133]) / 2, left = (points[362] + points[263]) / 2
            let dx = Double(left.x - right.x), dy = Double(left.y - right.y)
            interEye = (dx * dx + dy * dy).squareRoot()
        } else {
            unclear = true
        }
        if let light = face.light {
            if light.meanLuma < t.minFaceLuma || light.darkFraction > t.maxDarkFraction { codes.append(.tooDark) }
            if light.meanLuma > t.maxFaceLuma || light.brightFraction > t.maxBrightFraction {
                codes.append(.tooBright)
            }
            if light.balance < t.minLightBalance { codes.append(.unevenLight) }
        }
        if let interEye, interEye < t.minInterEyeDistance { codes.append(.moveCloser) }
        if let pose = face.pose {
            // No gaze behind a dark lens or a hand (the iris there is the model's guess).
            let eyesCovered = face.cover.map { !Set($0.regions(measuring)).isDisjoint(with: ["eyes", "eye"]) } ?? false
            let gazeOff = !eyesCovered && face.eyes.map {
                GuidanceRules.gazeIsOff($0, limitX: t.maxGazeX, limitY: t.maxGazeY, minOpening: t.minEyeOpening)
            } ?? false
            if abs(pose.yaw) > t.maxYaw || abs(pose.pitch) > t.maxPitch || gazeOff { codes.append(.lookStraight) }
            if abs(pose.roll) > t.maxRoll { codes.append(.keepHeadLevel) }
        }
        if let eyes = face.eyes {
            // The iris model's lids: both eyes must be open.
            if eyes.minOpening < t.minEyeOpening { codes.append(.eyesClosed) }
        } else if let features = face.features,
           min(features.leftEyeAspectRatio, features.rightEyeAspectRatio) < t.minEyeAspectRatio {
            codes.append(.eyesClosed)
        }
        if let sharpness = face.sharpness, sharpness < t.minSharpness { codes.append(.blurry) }
        var reasons = codes.sorted().map(\.rawValue)
        // With a second face the photo fails anyway, and the landmark model ran on one face only (the
        // detector's best, not necessarily the widest): "unclear" would only add noise to "one face only".
        if unclear, !codes.contains(.multipleFaces) {
            // After framing (what the person fixes first), before light and pose it could not check.
            let framing: Set<GuidanceCode> = [.multipleFaces, .faceNotVisible]
            let at = codes.sorted().firstIndex { !framing.contains($0) } ?? reasons.count
            reasons.insert(Self.faceUnclear, at: at)
        }
        return Assessment(metrics: metrics, interEyeDistance: interEye, reasons: reasons)
    }

    /// The verdict on `frame`: `assess` then `Assessment.verdict(isFinal:)`.
    public func validate(_ frame: Frame, faces: [Face], isFinal: Bool) -> ValidationVerdict {
        assess(frame, faces: faces).verdict(isFinal: isFinal)
    }
}
