/// How often the live wizard reads the hand model on a tracked face (`FaceTracker.handCadence`), from what the last
/// frame's analysis said. A hand over the mouth matters twice: to the capture gate, which takes a photo only after
/// `AnalyzerThresholds.stabilityWindow` of `ready`, and to the guidance, where `faceCovered` outranks every
/// framing, motion and eye code. So the model reads every `FaceTracker.handInterval` frames while the face is
/// ready (the whole stability window: a hand coming in there stops the capture as before) or already covered (so
/// the message clears as soon as the hand goes), and between those turns on the frame a crop's look changed
/// (`FaceTracker.cropsChangedNow`: a hand that comes is read on the frame it came); every
/// `FaceTracker.handFixingInterval` frames while something else is asked (moved, turned, too far: the hand is
/// still said, a little later, and the analyzer's `handMemory` holds each reading to the next), and so too while
/// the face is too dark or too bright: a hand the model reads over the face is said before the light
/// (`GuidanceRules`: a pale hand reads as light). The tracker's counter runs on while a run is skipped, so the
/// first frame of a ready run that is not an eye frame reads the hand at once. A face the landmark model did not
/// confirm (hidden by a hand, `FaceTracker.hiddenByHandIfDue`) is read every `handFixingInterval` frames whatever
/// the cadence (its CPU, docs/performance.md), every frame for `.capture`, never while `.unlit`. The intervals are
/// in frames analysed; the live wizard sets them from `AnalysisCadence` to the same seconds at the rate it analyses.
/// The iris model has a cadence of the same kind (`FaceTracker.eyeCadence`, `init(eyesAfter:)`): every
/// `FaceTracker.eyeInterval` frames while `.ready`, every `FaceTracker.eyeFixingInterval` frames otherwise (unlit
/// included: it still reads, at that slower pace).
public enum HandCadence: Sendable, Equatable {
    /// Ready, covered, or nothing analysed yet: every `FaceTracker.handInterval` frames, and on a look's change.
    case ready
    /// Another code is asked for (a face that is lit): every `FaceTracker.handFixingInterval` frames.
    case fixing
    /// Too dark or too bright: only the hand model's own reading of the cover is judged, read as while `.fixing` (a
    /// hidden face's not at all).
    case unlit
    /// The analyzer keeps a photo and waits for a hand reading taken at or after it (`AnalyzerOutput.awaitsHand`):
    /// every crop on the next frame, eye frame or not.
    case capture

    /// The cadence for the frame after the one `output` analysed (nil: none analysed yet, or the last frame
    /// only shown: today's cadence, the safe side).
    public init(after output: AnalyzerOutput?) {
        guard let output else {
            self = .ready
            return
        }
        let active = output.active
        if output.awaitsHand {
            self = .capture
        } else if active.contains(.tooDark) || active.contains(.tooBright) {
            self = .unlit
        } else if active == [.ready] || active.contains(.faceCovered) {
            self = .ready
        } else {
            self = .fixing
        }
    }

    /// The iris model's cadence for the frame after the one `output` analysed: `.ready` where the hand's is, and
    /// also while the only codes asked for are the eyes' own (`lookStraight`, `eyesClosed`), so that eyes turned
    /// back or opened are read as soon as on a ready face; `.unlit` too dark or too bright, `.fixing` otherwise.
    public init(eyesAfter output: AnalyzerOutput?) {
        let cadence = HandCadence(after: output)
        if cadence == .capture {
            self = .ready
            return
        }
        let eyeCodes: Set<GuidanceCode> = [.lookStraight, .eyesClosed, .ready]
        if cadence == .fixing, let active = output?.active, !active.isEmpty, Set(active).isSubset(of: eyeCodes) {
            self = .ready
        } else {
            self = cadence
        }
    }
}
