/// The built-in validator (SPEC §8, the default without `--server`): the kept photo, at full resolution,
/// measured as the analyzer measures a frame and held to the same limits by the same rules
/// (`GuidanceRules.activeCodes` on `AnalyzerThresholds`: the one capture gate, SPEC §4), on the measures a
/// photo has — everything but the framing in the oval and motion.
///
/// Reason codes are guidance codes where one says what to do (`tooDark`, `lookStraight`, `moveCloser`
/// for a face with too few pixels…) plus the validator's own, `LocalValidator.faceUnclear` and
/// `LocalValidator.photoUnusable`. Pure: no clock, no I/O; the face models run in the caller.
public struct LocalValidator: Sendable {
    /// The landmark model could not confirm any face the detector found, so pose, eyes and framing cannot
    /// be checked (typically a face half turned away, covered or in very poor light). Advice: face the
    /// camera in good light with nothing covering the face.
    public static let faceUnclear = "faceUnclear"
    /// The photo itself could not be measured (no pixels, or fewer bytes than its size says): a fault
    /// upstream, not something the person did. Advice: take the photo again.
    public static let photoUnusable = "photoUnusable"

    /// The codes a photo is judged on: live guidance's, less those about placing the face in the oval
    /// (`moveCloser` is asked of a photo by its eye distance alone) and about motion.
    public static let photoCodes: Set<GuidanceCode> = [
        .multipleFaces, .faceNotVisible, .faceCovered, .tooDark, .tooBright, .lookStraight, .keepHeadLevel,
        .unevenLight, .eyesClosed, .blurry,
    ]

    /// The one table of limits, shared with live guidance.
    public var thresholds: AnalyzerThresholds

    public init(thresholds: AnalyzerThresholds = AnalyzerThresholds()) {
        self.thresholds = thresholds
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
        let metrics = FaceMeasures.measure(frame: frame, faces: faces, thresholds: t)
        guard frame.isWellFormed, frame.width > 0, frame.height > 0, metrics.frameLuma != nil else {
            return Assessment(metrics: metrics, interEyeDistance: nil, reasons: [Self.photoUnusable])
        }
        guard let face = metrics.face else {
            // Detections the landmark model did not confirm are no face, but the photo is not empty either.
            let unconfirmed = faces.contains { $0.isRejected && Double($0.detection.score) >= t.minFaceScore }
            return Assessment(
                metrics: metrics, interEyeDistance: nil,
                reasons: [unconfirmed ? Self.faceUnclear : GuidanceCode.noFace.rawValue])
        }
        // A single photo: no previous frame, so every limit applies as it is and nothing needs a hold time.
        var codes = GuidanceRules.activeCodes(metrics, thresholds: t).filter(Self.photoCodes.contains)
        if let interEye = face.interEyeDistance, interEye < t.minInterEyeDistance { codes.append(.moveCloser) }
        var reasons = codes.sorted().map(\.rawValue)
        // With a second face the photo fails anyway, and the landmark model ran on one face only (the
        // detector's best, not necessarily the widest): "unclear" would only add noise to "one face only".
        if face.interEyeDistance == nil, !codes.contains(.multipleFaces) {
            // After framing (what the person fixes first), before light and pose it could not check.
            let framing: Set<GuidanceCode> = [.multipleFaces, .faceNotVisible]
            let at = codes.sorted().firstIndex { !framing.contains($0) } ?? reasons.count
            reasons.insert(Self.faceUnclear, at: at)
        }
        return Assessment(metrics: metrics, interEyeDistance: face.interEyeDistance, reasons: reasons)
    }

    /// The verdict on `frame`: `assess` then `Assessment.verdict(isFinal:)`.
    public func validate(_ frame: Frame, faces: [Face], isFinal: Bool) -> ValidationVerdict {
        assess(frame, faces: faces).verdict(isFinal: isFinal)
    }
}
