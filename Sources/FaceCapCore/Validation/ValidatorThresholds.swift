/// The built-in validator's numbers: what a kept photo must meet, each with the reason for its value.
///
/// Stricter than `AnalyzerThresholds` (live guidance): guidance only has to get the person roughly
/// right, the photo is the thing that is kept or sent on. The values were checked on the fixture photos
/// and the analyzer's calibration frames (docs/calibration.md, "The built-in validator"). The photo is
/// measured exactly as the analyzer measures a frame (`FaceMeasures`), so measuring parameters such as
/// `pitchOffset` or `darkPixelLuma` stay in `AnalyzerThresholds`.
///
/// Any field can be overridden from a flat JSON object (`ValidatorThresholds(json:)`), e.g.
/// `{"maxYaw": 12, "minInterEyeDistance": 80}`; `ValidatorThresholds.fields` lists the names.
public struct ValidatorThresholds: Sendable, Equatable {
    // MARK: Faces
    /// A face counts with a detector score at least this (the analyzer's cut, MediaPipe's own).
    public var minFaceScore = 0.5
    /// Any second face with this score… (the analyzer waits for 0.6: a photo must show one person only).
    public var secondFaceMinScore = 0.5
    /// …and at least this fraction of the main face's width → `multipleFaces` (analyzer: 0.4; a quarter
    /// is a person a step or two behind, who would be recognisable in the photo).
    public var secondFaceMinRelativeWidth = 0.25
    /// The face box and key landmarks must stay this far inside every edge, as a fraction of the photo
    /// width (x) or height (y) → else `faceNotVisible` (analyzer: 0, touching the edge; a chin or
    /// forehead at the very edge is often cut by the landmark model's own error of a few pixels).
    public var minEdgeMargin = 0.02
    /// The eye centres (from the landmarks) must be at least this many photo pixels apart → else
    /// `moveCloser`. 60 px is the ICAO/ISO 19794-5 minimum for a usable face image; the analyzer's
    /// smallest face (0.28 of a 640-pixel frame) gives about 75.
    public var minInterEyeDistance = 60.0

    // MARK: Pose
    /// |yaw| above this many degrees → `lookStraight` (analyzer 15°; the frontal fixtures read ≤ 1.5°,
    /// turned calibration photos 10.5–13°, which a selfie for an ID check should not be).
    public var maxYaw = 10.0
    /// |pitch| above this many degrees → `lookStraight` (analyzer 15°; frontal photos read −3…+7° after
    /// the analyzer's `pitchOffset`).
    public var maxPitch = 10.0
    /// |roll| above this many degrees → `keepHeadLevel` (analyzer 12°; ISO 19794-5 allows ±8°).
    public var maxRoll = 8.0

    // MARK: Light
    /// Mean face luma below this → `tooDark` (analyzer 60; well-lit calibration frames read 98–170).
    public var minFaceLuma = 75.0
    /// Mean face luma above this → `tooBright` (analyzer 205).
    public var maxFaceLuma = 195.0
    /// More than this fraction of under-exposed face pixels → `tooDark` (analyzer 0.40; good frames
    /// ≤ 0.034, the Grace Hopper portrait's dark uniform collar 0.02).
    public var maxDarkFraction = 0.25
    /// More than this fraction of over-exposed face pixels → `tooBright` (analyzer 0.05; good frames
    /// ≤ 0.001).
    public var maxBrightFraction = 0.03
    /// Darker/brighter face-half ratio below this → `unevenLight` (analyzer 0.55; good frames 0.84–0.98,
    /// one half at 60 % light 0.61–0.74).
    public var minLightBalance = 0.7

    // MARK: Eyes and sharpness
    /// Eye aspect ratio below this on either eye → `eyesClosed`. The same cut as the analyzer's, applied
    /// to both eyes instead of the more open one: this landmark model's EAR barely follows closing lids
    /// on still photos (painted-over eyes moved it by 0.00–0.02), so a higher cut would only refuse open
    /// eyes (lowest measured 0.179) without catching closed ones; the check fires only when the model
    /// itself puts the lids together (docs/calibration.md, "Eyes").
    public var minEyeAspectRatio = 0.15
    /// Eyelid opening (iris model) below this on either eye → `eyesClosed` (analyzer: both eyes below its
    /// `minEyeOpening`). Used instead of the eye aspect ratio whenever the iris model ran.
    /// Open eyes read ≥ 0.166 per eye, constructed closed eyes ≤ 0.099 (docs/calibration.md).
    public var minEyeOpening = 0.13
    /// Pose-corrected gaze beyond this many eye widths → `lookStraight` (the analyzer's values: eyes on the
    /// camera read ≤ 0.030 across, averted ones ≥ 0.084; vertically −0.029…+0.027, eyes turned 30° down or
    /// up by construction ≥ +0.040 and ≤ −0.041 — a still photo is read no better than a live frame, so the
    /// same cut).
    public var maxGazeX = 0.06
    public var maxGazeY = 0.04
    /// Exposure-normalised face sharpness below this → `blurry` (analyzer 150; no calibration frame
    /// with optical blur σ ≤ 1 px read below 226, the fixtures read 533 and 2372).
    public var minSharpness = 200.0

    public init() {}
}

extension ValidatorThresholds {
    /// One tunable of the validator (see `ThresholdField`).
    public typealias Field = ThresholdField<ValidatorThresholds>

    /// Every tunable, in the order of the struct.
    public static let fields: [Field] = [
        Field(name: "minFaceScore", keyPath: \.minFaceScore, range: 0...1),
        Field(name: "secondFaceMinScore", keyPath: \.secondFaceMinScore, range: 0...1),
        Field(name: "secondFaceMinRelativeWidth", keyPath: \.secondFaceMinRelativeWidth, range: 0...1),
        Field(name: "minEdgeMargin", keyPath: \.minEdgeMargin, range: -0.5...0.5),
        Field(name: "minInterEyeDistance", keyPath: \.minInterEyeDistance, range: 0...10_000),
        Field(name: "maxYaw", keyPath: \.maxYaw, range: 0...90),
        Field(name: "maxPitch", keyPath: \.maxPitch, range: 0...90),
        Field(name: "maxRoll", keyPath: \.maxRoll, range: 0...90),
        Field(name: "minFaceLuma", keyPath: \.minFaceLuma, range: 0...255),
        Field(name: "maxFaceLuma", keyPath: \.maxFaceLuma, range: 0...255),
        Field(name: "maxDarkFraction", keyPath: \.maxDarkFraction, range: 0...1),
        Field(name: "maxBrightFraction", keyPath: \.maxBrightFraction, range: 0...1),
        Field(name: "minLightBalance", keyPath: \.minLightBalance, range: 0...1),
        Field(name: "minEyeAspectRatio", keyPath: \.minEyeAspectRatio, range: 0...1),
        Field(name: "minEyeOpening", keyPath: \.minEyeOpening, range: 0...1),
        Field(name: "maxGazeX", keyPath: \.maxGazeX, range: 0...1),
        Field(name: "maxGazeY", keyPath: \.maxGazeY, range: 0...1),
        Field(name: "minSharpness", keyPath: \.minSharpness, range: 0...100_000),
    ]

    /// The defaults with the numbers of a flat JSON object laid over them; unknown names, non-numbers
    /// and out-of-range values are refused with one line that names the field.
    public init(json text: String) throws(ThresholdsError) {
        self.init()
        try ThresholdField.overlay(json: text, on: &self, fields: Self.fields, kind: "validator threshold")
    }
}
