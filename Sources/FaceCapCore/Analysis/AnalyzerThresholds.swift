/// Every number the analyzer and the built-in validator decide with, in one place, each with the reason
/// for its value: the one capture gate (SPEC §4 "One gate"). Live guidance and `LocalValidator` read the
/// same limits through the same rules (`GuidanceRules.activeCodes`), so a frame the guidance calls `ready`
/// is one the validator accepts on every measure both check; the validator's only limit of its own is
/// `minInterEyeDistance`, which live guidance checks too.
///
/// The limits on light, pose and sharpness are SPEC §4's (the validator's stricter ones refused 13 of 20 real
/// uncovered faces of the real-photo set, docs/calibration.md "One gate"), the balance is lowered to 0.5 on
/// that set, and second faces, the frame edge and the eye distance take the validator's; the `far…` limits
/// beyond them only choose the plainer words. The ones the spec leaves to calibration (eye aspect ratio,
/// eyelid opening, gaze, sharpness, pose offsets, hysteresis margins) were measured on real photos with
/// `tools/calibrate.py` — docs/calibration.md records the photos and the numbers. Fractions of the frame are
/// of its width for x and sizes, of its height for y. Luma is on the full 0...255 scale.
///
/// Any field can be overridden from a flat JSON object (`AnalyzerThresholds(json:)`), e.g.
/// `{"minFaceWidth": 0.25, "stabilityWindow": 1.5}`; `AnalyzerThresholds.fields` lists the names.
public struct AnalyzerThresholds: Sendable, Equatable {
    // MARK: Faces
    /// A face counts only with a detector score at least this (SPEC `noFace`; MediaPipe's own cut).
    public var minFaceScore = 0.5
    /// With no face and a whole-frame mean luma below this, say `tooDark` instead of `noFace`.
    public var darkFrameLuma = 50.0
    /// A second face counts with this score (the detector's own cut: a photo must show one person only;
    /// SPEC §4's table said 0.6)…
    public var secondFaceMinScore = 0.5
    /// …and a width at least this fraction of the largest face's (a quarter is a person a step or two
    /// behind, who would be recognisable in the photo; SPEC §4's table said 0.4). Only faces the landmark
    /// model confirmed count (`Face.isRejected`).
    public var secondFaceMinRelativeWidth = 0.25

    // MARK: Geometry
    /// Oval target centre as a fraction of the frame (the front end draws the oval here).
    public var ovalCentreX = 0.5
    public var ovalCentreY = 0.5
    /// Face box width below this fraction of the frame width → `moveCloser` (SPEC).
    public var minFaceWidth = 0.28
    /// Face box width above this fraction → `moveBack` (SPEC).
    public var maxFaceWidth = 0.52
    /// Face centre further than this from the oval centre, in frame widths → `moveLeft`/`moveRight`.
    public var maxCentreOffsetX = 0.10
    /// Face centre further than this from the oval centre, in frame heights → `moveUp`/`moveDown`.
    public var maxCentreOffsetY = 0.10
    /// The face box and key landmarks must stay this far inside every edge, as a fraction of the frame width
    /// (x) or height (y) → else `faceNotVisible` (a chin or forehead at the very edge is often cut by the
    /// landmark model's own error of a few pixels; was 0, touching the edge, for live guidance alone).
    public var minEdgeMargin = 0.02
    /// The eye centres (from the landmarks) must be at least this many pixels apart → else `moveCloser`.
    /// 60 px is the ICAO/ISO 19794-5 minimum for a usable face image; the smallest face `minFaceWidth`
    /// allows on a 640-pixel frame gives about 75, so this matters only for small camera modes.
    public var minInterEyeDistance = 60.0

    // MARK: Light
    /// Mean face luma below this → `tooDark` (SPEC; well-lit calibration frames read 98–170, the real-photo
    /// set's uncovered faces at 60 % light 67–74, which the validator's old 75 refused).
    public var minFaceLuma = 60.0
    /// Face pixels at or below this luma are under-exposed (ISO/IEC 29794-5 / OFIQ uses 0...25).
    public var darkPixelLuma = 25.0
    /// More than this fraction of under-exposed face pixels → `tooDark` (SPEC; good frames ≤ 0.034).
    public var maxDarkFraction = 0.40
    /// Mean face luma above this → `tooBright` (SPEC).
    public var maxFaceLuma = 205.0
    /// Face pixels at or above this luma are over-exposed (SPEC).
    public var brightPixelLuma = 250.0
    /// More than this fraction of over-exposed face pixels → `tooBright` (SPEC; good frames ≤ 0.001).
    public var maxBrightFraction = 0.05
    /// Darker/brighter face-half mean luma ratio below this → `unevenLight`. Calibration frames read 0.84–0.98,
    /// one half at 45 % light 0.47–0.58, at 30 % 0.31–0.44; real uncovered faces in window light (the
    /// real-photo set) read down to 0.52, which SPEC's 0.55 and the validator's 0.7 refused.
    public var minLightBalance = 0.5

