/// The analyzer's part of what `facecap analyze` prints for a photo or a clip frame: JSON fields for
/// scripts and readable lines for people (the command adds the file, size and faces around them).
///
/// JSON fields (stable keys; numbers rounded; `null` where a measure could not be taken):
/// ```
/// per face:  "yaw", "pitch", "roll" (degrees), "eyesOpen"           (null without landmarks),
///            "eyes": {"opening": [right, left], "gaze": [x, y], "cameraGaze": [x, y], "pupilShade": [right, left], "fresh"}
///              (the iris model's reading, eye widths; null when it did not run on that face)
/// per image: "metrics": {"frameLuma", "faceCount", "faceWidths", "faceWidth", "offsetX", "offsetY",
///              "edgeMargin", "yaw", "pitch", "roll", "eyeAspectRatio": [right, left], "mouthOpening", "eyes",
///              "faceLuma", "darkFraction", "brightFraction", "lightBalance", "sharpness",
///              "secondFaceScore", "secondFaceRelativeWidth", "centreSpeed", "sizeChange", "hiddenByHand"},
///            "guidance": ["moveCloser", …] (priority order, ["ready"] when nothing is wrong),
///            "primary": "moveCloser"
/// ```
/// Clip frames add `"hints"`, `"stability"` (0…1), `"keepFrame"`, `"capture"` (`{"frameTimestamp",
/// "sharpness"}` on the frame the auto capture happens, else null) and `"manualFallback"` (`"timeout"`,
/// `"noConfidentFace"` or null); their `guidance` is after hysteresis and `primary` is the message the
/// wizard shows.
public enum AnalysisReport {
    /// The analysis of one picture.
    public struct Entry: Sendable {
        public var frameIndex: Int
        public var metrics: FrameMetrics
        public var guidance: [GuidanceCode]
        public var primary: GuidanceCode
        /// Set for clip frames: the wizard's view (hints, stability, capture, fallback).
        public var clip: AnalyzerOutput?

        public init(
            frameIndex: Int, metrics: FrameMetrics, guidance: [GuidanceCode], primary: GuidanceCode,
            clip: AnalyzerOutput? = nil
        ) {
            self.frameIndex = frameIndex; self.metrics = metrics; self.guidance = guidance; self.primary = primary
            self.clip = clip
        }
    }

    /// A photo analysed on its own: no history, so plain thresholds and no motion.
    public static func photo(frame: Frame, faces: [Face], thresholds: AnalyzerThresholds) -> Entry {
        let metrics = FaceMeasures.measure(frame: frame, faces: faces, thresholds: thresholds)
        let codes = GuidanceRules.activeCodes(metrics, thresholds: thresholds)
        let guidance = codes.isEmpty ? [GuidanceCode.ready] : codes
        return Entry(frameIndex: 0, metrics: metrics, guidance: guidance, primary: guidance[0])
    }

    /// A clip frame as the wizard saw it.
    public static func clipFrame(index: Int, output: AnalyzerOutput) -> Entry {
        Entry(
            frameIndex: index, metrics: output.metrics, guidance: output.active, primary: output.primary,
            clip: output)
    }

    // MARK: JSON

    /// Pose and eyes of one face, as (key, JSON value) pairs.
    public static func faceFields(_ face: Face, thresholds: AnalyzerThresholds) -> [(String, String)] {
        let points = face.landmarks?.points ?? []
        let pose = LandmarkGeometry.headPose(points, pitchOffset: thresholds.pitchOffset)
        let features = LandmarkGeometry.features(points)
        let eyes = face.eyes.map { EyeMeasures.measure($0, pose: pose, thresholds: thresholds) }
        let open =
            eyes.map { GuidanceRules.eyesOpen($0, thresholds: thresholds) }
            ?? features.map { GuidanceRules.eyesOpen($0, thresholds: thresholds) }
        return [
            ("yaw", number(pose?.yaw, 1)), ("pitch", number(pose?.pitch, 1)), ("roll", number(pose?.roll, 1)),
            ("eyesOpen", open.map { String($0) } ?? "null"),
            ("eyes", eyes.map(eyesJSON) ?? "null"),
        ]
    }

    /// Measures, guidance and (for clip frames) the wizard's state, as (key, JSON value) pairs.
    public static func fields(_ entry: Entry) -> [(String, String)] {
        var fields: [(String, String)] = [
            ("metrics", metricsJSON(entry.metrics, guidance: entry.guidance)),
            ("guidance", array(entry.guidance.map { string($0.rawValue) })),
            ("primary", string(entry.primary.rawValue)),
        ]
        if let clip = entry.clip {
            fields += [
                ("hints", array(clip.hints.map { string($0.rawValue) })),
                ("stability", number(clip.stability, 3)),
                ("keepFrame", String(clip.keepFrame)),
                (
                    "capture",
                    clip.capture.map {
                        object([
                            ("frameTimestamp", number($0.frameTimestamp, 3)), ("sharpness", number($0.sharpness, 1)),
                        ])
                    } ?? "null"
                ),
                ("manualFallback", clip.manualFallback.map { string($0.rawValue) } ?? "null"),
            ]
        }
        return fields
    }

