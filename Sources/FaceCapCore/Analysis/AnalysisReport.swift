/// How `facecap analyze` shows an analysed photo or clip frame: one JSON object per line for scripts,
/// or a few readable lines for people.
///
/// JSON shape (stable keys; numbers rounded; `null` where a measure could not be taken):
/// ```
/// {"file": "a.jpg", "frame": 0, "width": 640, "height": 480,
///  "faces": [{"score", "box": [x, y, w, h], "keypoints": [[x, y] ×6], "landmarks": true|false,
///             "yaw", "pitch", "roll", "eyesOpen"}],            (pose and eyes null without landmarks)
///  "metrics": {"frameLuma", "faceCount", "faceWidths", "faceWidth", "offsetX", "offsetY", "edgeMargin",
///              "yaw", "pitch", "roll", "eyeAspectRatio": [right, left], "mouthOpening", "faceLuma",
///              "darkFraction", "brightFraction", "lightBalance", "sharpness", "secondFaceScore",
///              "secondFaceRelativeWidth", "centreSpeed", "sizeChange"},
///  "guidance": ["moveCloser", …] (priority order, ["ready"] when nothing is wrong), "primary": "moveCloser"}
/// ```
/// Clip frames add `"t"` (seconds), `"hints"`, `"stability"` (0…1), `"keepFrame"`, `"capture"`
/// (`{"frameTimestamp", "sharpness"}` on the frame the auto capture happens, else null) and
/// `"manualFallback"` (`"timeout"`, `"noConfidentFace"` or null); their `guidance` is after hysteresis
/// and `primary` is the message the wizard shows.
public enum AnalysisReport {
    /// Everything about one analysed picture.
    public struct Entry {
        public var file: String
        public var frameIndex: Int
        public var faces: [Face]
        public var metrics: FrameMetrics
        public var guidance: [GuidanceCode]
        public var primary: GuidanceCode
        /// Set for clip frames: the wizard's view (hints, stability, capture, fallback).
        public var clip: AnalyzerOutput?

        public init(file: String, frameIndex: Int, faces: [Face], metrics: FrameMetrics, guidance: [GuidanceCode],
                    primary: GuidanceCode, clip: AnalyzerOutput? = nil) {
            self.file = file; self.frameIndex = frameIndex; self.faces = faces; self.metrics = metrics
            self.guidance = guidance; self.primary = primary; self.clip = clip
        }
    }

    /// A photo analysed on its own: no history, so plain thresholds and no motion.
    public static func photo(file: String, frame: Frame, faces: [Face], thresholds: AnalyzerThresholds) -> Entry {
        let metrics = FaceMeasures.measure(frame: frame, faces: faces, thresholds: thresholds)
        let codes = GuidanceRules.activeCodes(metrics, thresholds: thresholds)
        let guidance = codes.isEmpty ? [GuidanceCode.ready] : codes
        return Entry(file: file, frameIndex: 0, faces: faces, metrics: metrics, guidance: guidance,
                     primary: guidance[0])
    }

    /// A clip frame as the wizard saw it.
    public static func clipFrame(file: String, index: Int, faces: [Face], output: AnalyzerOutput) -> Entry {
        Entry(file: file, frameIndex: index, faces: faces, metrics: output.metrics, guidance: output.active,
              primary: output.primary, clip: output)
    }

    // MARK: JSON

    /// The entry as one line of JSON.
    public static func json(_ entry: Entry, thresholds: AnalyzerThresholds) -> String {
        let m = entry.metrics
        var fields: [(String, String)] = [("file", string(entry.file)), ("frame", String(entry.frameIndex))]
        if let clip = entry.clip { fields.append(("t", number(clip.metrics.timestamp, 3))) }
        fields += [
            ("width", String(m.frameWidth)), ("height", String(m.frameHeight)),
            ("faces", array(entry.faces.map { faceJSON($0, thresholds: thresholds) })),
            ("metrics", metricsJSON(m)),
            ("guidance", array(entry.guidance.map { string($0.rawValue) })),
            ("primary", string(entry.primary.rawValue)),
        ]
        if let clip = entry.clip {
            fields += [
                ("hints", array(clip.hints.map { string($0.rawValue) })),
                ("stability", number(clip.stability, 3)),
                ("keepFrame", String(clip.keepFrame)),
                ("capture", clip.capture.map {
                    object([("frameTimestamp", number($0.frameTimestamp, 3)), ("sharpness", number($0.sharpness, 1))])
                } ?? "null"),
                ("manualFallback", clip.manualFallback.map { string($0.rawValue) } ?? "null"),
            ]
        }
        return object(fields)
    }