    // MARK: Pose and eyes
    /// |yaw| above this many degrees → `lookStraight` (SPEC; the real-photo set's uncovered faces read up to
    /// 10.2°, which the validator's old 10° refused).
    public var maxYaw = 15.0
    /// |pitch| above this many degrees → `lookStraight` (SPEC; real faces looking into the camera from a little
    /// above or below read −13.4…+11.1°, which the validator's old 10° refused).
    public var maxPitch = 15.0
    /// |roll| above this many degrees → `keepHeadLevel` (SPEC; real uncovered faces read up to 9.7°, which the
    /// validator's old 8°, ISO 19794-5's, refused).
    public var maxRoll = 12.0
    /// Added to the fitted pitch so that people looking straight into the camera read 0°: fitted to
    /// the canonical face model, frontal portraits read −8…+2° (median −5.0°, docs/calibration.md).
    public var pitchOffset = 5.0
    /// Eye aspect ratio below this on both eyes → `eyesClosed`. Open eyes measured 0.18–0.28 on the
    /// calibration photos (lowest: a smile looking down); 0.15 stays clear of every open eye.
    public var minEyeAspectRatio = 0.15
    /// Eyelid opening (iris model, `EyeMetrics`) below this on either eye → `eyesClosed` (held
    /// `minEyesClosedTime`), and no auto capture; replaces the eye aspect ratio whenever the iris model ran.
    /// Calibrated in docs/calibration.md ("Eyes: the iris model"): the least open real eye read 0.146 (photos
    /// and their 640×480 frames), eyes closed by construction (and read as closed by LiteRT's run of the same
    /// model) 0.040–0.099 on the photos — the more open eye of a pair ≤ 0.099.
    public var minEyeOpening = 0.13
    /// An eye whose iris disc shows no pupil — its darkest fifth at or above this fraction of the cheek's luma
    /// (`EyeMetrics.rightPupilShade`) — is judged `noPupilOpeningPenalty` less open than its lids read, so an
    /// eye under 0.17 without a pupil reads closed. Eyes squeezed shut, whose lids the iris model places on the
    /// creases at 0.13–0.16 (the real-photo set's ft3_19, ft3_06), read 0.41–0.84; every open real eye under
    /// 0.2 read ≤ 0.35 (docs/calibration.md, "Eyes squeezed shut"). Set on the real-photo set's failure.
    public var maxPupilShade = 0.40
    public var noPupilOpeningPenalty = 0.04
    /// Margin on the eyelid opening: clears at 0.14, below the least open real eye (0.146), so a narrow open
    /// eye that blinked is not held on `eyesClosed`.
    public var eyeOpeningHysteresis = 0.01
    /// Both eyes must read closed this long before `eyesClosed` is active, so a blink (100–300 ms) neither
    /// nags nor breaks the stability window; a frame with closed eyes is still never captured.
    public var minEyesClosedTime = 0.3
    /// Pose-corrected gaze (`EyeMetrics.cameraGazeX`/`Y`, eye widths) beyond this → `lookStraight`.
    /// Eyes on the camera read |x| ≤ 0.030 on the calibration photos, frontal or turned 10–13°; irises moved
    /// by construction 0.084–0.124, the real photo looking past the camera (obama2.jpg) 0.13. Vertically, eyes
    /// on the camera read −0.029…+0.027 (six photos and their 640×480 frames); both eyes turned 30° down or up
    /// by construction, the lids following as real lids do, +0.040…+0.082 and −0.090…−0.041 (the model's
    /// corners move with the lids, so it reads ~0.06 of the ~0.2 eye widths the iris travels). 0.04 stays
    /// 0.011 clear of every open eye and catches every 30° turn, with no margin on that side (grace_hopper's
    /// photo turned down reads +0.040, just over); a face is caught from 15°–30° down depending on the person,
    /// and a smaller turn is inside the spread between people (docs/calibration.md, "Eyes: the iris model").
    /// Only read when both eyes are open: a closed or covered eye's iris is the model's guess.
    public var maxGazeX = 0.06
    public var maxGazeY = 0.04
    /// A downward gaze (`cameraGazeY` past `maxGazeY`) counts only when the iris also sits within this of the
    /// lower lid (`EyeMetrics.irisToLowerLid` above it). Wide-open eyes looking into the camera (the real-photo
    /// set's surprised faces, ft3_02/11/23) read `cameraGazeY` +0.050…+0.065 — the raised upper lid pulls the
    /// model's corners up — but their iris stays −0.131…−0.148 above the lower lid, like every face looking
    /// into the camera (−0.132…−0.185); both constructed 30° downward turns read −0.101 and −0.098
    /// (docs/calibration.md, "Wide-open eyes").
    public var maxIrisToLowerLidDown = -0.12
    /// Margin on the gaze, in eye widths.
    public var gazeHysteresis = 0.01
    /// The gaze must read off the camera this long before `lookStraight` is active (a glance is not a
    /// reason to restart the countdown; the glancing frames are still never captured).
    public var minGazeOffTime = 0.3
    /// Iris offset per unit of sin(yaw) of a head turned while the eyes stay on the camera, and per unit of
    /// sin(pitch); and the vertical offset of eyes on the camera with the head straight (the iris centre sits
    /// a little off the corner line). Fitted on the calibration photos (docs/calibration.md).
    /// Two real photos of turned heads looking into the camera (biden.jpg 12.9°, obama3.jpg 10.5°) read
    /// −0.012 and −0.010: the least-squares factor is 0.05. Pitch showed no effect (obama3 at +20° reads
    /// inside the frontal spread), so its factor is 0. The iris centre of eyes on the camera sits 0.08 eye
    /// widths above the corner line (frontal photos −0.060…−0.100).
    public var gazeYawFactor = 0.05
    public var gazePitchFactor = 0.0
    public var gazeNeutralY = -0.08
    /// An eye reading stays valid this long on the frames between iris-model runs.
    public var eyeMemory = 0.5