    /// The iris model's eye measures: lid opening per eye [right, left], raw and pose-corrected gaze [x, y]
    /// in eye widths, and whether the reading was taken on this frame.
    static func eyesJSON(_ e: EyeMetrics) -> String {
        object([
            ("opening", array([number(e.rightOpening, 3), number(e.leftOpening, 3)])),
            ("gaze", array([number(e.gazeX, 3), number(e.gazeY, 3)])),
            ("cameraGaze", array([number(e.cameraGazeX, 3), number(e.cameraGazeY, 3)])),
            ("pupilShade", array([number(e.rightPupilShade, 3), number(e.leftPupilShade, 3)])),
            ("fresh", String(e.isFresh)),
        ])
    }

    /// The cover measures (`CoverMetrics`), each eye's as [right, left], and the covered regions by the
    /// default thresholds ("mouth", "eyes", "eye", "hand"), the flat-lens sign left out on a face whose guidance
    /// says `blurry` (`CoverMetrics.regions(blurry:)`; a face too dark or too bright is not judged `blurry` and
    /// its regions read every sign, though its guidance judges no cover but a hand).
    static func coverJSON(_ c: CoverMetrics, blurry: Bool) -> String {
        object([
            ("regions", array(c.regions(AnalyzerThresholds(), blurry: blurry).map(string))),
            ("presence", number(c.presence, 1)),
            ("lowerFaceChroma", number(c.lowerFaceChroma, 1)),
            ("mouthContrast", number(c.mouthContrast, 3)),
            ("mouthChroma", number(c.mouthChroma, 1)),
            ("lowerFaceHue", number(c.lowerFaceHue, 1)),
            ("lowerFaceSaturation", number(c.lowerFaceSaturation, 3)),
            ("upperFaceSaturation", number(c.upperFaceSaturation, 3)),
            ("lowerToUpperLuma", number(c.lowerToUpperLuma, 3)),
            ("eyeBrightness", array([number(c.rightEyeBrightness, 3), number(c.leftEyeBrightness, 3)])),
            ("eyeMedian", array([number(c.rightEyeMedian, 3), number(c.leftEyeMedian, 3)])),
            ("belowEye", array([number(c.rightBelowEye, 3), number(c.leftBelowEye, 3)])),
            ("eyeContrast", array([number(c.rightEyeContrast, 3), number(c.leftEyeContrast, 3)])),
            ("lensEdge", array([number(c.rightLensEdge, 3), number(c.leftLensEdge, 3)])),
            ("eyeTexture", array([number(c.rightEyeTexture, 3), number(c.leftEyeTexture, 3)])),
            ("eyeDip", array([number(c.rightEyeDip, 3), number(c.leftEyeDip, 3)])),
            ("eyeChroma", array([number(c.rightEyeChroma, 1), number(c.leftEyeChroma, 1)])),
            ("eyeDarkness", array([number(c.rightEyeDarkness, 3), number(c.leftEyeDarkness, 3)])),
            ("eyeWidthRatio", array([number(c.rightEyeWidthRatio, 3), number(c.leftEyeWidthRatio, 3)])),
            ("handOverMouth", number(c.handOverMouth, 3)),
            ("handOverFace", number(c.handOverFace, 3)),
            ("handParts", array(c.handParts.names.map { string($0) })),
        ])
    }

    /// The frame's measures; `guidance`: the codes said of the frame (its `blurry` decides the cover's regions).
    static func metricsJSON(_ m: FrameMetrics, guidance: [GuidanceCode]) -> String {
        let f = m.face
        return object([
            ("frameLuma", number(m.frameLuma, 1)),
            ("faceCount", String(m.faceCount)),
            ("faceWidths", array(m.faceWidths.map { number($0, 4) })),
            ("faceWidth", number(f?.widthRatio, 4)),
            ("offsetX", number(f?.offsetX, 4)), ("offsetY", number(f?.offsetY, 4)),
            ("edgeMargin", number(f?.edgeMargin, 4)),
            ("yaw", number(f?.pose?.yaw, 1)), ("pitch", number(f?.pose?.pitch, 1)), ("roll", number(f?.pose?.roll, 1)),
            (
                "eyeAspectRatio",
                f?.features.map {
                    array([number($0.rightEyeAspectRatio, 3), number($0.leftEyeAspectRatio, 3)])
                } ?? "null"
            ),
            ("mouthOpening", number(f?.features?.mouthOpening, 3)),
            ("eyes", f?.eyes.map(eyesJSON) ?? "null"),
            ("cover", f?.cover.map { coverJSON($0, blurry: guidance.contains(.blurry)) } ?? "null"),
            ("faceLuma", number(f?.light?.meanLuma, 1)),
            ("darkFraction", number(f?.light?.darkFraction, 4)),
            ("brightFraction", number(f?.light?.brightFraction, 4)),
            ("lightBalance", number(f?.light?.balance, 3)),
            ("sharpness", number(f?.sharpness, 1)),
            ("secondFaceScore", number(m.secondFaceScore, 4)),
            ("secondFaceRelativeWidth", number(m.secondFaceRelativeWidth, 4)),
            ("centreSpeed", number(m.motion?.centreSpeed, 4)),
            ("sizeChange", number(m.motion?.sizeChange, 4)),
            ("hiddenByHand", number(m.hiddenByHand, 3)),
        ])
    }