    static func faceJSON(_ face: Face, thresholds: AnalyzerThresholds) -> String {
        let box = face.detection.box
        let points = face.landmarks?.points ?? []
        let pose = LandmarkGeometry.headPose(points, pitchOffset: thresholds.pitchOffset)
        let features = LandmarkGeometry.features(points)
        return object([
            ("score", number(Double(face.detection.score), 4)),
            ("box", array([box.x, box.y, box.width, box.height].map { number(Double($0), 1) })),
            ("keypoints", array(face.detection.keypoints.map {
                array([number(Double($0.x), 1), number(Double($0.y), 1)])
            })),
            ("landmarks", String(points.count >= 468)),
            ("yaw", number(pose?.yaw, 1)), ("pitch", number(pose?.pitch, 1)), ("roll", number(pose?.roll, 1)),
            ("eyesOpen", features.map { String(GuidanceRules.eyesOpen($0, thresholds: thresholds)) } ?? "null"),
        ])
    }

    static func metricsJSON(_ m: FrameMetrics) -> String {
        let f = m.face
        return object([
            ("frameLuma", number(m.frameLuma, 1)),
            ("faceCount", String(m.faceCount)),
            ("faceWidths", array(m.faceWidths.map { number($0, 4) })),
            ("faceWidth", number(f?.widthRatio, 4)),
            ("offsetX", number(f?.offsetX, 4)), ("offsetY", number(f?.offsetY, 4)),
            ("edgeMargin", number(f?.edgeMargin, 4)),
            ("yaw", number(f?.pose?.yaw, 1)), ("pitch", number(f?.pose?.pitch, 1)), ("roll", number(f?.pose?.roll, 1)),
            ("eyeAspectRatio", f?.features.map {
                array([number($0.rightEyeAspectRatio, 3), number($0.leftEyeAspectRatio, 3)])
            } ?? "null"),
            ("mouthOpening", number(f?.features?.mouthOpening, 3)),
            ("faceLuma", number(f?.light?.meanLuma, 1)),
            ("darkFraction", number(f?.light?.darkFraction, 4)),
            ("brightFraction", number(f?.light?.brightFraction, 4)),
            ("lightBalance", number(f?.light?.balance, 3)),
            ("sharpness", number(f?.sharpness, 1)),
            ("secondFaceScore", number(m.secondFaceScore, 4)),
            ("secondFaceRelativeWidth", number(m.secondFaceRelativeWidth, 4)),
            ("centreSpeed", number(m.motion?.centreSpeed, 4)),
            ("sizeChange", number(m.motion?.sizeChange, 4)),
        ])
    }

    // MARK: Text