    // MARK: Covered face (CoverMetrics; docs/calibration.md, "Covered faces")
    /// The lower face (chin, beside the mouth) further than this from the skin's colour (Cb/Cr distance on
    /// 0…255, unclipped samples) → `faceCovered` (a mask). Uncovered faces read ≤ 7.0 on the 71 calibration
    /// photos and 288 webcam-like frames (docs/calibration.md), drawn masks ≥ 15.7 unless over-exposed…
    public var maxLowerFaceChroma = 12.0
    /// …as long as the mouth shows little (`CoverMetrics.mouthContrast` below this)…
    /// Of the frames another colour than the skin and with the mouth in the lower face's colour (below), masks
    /// read ≤ 0.284 and facial hair ≥ 0.41 on 522 constructed frames: 0.35 sits 0.066 and 0.06 from them.
    public var minColouredMouthContrast = 0.35
    /// …and has the lower face's own colour (`CoverMetrics.mouthChroma` below this, Cb/Cr on 0…255): one cloth
    /// over both. Masks read ≤ 2.2; the beards that also show little mouth (a light beard over thin lips)
    /// 7.4–12.6. A beard is another colour than the skin too (constructed beards read up to 42): these two
    /// conditions are what tell it from a mask, each with a margin where the other overlaps.
    public var maxMaskMouthChroma = 4.5
    /// The mouth shows nothing (`mouthContrast` below this) → covered, whatever colour covers it (a hand in the
    /// skin's own colour). Uncovered faces read ≥ 0.383, beards and moustaches ≥ 0.258 (a heavy moustache
    /// over the whole upper lip 0.269), masks 0.08–0.34, constructed hands 0.07–0.84: it catches a hand whose
    /// fingers leave no structure over the mouth (a quarter of them), and misses the rest.
    public var minMouthContrast = 0.22
    /// An eye whose brightest tenth is below this fraction of the skin's luma is behind a dark lens
    /// (uncovered eyes ≥ 0.61, sunglasses ≤ 0.22)…
    public var minEyeBrightness = 0.45
    /// …and an eye region whose darkest tenth is above this fraction of the skin's luma has no eye, lashes or
    /// brow showing: covered by a hand (uncovered ≤ 0.72 — a closed eye in an over-exposed frame; open eyes
    /// ≤ 0.62 — a hand 0.67–1.00, so a hand on a small face can be missed).
    public var maxEyeDarkness = 0.75
    /// …or whose median is below this fraction (a lens with a reflection: the reflection is its brightest
    /// tenth; uncovered eyes with dark irises read from 0.18, so the next two limits must hold too)…
    public var maxLensEyeMedian = 0.45
    /// …is behind a lens only where the dark is a lens's: the band below the eye below this fraction of the
    /// cheek beside the nose (lenses 0.15–0.43; the brow's shadow ≥ 0.60, uncovered eyes ≥ 0.64)…
    public var maxLensBelowEye = 0.5
    /// …or the opening flat, its contrast below this (dark lenses 0–0.28; shadowed and uncovered eyes ≥ 0.46).
    public var maxLensEyeContrast = 0.3
    /// …or the eye darker than this (brightest tenth against the skin): no shadow makes an eye that dark, so
    /// it needs neither sign above. A see-through tint darkens the eye's every pixel alike and keeps its
    /// contrast, and a lens that stops above the band below the eye leaves that band lit: grey and brown lenses
    /// passing 12 % of the light read 0.06–0.18 and 9 of 40 frames were `ready`; eyes in the brow's shadow
    /// (light at 35 %) read ≥ 0.31, at 45 % ≥ 0.36, uncovered real eyes ≥ 0.62 (constructed lenses and
    /// shadows; docs/calibration.md, "Dark glasses of every tint").
    public var maxTintedLensEyeBrightness = 0.22
    /// Both eyes behind tinted lenses when the cheek below each steps up by this factor or more at the lens's
    /// lower edge, against the lens-sized span above it (`CoverMetrics.rightLensEdge`; the lower of the two
    /// eyes): constructed lenses passing 40 % of the light read ≥ 2.31, brown ones passing 55 % ≥ 2.10, grey
    /// ones passing 55 % 1.70–2.41; real eyes not covered (squeezed shut, shadowed, turned) ≤ 1.40 and
    /// constructed shadows ≤ 1.41, so the hysteresis's floor (1.62) is 0.21 above them; clear glasses in a dark
    /// frame ≤ 1.18 (docs/calibration.md, "The lens's edge").
    public var minLensEdge = 1.8
    /// Both eyes behind mirror lenses when each eye's fine texture against its own luma is below this
    /// (`CoverMetrics.rightEyeTexture`)…
    public var maxLensTexture = 0.055
    /// …and the opening's darkest tenth lies less than this below its median (`CoverMetrics.rightEyeDip`):
    /// constructed mirrors read texture ≤ 0.049 and dip ≤ 0.171 (the higher of the two eyes); of 672 real
    /// frames not covered, those under the texture limit's hysteresis (0.0605: low-resolution, turned, closed
    /// eyes) dip ≥ 0.263 and none dips under the dip limit's (0.198) (docs/calibration.md, "A mirror's flat
    /// face").
    public var maxLensDip = 0.18
    /// …and each lens's colour is at least this far from the skin's (`CoverMetrics.rightEyeChroma`, Cb/Cr): an
    /// eye squeezed shut and blurred (σ 1.5–2 px, sharpness 155–256) is as flat as a mirror but has the skin's own
    /// colour (0.8–0.9); constructed mirrors read ≥ 11.4 on the lower of the two eyes, a hand flat over an eye
    /// ≤ 3.2 (docs/calibration.md, "A medium blur").
    public var minLensChroma = 7.0
    /// The dark-lens rule (`minEyeBrightness`) is read only on an eye at least this wide against the other
    /// (`CoverMetrics.rightEyeWidthRatio`): real near-profiles' far eyes read 0.41–0.65 and the darker for it
    /// (one, turned 35°, a brightness of 0.41–0.47), frontal faces ≥ 0.85; the near eye still shows a lens.
    public var minLensEyeWidthRatio = 0.7
    /// The lower face's hue further than this from any skin or hair colour (`CoverMetrics.lowerFaceHue`, Cb/Cr
    /// on 0…255) → a mask (green, blue, printed), whatever the mouth measures say (docs/calibration.md).
    public var maxLowerFaceHue = 9.0
    /// A dark mask of no colour (`CoverMetrics.neutralDark`): the lower face's saturation below this (black and
    /// charcoal masks, drawn and photographed, 0.02–0.05; uncovered faces, beards, moustaches, stubble ≥ 0.09)…
    public var maxNeutralLowerFaceSaturation = 0.07
    /// …where the upper face, between the brows, has at least this saturation (a colour to tell it by: a
    /// greyscale picture has none)…
    public var minUpperFaceSaturation = 0.04
    /// …and the lower face's luma below this fraction of the upper face's (black masks 0.14–0.54; a grey or
    /// white beard is not dark).
    public var maxNeutralLowerFaceLuma = 0.6
    /// The hand-landmark model's hand flag on the mouth (`CoverMetrics.handOverMouth`) at or above this → a hand
    /// over the mouth (MediaPipe's own cut for the flag). Constructed hands across the mouth read up to 0.99,
    /// uncovered, bearded and masked faces ≤ 0.26 (docs/calibration.md, "A hand over the mouth").
    public var minHandOverMouth = 0.5
    /// A hand-flag reading stays valid this long on the frames between hand-model runs.
    public var handMemory = 0.5
    /// The hand model's flag over the nose, an eye or a cheek (`CoverMetrics.handOverFace`) at or above this → a
    /// hand on the face (issue 32). Above MediaPipe's 0.5: a squashed, soft real video frame of a bare face read
    /// 0.54 on a cheek crop; real hands laid over an eye or a cheek mostly read 0.8–1.0 (docs/calibration.md, "A
    /// hand anywhere on the face").
    public var minHandOverFace = 0.6
    /// …and on a head turned past `maxYaw`, a hand over the eye seen nearly full width at or above this
    /// (`GuidanceRules.handOverAnEye`): real bare faces turned 16–36° read a hand over the near eye up to 0.853
    /// (t1_monica, dim), the real hand over an eye on a turned head 0.992–0.993 (ft3_03) and the constructed hands
    /// over an eye on turned heads ≥ 0.967 (docs/calibration.md, "A hand over an eye on a turned head").
    public var minTurnedHandOverEye = 0.9
    /// A covered face stays covered until each measure clears its limit by this fraction.
    public var coverHysteresis = 0.1

