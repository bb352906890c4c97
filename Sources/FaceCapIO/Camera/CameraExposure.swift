internal import CV4L2
import FaceCapCore

/// Exposure for the face on a live camera: `ExposureSteering`'s decisions applied through the camera's controls.
/// Learns what the camera offers when it first sees it (and again for each camera opened, and after Ctrl-Z gave the
/// controls back), measures the frame rate from the frames' own timestamps, and writes only through
/// `Camera.setControl`, so every change is in the camera's `controlLedger` and is written back when it closes.
public final class CameraExposure {
    private var steering: ExposureSteering
    /// "Too dark"/"Too bright" held back while the steering still has something to turn, for a bounded count of
    /// analysed frames per camera opened.
    private var lightWords: LightWordsHold
    /// The camera the controls below were read from, and its `controlsEpoch` then.
    private weak var camera: Camera?
    private var epoch = 0
    private var knobs: [(id: UInt32, knob: ExposureKnob)] = []
    private var autoPriority: Bool?
    private var hasRegion = false
    /// Timestamps of the newest frames read (all of them, analysed or not), oldest first.
    private var times: [Double] = []
    private let rateWindow = 16

    public init(
        limits: ExposureSteering.Limits = ExposureSteering.Limits(),
        lightWords: LightWordsHold = LightWordsHold()
    ) {
        steering = ExposureSteering(limits: limits)
        self.lightWords = lightWords
    }

    /// The camera has done what it can and the face's light is still out of range.
    public var isExhausted: Bool { steering.exhausted }

    /// Which way the camera is being steered after the last analysed frame.
    public var phase: ExposureSteering.Phase { steering.phase }

    /// Analysed frames a light word was held back on since this camera was opened.
    public var heldLightWordFrames: Int { lightWords.heldFrames }

    /// The guidance of the frame last handed to `analysed`, with "Too dark"/"Too bright" held back while the camera
    /// is still steering toward the face (`LightWordsHold`); `active` are the analyzer's codes of that frame.
    public func guidance(_ guidance: FrameGuidance, active: [GuidanceCode]) -> FrameGuidance {
        lightWords.apply(
            guidance, active: active,
            waiting: LightWordsHold.codes(phase: steering.phase, exhausted: steering.exhausted))
    }

    /// The guidance of a frame of `camera` read while its own auto exposure still settles (`Frame.isWarmUp`, not
    /// handed to the steering): neither light word yet where facecap has controls to steer with.
    public func guidanceWhileSettling(
        _ guidance: FrameGuidance, active: [GuidanceCode],
        camera: Camera
    ) -> FrameGuidance {
        if self.camera !== camera || epoch != camera.controlsEpoch { learn(camera) }
        let steerable = hasRegion || knobs.contains { $0.knob.stepCount >= steering.limits.minimumSteps }
        return lightWords.apply(guidance, active: active, waiting: steerable ? LightWordsHold.settling : [])
    }

    /// Frames per second over the newest frames; nil until there are enough.
    public var measuredFrameRate: Double? {
        guard times.count >= rateWindow, let first = times.first, let last = times.last, last > first else {
            return nil
        }
        return Double(times.count - 1) / (last - first)
    }

    /// A frame arrived at `timestamp` (seconds, the camera's clock).
    public func frameRead(at timestamp: Double) {
        if times.count == rateWindow { times.removeFirst() }
        times.append(timestamp)
    }

    /// One frame of `camera` was analysed: the next step, applied.
    public func analysed(_ metrics: FrameMetrics, camera: Camera) {
        if self.camera !== camera || epoch != camera.controlsEpoch { learn(camera) }
        let input = ExposureSteering.Input(
            faceLuma: metrics.face?.light?.meanLuma, frameLuma: metrics.frameLuma, faceBox: metrics.face?.box,
            frameWidth: metrics.frameWidth, frameHeight: metrics.frameHeight, frameRate: measuredFrameRate,
            autoPriority: autoPriority, hasRegion: hasRegion, knobs: knobs.map(\.knob))
        for action in steering.next(input) { apply(action, camera: camera) }
    }