    /// A few lines for a person reading a photo's analysis.
    public static func summary(_ entry: Entry, thresholds: AnalyzerThresholds) -> String {
        let m = entry.metrics
        let faces = m.faceCount == 1 ? "1 face" : "\(m.faceCount) faces"
        var lines = ["\(entry.file): \(m.frameWidth)×\(m.frameHeight), \(faces) — \(entry.primary.englishText)"]
        if let f = m.face {
            let b = f.box
            var face = "  face: score \(fixed(f.score, 2)), box \(Int(b.x.rounded())),\(Int(b.y.rounded())) "
                + "\(Int(b.width.rounded()))×\(Int(b.height.rounded())), width \(percent(f.widthRatio)) of the frame, "
                + "centre offset x \(signed(f.offsetX * 100, 0)) % y \(signed(f.offsetY * 100, 0)) %"
            if f.edgeMargin < 0 { face += ", cut by the frame edge" }
            lines.append(face)
            if let pose = f.pose, let features = f.features {
                let eyes = GuidanceRules.eyesOpen(features, thresholds: thresholds) ? "open" : "closed"
                lines.append("  pose: yaw \(signed(pose.yaw, 0))°, pitch \(signed(pose.pitch, 0))°, roll "
                             + "\(signed(pose.roll, 0))°; eyes \(eyes) (EAR \(fixed(features.rightEyeAspectRatio, 2))/"
                             + "\(fixed(features.leftEyeAspectRatio, 2))), "
                             + "mouth opening \(fixed(features.mouthOpening, 2))")
            }
            if let light = f.light {
                lines.append("  light: face luma \(fixed(light.meanLuma, 0)), \(percent(light.darkFraction)) dark, "
                             + "\(percent(light.brightFraction)) over-exposed, "
                             + "left/right balance \(fixed(light.balance, 2))"
                             + (f.sharpness.map { "; sharpness \(fixed($0, 0))" } ?? ""))
            }
        } else if let luma = m.frameLuma {
            lines.append("  frame luma \(fixed(luma, 0))")
        }
        let advice = entry.guidance.map { "\($0.rawValue) (\($0.englishText))" }.joined(separator: ", ")
        lines.append("  guidance: \(advice)")
        return lines.joined(separator: "\n")
    }

    /// One line per clip frame: what the wizard would show and do.
    public static func clipLine(_ entry: Entry) -> String {
        guard let clip = entry.clip else { return summary(entry, thresholds: AnalyzerThresholds()) }
        var line = "frame \(entry.frameIndex) t \(fixed(clip.metrics.timestamp, 2))s: \(clip.primary.rawValue)"
        if !clip.hints.isEmpty { line += " [" + clip.hints.map(\.rawValue).joined(separator: ", ") + "]" }
        if clip.active != [clip.primary] {
            line += " (now: " + clip.active.map(\.rawValue).joined(separator: ", ") + ")"
        }
        if clip.stability > 0, clip.capture == nil { line += " steady \(percent(clip.stability))" }
        if let capture = clip.capture {
            line += " — AUTO CAPTURE of the frame at \(fixed(capture.frameTimestamp, 2))s"
                + " (sharpness \(fixed(capture.sharpness, 0)))"
        }
        if let reason = clip.manualFallback {
            line += reason == .timeout ? " — manual capture offered (no auto capture in time)"
                : " — manual capture offered (no face for a while)"
        }
        return line
    }

    // MARK: Formatting helpers

    static func string(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }

    static func object(_ fields: [(String, String)]) -> String {
        "{" + fields.map { "\(string($0.0)): \($0.1)" }.joined(separator: ", ") + "}"
    }

    static func array(_ items: [String]) -> String { "[" + items.joined(separator: ", ") + "]" }

    /// A JSON number rounded to `decimals` places; null for nil, NaN or infinity.
    static func number(_ value: Double?, _ decimals: Int) -> String {
        guard let value, value.isFinite else { return "null" }
        return fixed(value, decimals)
    }

    /// Fixed-point text without Foundation: "-0.125", "3", "12.5".
    static func fixed(_ value: Double, _ decimals: Int) -> String {
        var scale = 1.0
        for _ in 0..<decimals { scale *= 10 }
        let scaled = (value * scale).rounded()
        guard scaled.magnitude < 9e15 else { return String(value) }
        let units = Int(scaled)
        let sign = units < 0 ? "-" : ""
        let whole = abs(units) / Int(scale), fraction = abs(units) % Int(scale)
        guard decimals > 0 else { return sign + String(whole) }
        var digits = String(fraction)
        digits = String(repeating: "0", count: decimals - digits.count) + digits
        while digits.hasSuffix("0") { digits.removeLast() }
        return sign + String(whole) + (digits.isEmpty ? "" : "." + digits)
    }

    static func signed(_ value: Double, _ decimals: Int) -> String {
        let text = fixed(value, decimals)
        return text.hasPrefix("-") || text == "0" ? text : "+" + text
    }

    static func percent(_ fraction: Double) -> String { fixed(fraction * 100, 0) + " %" }
}