    // MARK: Sharpness and motion
    /// Exposure-normalised variance of the Laplacian of the 64×64 face crop below this → `blurry`.
    /// On 540 webcam-like frames no face with optical blur σ ≤ 1 px read below 226; 86 % of them at
    /// σ = 3 px and all at σ = 4 px did (docs/calibration.md). A soft real photo (the real-photo set's
    /// fer justin.jpg) reads 152–220, which the validator's old 200 refused.
    public var minSharpness = 150.0
    /// Face centre moving more than this many frame widths per 100 ms → `holdStill` (SPEC).
    public var maxCentreSpeed = 0.02
    /// Face size changing by more than this fraction per 100 ms → `holdStill` (SPEC).
    public var maxSizeChange = 0.03

    // MARK: Hysteresis (a condition that is on needs to clear its threshold by this much to turn off)
    /// Margin on face width and centre offsets, in frame fractions.
    public var geometryHysteresis = 0.02
    /// Margin on `minInterEyeDistance`, in pixels as that limit is (the eye centres jitter by about a pixel
    /// from frame to frame; `geometryHysteresis`, a frame fraction, gave 1.2 px here).
    public var interEyeHysteresis = 3.0
    /// Margin on the cut-by-the-edge test: the face must come this far inside, in frame widths.
    public var edgeHysteresis = 0.01
    /// Margin on mean luma levels.
    public var lumaHysteresis = 8.0
    /// Margin on the under/over-exposed fractions, relative to their limits (0.2 = 20 %).
    public var fractionHysteresis = 0.2
    /// Margin on the half-to-half light balance ratio.
    public var balanceHysteresis = 0.05
    /// Margin on yaw, pitch and roll, in degrees.
    public var angleHysteresis = 3.0
    /// Margin on the eye aspect ratio (clears at 0.17, below the lowest open eye measured, 0.179).
    public var eyeHysteresis = 0.02
    /// A blurry face must become this many times sharper than `minSharpness` to clear (180: still
    /// below the least sharp σ = 1 px frame, 226, so a sharp-enough face always clears).
    public var sharpnessHysteresis = 1.2
    /// Motion must fall below this fraction of its limits to clear `holdStill`.
    public var motionHysteresis = 0.7
    /// Margin on the second face's relative width and score.
    public var secondFaceHysteresis = 0.05
    /// Margin on `minFaceScore` for a face that was already confident in the previous frame (only
    /// matters when `minFaceScore` is set above the detector's own 0.5 cut).
    public var faceScoreHysteresis = 0.05