    // MARK: Text

    /// Readable lines (indented, to follow the command's heading) on the measured face and the guidance.
    public static func summaryLines(_ entry: Entry, thresholds: AnalyzerThresholds) -> [String] {
        let m = entry.metrics
        var lines: [String] = []
        if let f = m.face {
            var face =
                "  measured: width \(percent(f.widthRatio)) of the frame, centre offset x "
                + "\(signed(f.offsetX * 100, 0)) % y \(signed(f.offsetY * 100, 0)) %"
            if f.edgeMargin < 0 { face += ", cut by the frame edge" }
            lines.append(face)
            if let pose = f.pose, let features = f.features {
                let eyes = GuidanceRules.eyesOpen(features, thresholds: thresholds) ? "open" : "closed"
                lines.append(
                    "  pose: yaw \(signed(pose.yaw, 0))°, pitch \(signed(pose.pitch, 0))°, roll "
                        + "\(signed(pose.roll, 0))°; eyes \(eyes) (EAR \(fixed(features.rightEyeAspectRatio, 2))/"
                        + "\(fixed(features.leftEyeAspectRatio, 2))), "
                        + "mouth opening \(fixed(features.mouthOpening, 2))")
            }
            if let light = f.light {
                lines.append(
                    "  light: face luma \(fixed(light.meanLuma, 0)), \(percent(light.darkFraction)) dark, "
                        + "\(percent(light.brightFraction)) over-exposed, "
                        + "left/right balance \(fixed(light.balance, 2))"
                        + (f.sharpness.map { "; sharpness \(fixed($0, 0))" } ?? ""))
            }
        } else if let luma = m.frameLuma {
            lines.append("  frame luma \(fixed(luma, 0))")
        }
        let advice = entry.guidance.map { "\($0.rawValue) (\(Messages.guidanceID($0).english))" }.joined(
            separator: ", ")
        lines.append("  guidance: \(advice)")
        return lines
    }

    /// One line per clip frame: what the wizard would show and do.
    public static func clipLine(_ entry: Entry) -> String {
        guard let clip = entry.clip else { return "frame \(entry.frameIndex): \(entry.primary.rawValue)" }
        let faces = entry.metrics.faceCount == 1 ? "1 face" : "\(entry.metrics.faceCount) faces"
        var line =
            "frame \(entry.frameIndex) t \(fixed(clip.metrics.timestamp, 2))s, \(faces): "
            + clip.primary.rawValue
        if !clip.hints.isEmpty { line += " [" + clip.hints.map(\.rawValue).joined(separator: ", ") + "]" }
        if clip.active != [clip.primary] {
            line += " (now: " + clip.active.map(\.rawValue).joined(separator: ", ") + ")"
        }
        if clip.stability > 0, clip.capture == nil { line += " steady \(percent(clip.stability))" }
        if let capture = clip.capture {
            line +=
                " — AUTO CAPTURE of the frame at \(fixed(capture.frameTimestamp, 2))s"
                + " (sharpness \(fixed(capture.sharpness, 0)))"
        }
        if let reason = clip.manualFallback {
            line +=
                reason == .timeout
                ? " — manual capture offered (no auto capture in time)"
                : " — manual capture offered (no face for a while)"
        }
        return line
    }

    // MARK: Formatting helpers

    static func string(_ text: String) -> String { JSONText.string(text) }
    static func object(_ fields: [(String, String)]) -> String { JSONText.object(fields) }
    static func array(_ items: [String]) -> String { JSONText.array(items) }
    static func number(_ value: Double?, _ decimals: Int) -> String { JSONText.number(value, decimals: decimals) }
    static func fixed(_ value: Double, _ decimals: Int) -> String { JSONText.fixed(value, decimals: decimals) }

    static func signed(_ value: Double, _ decimals: Int) -> String {
        let text = fixed(value, decimals)
        return text.hasPrefix("-") || text == "0" ? text : "+" + text
    }

    static func percent(_ fraction: Double) -> String { fixed(fraction * 100, 0) + " %" }
}