    private func apply(_ action: ExposureSteering.Action, camera: Camera) {
        switch action {
        case .constantFrameRate:
            if camera.setControl(CV4L2_CID_EXPOSURE_AUTO_PRIORITY, .integer(0)) {
                autoPriority = false
                // The rate measured before the change is no guide to the rate after it.
                times.removeAll()
            }
        case .regionOfInterest(let box):
            let x = max(0, min(Double(metrics: box.x), Double(camera.width - 1)))
            let y = max(0, min(Double(metrics: box.y), Double(camera.height - 1)))
            let width = max(1, min(Double(metrics: box.width), Double(camera.width) - x))
            let height = max(1, min(Double(metrics: box.height), Double(camera.height) - y))
            let rect = CameraControlValue.rect(x: Int32(x), y: Int32(y), width: UInt32(width), height: UInt32(height))
            guard camera.setControl(CV4L2_CID_UVC_ROI_RECT, rect) else {
                hasRegion = false
                return
            }
            let bits = camera.controlValue(CV4L2_CID_UVC_ROI_AUTO) ?? 0
            if bits & CV4L2_UVC_ROI_AUTO_EXPOSURE == 0,
                !camera.setControl(CV4L2_CID_UVC_ROI_AUTO, .integer(bits | CV4L2_UVC_ROI_AUTO_EXPOSURE))
            {
                // Auto exposure does not follow the region: the other controls are turned instead.
                hasRegion = false
            }
        case .set(let kind, let value):
            guard let index = knobs.firstIndex(where: { $0.knob.kind == kind }) else { return }
            let known = CameraControlValue.integer(Int32(clamping: knobs[index].knob.value))
            if camera.setControl(knobs[index].id, .integer(Int32(clamping: value)), expected: known) {
                // The driver may round: the value it kept is where the knob stands.
                knobs[index].knob.value = Int(camera.controlValue(knobs[index].id) ?? Int32(clamping: value))
            } else {
                // Refused, or another program changed it (left alone): not turned again this run.
                knobs.remove(at: index)
            }
        }
    }

    /// Reads what `camera` offers: auto priority, a region of interest, and the controls that brighten.
    private func learn(_ camera: Camera) {
        self.camera = camera
        epoch = camera.controlsEpoch
        steering.reset()
        lightWords.reset()
        times.removeAll()
        knobs = []
        autoPriority = nil
        if let info = camera.controlInfo(CV4L2_CID_EXPOSURE_AUTO_PRIORITY), info.isWritable,
            let value = camera.controlValue(CV4L2_CID_EXPOSURE_AUTO_PRIORITY)
        {
            autoPriority = value != 0
        }
        hasRegion =
            camera.controlInfo(CV4L2_CID_UVC_ROI_RECT)?.isWritable == true
            && camera.controlInfo(CV4L2_CID_UVC_ROI_AUTO)?.isWritable == true
        // The exposure time is turned only where the camera is already in manual exposure (auto exposure would
        // drive it), and never past one frame period at the rate negotiated: a longer exposure would lower it.
        let manualExposure = camera.controlValue(CV4L2_CID_EXPOSURE_AUTO) == Int32(V4L2_EXPOSURE_MANUAL.rawValue)
        let frameCap = Int(10_000 / max(1, camera.frameRate))  // 100 µs units
        let candidates: [(UInt32, ExposureKnob.Kind)] = [
            (CV4L2_CID_AUTO_EXPOSURE_BIAS, .exposureBias), (CV4L2_CID_BACKLIGHT_COMPENSATION, .backlightCompensation),
            (CV4L2_CID_EXPOSURE_ABSOLUTE, .exposureTime), (CV4L2_CID_GAIN, .gain), (CV4L2_CID_BRIGHTNESS, .brightness),
        ]
        for (id, kind) in candidates {
            guard let info = camera.controlInfo(id), info.isWritable, info.maximum > info.minimum,
                let value = camera.controlValue(id)
            else { continue }
            if kind == .exposureTime, !manualExposure { continue }
            let maximum = kind == .exposureTime ? max(Int(value), min(info.maximum, frameCap)) : info.maximum
            knobs.append(
                (
                    id,
                    ExposureKnob(
                        kind: kind, minimum: info.minimum, maximum: maximum, step: info.step,
                        value: Int(value))
                ))
        }
    }
}

extension Double {
    /// A face box coordinate (Float, possibly NaN from a model) as a finite Double.
    fileprivate init(metrics value: Float) { self = value.isFinite ? Double(value) : 0 }
}