    // MARK: Words (which text a code is shown with; the codes themselves do not change)
    /// A `tooDark`, `tooBright`, `unevenLight`, `lookStraight` or `keepHeadLevel` whose measure is past the
    /// limit above but not past these is *slight*: the screen asks gently ("A little more light") rather than
    /// with the plain text (`Messages.slightGuidanceID`). A slight code turns plain past these, and back
    /// only once inside them by the code's own margin. They decide words only, never a capture, and are set
    /// a quarter of the way again past each limit (not calibrated: nothing is measured against them).
    public var farMinFaceLuma = 45.0
    public var farMaxDarkFraction = 0.50
    public var farMaxFaceLuma = 220.0
    public var farMaxBrightFraction = 0.08
    public var farMinLightBalance = 0.40
    public var farMaxYaw = 20.0
    public var farMaxPitch = 20.0
    public var farMaxRoll = 16.0
    /// A face off the oval's centre by less than these (frame widths for x, heights for y) hears the graded
    /// direction ("A little lower") and moves slowly; further off, the plain one ("Move down") and moves at its
    /// own speed. Sized for a person, not calibrated on photos: someone moving at up to 200 px/s on a 640×480
    /// frame who reacts 0.6 s after the word changes goes on at full speed for 120 px, so the plain word must
    /// end far enough out (115 px above or below, 141 px to the side, less the margin) that they are still
    /// inside the opposite limit when they stop. With no band, 10 of 108 simulated people overshot back and
    /// forth; with these, none (GuidanceSimulationTests, README "Guidance over time").
    public var farCentreOffsetX = 0.22
    public var farCentreOffsetY = 0.24

    // MARK: Timing (seconds)
    /// A new primary message must be wanted this long before it is shown (SPEC).
    public var primaryPersistence = 0.5
    /// A shown message stays at least this long (SPEC).
    public var minimumDisplay = 0.8
    /// `ready` must hold this long before the auto capture (SPEC, `--stability`).
    public var stabilityWindow = 1.0
    /// After a refusal that names no measure (`Analyzer.awaitChange`), with no visible change, `ready` must
    /// hold this long (seconds) before the next auto capture, instead of `stabilityWindow`.
    public var unmeasuredRetryHold = 4.0
    /// Offer manual capture when no auto capture happened within this time (SPEC `--manual-after`).
    public var manualAfter = 30.0
    /// Offer manual capture when no confident face was seen for this long (SPEC).
    public var noFaceFallbackAfter = 10.0
    /// Motion is measured over at least this look-back (SPEC's "per 100 ms").
    public var motionLookBack = 0.1
    /// A second face seen this recently still counts. While a face is tracked the detector runs only
    /// every few frames (`FaceTracker.detectionInterval`), so a second person is seen intermittently;
    /// 1 s spans an interval of up to 30 frames at 30 fps.
    public var secondFaceMemory = 1.0

    public init() {}
}

extension AnalyzerThresholds {
    /// One tunable: its name in a config file, where it lives, and the values it accepts.
    public typealias Field = ThresholdField<AnalyzerThresholds>

    /// Every tunable, in the order of the struct, for config files and `--help` style listings.
    public static let fields: [Field] = [
        Field(name: "minFaceScore", keyPath: \.minFaceScore, range: 0...1),
        Field(name: "darkFrameLuma", keyPath: \.darkFrameLuma, range: 0...255),
        Field(name: "secondFaceMinScore", keyPath: \.secondFaceMinScore, range: 0...1),
        Field(name: "secondFaceMinRelativeWidth", keyPath: \.secondFaceMinRelativeWidth, range: 0...1),
        Field(name: "ovalCentreX", keyPath: \.ovalCentreX, range: 0...1),
        Field(name: "ovalCentreY", keyPath: \.ovalCentreY, range: 0...1),
        Field(name: "minFaceWidth", keyPath: \.minFaceWidth, range: 0...1),
        Field(name: "maxFaceWidth", keyPath: \.maxFaceWidth, range: 0...2),
        Field(name: "maxCentreOffsetX", keyPath: \.maxCentreOffsetX, range: 0...1),
        Field(name: "maxCentreOffsetY", keyPath: \.maxCentreOffsetY, range: 0...1),
        Field(name: "minEdgeMargin", keyPath: \.minEdgeMargin, range: -0.5...0.5),
        Field(name: "minInterEyeDistance", keyPath: \.minInterEyeDistance, range: 0...10_000),
        Field(name: "minFaceLuma", keyPath: \.minFaceLuma, range: 0...255),
        Field(name: "darkPixelLuma", keyPath: \.darkPixelLuma, range: 0...255),
        Field(name: "maxDarkFraction", keyPath: \.maxDarkFraction, range: 0...1),
        Field(name: "maxFaceLuma", keyPath: \.maxFaceLuma, range: 0...255),
        Field(name: "brightPixelLuma", keyPath: \.brightPixelLuma, range: 0...255),
        Field(name: "maxBrightFraction", keyPath: \.maxBrightFraction, range: 0...1),
        Field(name: "minLightBalance", keyPath: \.minLightBalance, range: 0...1),
        Field(name: "maxYaw", keyPath: \.maxYaw, range: 0...90),
        Field(name: "maxPitch", keyPath: \.maxPitch, range: 0...90),
        Field(name: "maxRoll", keyPath: \.maxRoll, range: 0...90),
        Field(name: "pitchOffset", keyPath: \.pitchOffset, range: -45...45),
        Field(name: "minEyeAspectRatio", keyPath: \.minEyeAspectRatio, range: 0...1),
        Field(name: "minEyeOpening", keyPath: \.minEyeOpening, range: 0...1),
        Field(name: "eyeOpeningHysteresis", keyPath: \.eyeOpeningHysteresis, range: 0...0.5),
        Field(name: "maxPupilShade", keyPath: \.maxPupilShade, range: 0...10),
        Field(name: "noPupilOpeningPenalty", keyPath: \.noPupilOpeningPenalty, range: 0...1),
        Field(name: "minEyesClosedTime", keyPath: \.minEyesClosedTime, range: 0...10),
        Field(name: "maxGazeX", keyPath: \.maxGazeX, range: 0...1),
        Field(name: "maxGazeY", keyPath: \.maxGazeY, range: 0...1),
        Field(name: "maxIrisToLowerLidDown", keyPath: \.maxIrisToLowerLidDown, range: -1...1),
        Field(name: "gazeHysteresis", keyPath: \.gazeHysteresis, range: 0...0.5),
        Field(name: "minGazeOffTime", keyPath: \.minGazeOffTime, range: 0...10),
        Field(name: "gazeYawFactor", keyPath: \.gazeYawFactor, range: -2...2),
        Field(name: "gazePitchFactor", keyPath: \.gazePitchFactor, range: -2...2),
        Field(name: "gazeNeutralY", keyPath: \.gazeNeutralY, range: -1...1),
        Field(name: "eyeMemory", keyPath: \.eyeMemory, range: 0...10),
        Field(name: "maxLowerFaceChroma", keyPath: \.maxLowerFaceChroma, range: 0...255),
        Field(name: "minColouredMouthContrast", keyPath: \.minColouredMouthContrast, range: 0...10),
        Field(name: "maxMaskMouthChroma", keyPath: \.maxMaskMouthChroma, range: 0...255),
        Field(name: "minMouthContrast", keyPath: \.minMouthContrast, range: 0...10),
        Field(name: "minEyeBrightness", keyPath: \.minEyeBrightness, range: 0...10),
        Field(name: "maxEyeDarkness", keyPath: \.maxEyeDarkness, range: 0...10),
        Field(name: "minLensEyeWidthRatio", keyPath: \.minLensEyeWidthRatio, range: 0...1),
        Field(name: "maxLensEyeMedian", keyPath: \.maxLensEyeMedian, range: 0...10),
        Field(name: "maxLensBelowEye", keyPath: \.maxLensBelowEye, range: 0...10),
        Field(name: "maxLensEyeContrast", keyPath: \.maxLensEyeContrast, range: 0...1),
        Field(name: "maxTintedLensEyeBrightness", keyPath: \.maxTintedLensEyeBrightness, range: 0...10),
        Field(name: "minLensEdge", keyPath: \.minLensEdge, range: 0...100),
        Field(name: "maxLensTexture", keyPath: \.maxLensTexture, range: 0...10),
        Field(name: "maxLensDip", keyPath: \.maxLensDip, range: 0...1),
        Field(name: "minLensChroma", keyPath: \.minLensChroma, range: 0...255),
        Field(name: "maxLowerFaceHue", keyPath: \.maxLowerFaceHue, range: 0...255),
        Field(name: "maxNeutralLowerFaceSaturation", keyPath: \.maxNeutralLowerFaceSaturation, range: 0...10),
        Field(name: "minUpperFaceSaturation", keyPath: \.minUpperFaceSaturation, range: 0...10),
        Field(name: "maxNeutralLowerFaceLuma", keyPath: \.maxNeutralLowerFaceLuma, range: 0...10),
        Field(name: "minHandOverMouth", keyPath: \.minHandOverMouth, range: 0...1),
        Field(name: "handMemory", keyPath: \.handMemory, range: 0...10),
        Field(name: "minHandOverFace", keyPath: \.minHandOverFace, range: 0...1),
        Field(name: "minTurnedHandOverEye", keyPath: \.minTurnedHandOverEye, range: 0...1),
        Field(name: "coverHysteresis", keyPath: \.coverHysteresis, range: 0...0.9),
        Field(name: "minSharpness", keyPath: \.minSharpness, range: 0...100_000),
        Field(name: "maxCentreSpeed", keyPath: \.maxCentreSpeed, range: 0...10),
        Field(name: "maxSizeChange", keyPath: \.maxSizeChange, range: 0...10),
        Field(name: "geometryHysteresis", keyPath: \.geometryHysteresis, range: 0...0.5),
        Field(name: "interEyeHysteresis", keyPath: \.interEyeHysteresis, range: 0...100),
        Field(name: "edgeHysteresis", keyPath: \.edgeHysteresis, range: 0...0.5),
        Field(name: "lumaHysteresis", keyPath: \.lumaHysteresis, range: 0...100),
        Field(name: "fractionHysteresis", keyPath: \.fractionHysteresis, range: 0...0.9),
        Field(name: "balanceHysteresis", keyPath: \.balanceHysteresis, range: 0...0.5),
        Field(name: "angleHysteresis", keyPath: \.angleHysteresis, range: 0...30),
        Field(name: "eyeHysteresis", keyPath: \.eyeHysteresis, range: 0...0.5),
        Field(name: "sharpnessHysteresis", keyPath: \.sharpnessHysteresis, range: 1...10),
        Field(name: "motionHysteresis", keyPath: \.motionHysteresis, range: 0.1...1),
        Field(name: "secondFaceHysteresis", keyPath: \.secondFaceHysteresis, range: 0...0.5),
        Field(name: "faceScoreHysteresis", keyPath: \.faceScoreHysteresis, range: 0...0.5),
        Field(name: "farMinFaceLuma", keyPath: \.farMinFaceLuma, range: 0...255),
        Field(name: "farMaxDarkFraction", keyPath: \.farMaxDarkFraction, range: 0...1),
        Field(name: "farMaxFaceLuma", keyPath: \.farMaxFaceLuma, range: 0...255),
        Field(name: "farMaxBrightFraction", keyPath: \.farMaxBrightFraction, range: 0...1),
        Field(name: "farMinLightBalance", keyPath: \.farMinLightBalance, range: 0...1),
        Field(name: "farMaxYaw", keyPath: \.farMaxYaw, range: 0...90),
        Field(name: "farMaxPitch", keyPath: \.farMaxPitch, range: 0...90),
        Field(name: "farMaxRoll", keyPath: \.farMaxRoll, range: 0...90),
        Field(name: "farCentreOffsetX", keyPath: \.farCentreOffsetX, range: 0...1),
        Field(name: "farCentreOffsetY", keyPath: \.farCentreOffsetY, range: 0...1),
        Field(name: "primaryPersistence", keyPath: \.primaryPersistence, range: 0...10),
        Field(name: "minimumDisplay", keyPath: \.minimumDisplay, range: 0...10),
        Field(name: "stabilityWindow", keyPath: \.stabilityWindow, range: 0...30),
        Field(name: "unmeasuredRetryHold", keyPath: \.unmeasuredRetryHold, range: 0...60),
        Field(name: "manualAfter", keyPath: \.manualAfter, range: 0...3600),
        Field(name: "noFaceFallbackAfter", keyPath: \.noFaceFallbackAfter, range: 0...3600),
        Field(name: "motionLookBack", keyPath: \.motionLookBack, range: 0.02...1),
        Field(name: "secondFaceMemory", keyPath: \.secondFaceMemory, range: 0...10),
    ]

    /// The defaults with the numbers of a flat JSON object laid over them, e.g. the contents of a
    /// config file. Unknown names, non-numbers and out-of-range values are refused with one line that
    /// names the field, so a typo never silently falls back to a default; so is a minimum above its maximum
    /// (no face could ever pass), whether both were given or one meets the other's default.
    public init(json text: String) throws(ThresholdsError) {
        self.init()
        try ThresholdField.overlay(json: text, on: &self, fields: Self.fields, kind: "threshold")
        let given = Set((try? FlatJSONNumbers.parse(text))?.map { $0.0 } ?? [])
        let pairs: [(String, KeyPath<AnalyzerThresholds, Double>, String, KeyPath<AnalyzerThresholds, Double>)] = [
            ("minFaceWidth", \.minFaceWidth, "maxFaceWidth", \.maxFaceWidth),
            ("minFaceLuma", \.minFaceLuma, "maxFaceLuma", \.maxFaceLuma),
        ]
        for (minName, minimum, maxName, maximum) in pairs where self[keyPath: minimum] > self[keyPath: maximum] {
            func show(_ name: String, _ value: Double) -> String {
                "\(name) \(value == value.rounded() ? String(Int(value)) : String(value))"
                    + (given.contains(name) ? "" : " (the default)")
            }
            throw ThresholdsError(
                "\(show(minName, self[keyPath: minimum])) is above \(show(maxName, self[keyPath: maximum])), "
                    + "so no face could pass")
        }
    }
}

/// A thresholds config that cannot be used; the message names the field or the place in the text.
public struct ThresholdsError: Error, Equatable, UserFacingError {
    public var detail: String
    public init(_ detail: String) { self.detail = detail }
    public var message: String { "thresholds config: \(detail); fix the file or remove the entry to use the default" }
    public var exitCode: ExitCode { .usage }
}
