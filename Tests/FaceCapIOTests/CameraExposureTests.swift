import CV4L2
import FaceCapCore
import XCTest

@testable import FaceCapIO

/// Exposure for the face and nothing left changed, against the fake device: a camera whose gain, brightness, auto
/// priority and region of interest act on a real face photo's light as a camera's would. Time is the fake's frame
/// times (frames counted at its frame rate), never the wall clock.
final class CameraExposureTests: XCTestCase {
    let path = "/dev/fake-video0"
    /// The ops table does not retain its fake: the test case keeps each alive until its cameras are gone.
    var fakes: [FakeV4L2Device] = []
    static let defaultGain = 32

    /// A webcam with gain (0...255, 32: auto exposure's choice for the whole frame), brightness, auto priority on,
    /// and, when asked, UVC region-of-interest auto exposure.
    func makeFake(region: Bool = false) -> FakeV4L2Device {
        let rgb = FakeV4L2Device.Format(fourcc: CV4L2_PIX_FMT_RGB24, description: "RGB3", sizes: [(640, 480)])
        let fake = FakeV4L2Device(nodes: [path: FakeV4L2Device.Node(formats: [rgb])])
        fake.controls = [
            CV4L2_CID_GAIN: .init(minimum: 0, maximum: 255, value: Self.defaultGain),
            CV4L2_CID_BRIGHTNESS: .init(minimum: -64, maximum: 64, value: 0),
            CV4L2_CID_EXPOSURE_AUTO_PRIORITY: .init(minimum: 0, maximum: 1, value: 1),
        ]
        if region {
            fake.controls[CV4L2_CID_UVC_ROI_RECT] = .init(
                minimum: 0, maximum: 0, value: 0,
                rect: v4l2_rect(left: 0, top: 0, width: 640, height: 480))
            fake.controls[CV4L2_CID_UVC_ROI_AUTO] = .init(minimum: 0, maximum: 255, value: 0)
        }
        fakes.append(fake)
        return fake
    }

    /// A scene's light before the camera: RGB radiance on the 0...255 scale, and where the face is.
    struct Scene {
        var light: [Float]
        var width = 640, height = 480
    }

    /// sergey.png at 0.8 in the middle of the frame, its light times `face`; the strips either side a window
    /// (`window`, a bright sky) or a wall.
    func scene(face: Float, window: Float) throws -> Scene {
        let photo = try ImageFile.read(path: fixturePath("sergey.png"))
        XCTAssertEqual(photo.format, .rgb24)
        var light = [Float](repeating: window, count: 640 * 480 * 3)
        let scale = 0.8
        for y in 0..<480 {
            for x in 0..<640 {
                let sx = Int((Double(x - 320) / scale + Double(photo.width) / 2).rounded(.down))
                let sy = Int((Double(y - 240) / scale + Double(photo.height) / 2 + 40).rounded(.down))
                guard (0..<photo.width).contains(sx), (0..<photo.height).contains(sy) else { continue }
                for k in 0..<3 {
                    light[(y * 640 + x) * 3 + k] = Float(photo.data[(sy * photo.width + sx) * 3 + k]) * face
                }
            }
        }
        return Scene(light: light)
    }

    /// The camera: picture = light × exposure + brightness, clipped. Exposure is gain / 32 (auto exposure metering
    /// the whole frame left it there), or, with region-of-interest auto exposure on, what brings the region to a
    /// mean of 118. Auto priority on stretches the exposure in this dim room to 12 frames a second; off, 30.
    /// Controls reach the picture `latency` frames after they are written.
    func simulateCamera(_ fake: FakeV4L2Device, _ scene: Scene, latency: Int = 0) {
        var time = 0.0
        fake.controlLatency = latency
        fake.liveFrame = { device in
            let brightness = Float(device.appliedControl(CV4L2_CID_BRIGHTNESS) ?? 0)
            var exposure = Float(device.appliedControl(CV4L2_CID_GAIN) ?? Self.defaultGain) / Float(Self.defaultGain)
            if let bits = device.appliedControl(CV4L2_CID_UVC_ROI_AUTO),
                bits & Int(CV4L2_UVC_ROI_AUTO_EXPOSURE) != 0, let rect = device.appliedRect(CV4L2_CID_UVC_ROI_RECT)
            {
                var sum: Float = 0, count: Float = 0
                for y in Int(rect.top)..<min(scene.height, Int(rect.top) + Int(rect.height)) {
                    for x in Int(rect.left)..<min(scene.width, Int(rect.left) + Int(rect.width)) {
                        let i = (y * scene.width + x) * 3
                        sum += 0.299 * scene.light[i] + 0.587 * scene.light[i + 1] + 0.114 * scene.light[i + 2]
                        count += 1
                    }
                }
                exposure = min(8, 118 / max(1, sum / max(1, count)))
            }
            let bytes = scene.light.map { UInt8(max(0, min(255, $0 * exposure + brightness)).rounded()) }
            time += device.appliedControl(CV4L2_CID_EXPOSURE_AUTO_PRIORITY) == 1 ? 1.0 / 12 : 1.0 / 30
            return FakeV4L2Device.FrameSpec(bytes: bytes, time: time)
        }
    }

    struct Run {
        /// Per frame read: its time, and the face's mean luma where the frame was analysed and a face found.
        var frames: [(time: Double, faceLuma: Double?)] = []
        var frameRate: Double?
    }

    /// Reads `count` frames of `camera`, the models and the analyzer's measures on every other one (as the wizard's
    /// cadence does at 30 fps), each measured frame after the warm-up handed to `exposure`; `each` is called with
    /// each frame's run so far, before it is read (another program acting meanwhile).
    func capture(
        _ camera: Camera, _ exposure: CameraExposure, frames count: Int,
        each: (Run) -> Void = { _ in }
    ) throws -> Run {
        let models = try FaceModelsFixture.models()
        let tracker = try FaceTracker(detector: models.detector, landmarks: models.landmarks)
        let thresholds = AnalyzerThresholds()
        var frame = Frame.empty()
        var run = Run()
        for index in 0..<count {
            each(run)
            XCTAssertEqual(try camera.nextFrame(into: &frame, timeout: 1), .frame)
            exposure.frameRead(at: frame.timestamp)
            var luma: Double?
            if index % 2 == 0 {
                let metrics = FaceMeasures.measure(frame: frame, faces: tracker.process(frame), thresholds: thresholds)
                luma = metrics.face?.light?.meanLuma
                // As the wizard's pipeline: not while the camera's auto exposure settles after the start.
                if !frame.isWarmUp { exposure.analysed(metrics, camera: camera) }
            }
            run.frames.append((frame.timestamp, luma))
        }
        run.frameRate = exposure.measuredFrameRate
        return run
    }

    /// Seconds from the first frame to the first analysed frame whose face luma is in the analyzer's range, from
    /// which on every analysed frame's is.
    func settled(_ run: Run, file: StaticString = #filePath, line: UInt = #line) -> Double? {
        let thresholds = AnalyzerThresholds()
        let range = thresholds.minFaceLuma...thresholds.maxFaceLuma
        let measured = run.frames.filter { $0.faceLuma != nil }
        guard let first = run.frames.first,
            let index = measured.indices.first(where: { start in
                measured[start...].allSatisfy { range.contains($0.faceLuma!) }
            })
        else { return nil }
        return measured[index].time - first.time
    }

    func testABacklitFaceIsExposedWithin2SecondsTheRateKeptAndEveryControlWrittenBack() throws {
        let fake = makeFake()
        simulateCamera(fake, try scene(face: 0.3, window: 250))
        let camera = try Camera(path: path, ops: fake.ops)
        let exposure = CameraExposure()
        let run = try capture(camera, exposure, frames: 90)
        let first = try XCTUnwrap(run.frames.first { $0.faceLuma != nil }?.faceLuma, "the dim face is found")
        XCTAssertLessThan(first, AnalyzerThresholds().minFaceLuma, "the face starts too dark")
        let seconds = try XCTUnwrap(settled(run), "the face's luma never settled in range: \(run.frames)")
        XCTAssertLessThanOrEqual(seconds, 2, "\(run.frames)")
        XCTAssertGreaterThan(fake.control(CV4L2_CID_GAIN)!, Self.defaultGain)
        XCTAssertEqual(fake.control(CV4L2_CID_EXPOSURE_AUTO_PRIORITY), 0, "auto priority dropped the rate to 12")
        XCTAssertGreaterThanOrEqual(try XCTUnwrap(run.frameRate), 15)
        XCTAssertFalse(exposure.isExhausted)
        camera.close()
        XCTAssertEqual(fake.control(CV4L2_CID_GAIN), Self.defaultGain)
        XCTAssertEqual(fake.control(CV4L2_CID_EXPOSURE_AUTO_PRIORITY), 1)
        XCTAssertEqual(fake.control(CV4L2_CID_BRIGHTNESS), 0)
        XCTAssertTrue(camera.controlLedger.changed.isEmpty)
    }

    func testALampInFrontIsTurnedDownAndWrittenBack() throws {
        let fake = makeFake()
        simulateCamera(fake, try scene(face: 2.2, window: 30))
        let camera = try Camera(path: path, ops: fake.ops)
        let run = try capture(camera, CameraExposure(), frames: 90)
        let first = try XCTUnwrap(run.frames.first { $0.faceLuma != nil }?.faceLuma, "the bright face is found")
        XCTAssertGreaterThan(first, AnalyzerThresholds().maxFaceLuma, "the face starts too bright")
        let seconds = try XCTUnwrap(settled(run), "the face's luma never settled in range: \(run.frames)")
        XCTAssertLessThanOrEqual(seconds, 2)
        XCTAssertLessThan(fake.control(CV4L2_CID_GAIN)!, Self.defaultGain)
        camera.close()
        XCTAssertEqual(fake.control(CV4L2_CID_GAIN), Self.defaultGain)
        XCTAssertEqual(fake.control(CV4L2_CID_EXPOSURE_AUTO_PRIORITY), 1)
    }

    func testWithARegionOfInterestAutoExposureIsPointedAtTheFaceNotTheGainAndItIsWrittenBack() throws {
        let fake = makeFake(region: true)
        simulateCamera(fake, try scene(face: 0.3, window: 250))
        let camera = try Camera(path: path, ops: fake.ops)
        let run = try capture(camera, CameraExposure(), frames: 60)
        let seconds = try XCTUnwrap(settled(run), "the face's luma never settled in range: \(run.frames)")
        XCTAssertLessThanOrEqual(seconds, 2)
        XCTAssertEqual(fake.control(CV4L2_CID_GAIN), Self.defaultGain, "the region did it: the gain untouched")
        XCTAssertEqual(fake.control(CV4L2_CID_UVC_ROI_AUTO), Int(CV4L2_UVC_ROI_AUTO_EXPOSURE))
        let rect = try XCTUnwrap(fake.controls[CV4L2_CID_UVC_ROI_RECT]?.rect)
        XCTAssertTrue((100...300).contains(rect.left) && rect.width < 400, "the face's box: \(rect)")
        camera.close()
        XCTAssertEqual(fake.control(CV4L2_CID_UVC_ROI_AUTO), 0)
        let restored = try XCTUnwrap(fake.controls[CV4L2_CID_UVC_ROI_RECT]?.rect)
        XCTAssertEqual([restored.left, restored.top], [0, 0])
        XCTAssertEqual([restored.width, restored.height], [640, 480])
    }

    func testWithoutARegionOfInterestNoRegionIsWritten() throws {
        let fake = makeFake()
        simulateCamera(fake, try scene(face: 0.3, window: 250))
        let camera = try Camera(path: path, ops: fake.ops)
        _ = try capture(camera, CameraExposure(), frames: 30)
        XCTAssertFalse(fake.log.contains { $0.hasPrefix("S_EXT_CTRLS") })
        XCTAssertTrue(fake.controlWrites.contains { $0.id == CV4L2_CID_GAIN })
        camera.close()
    }

    func testAControlAnotherProgramChangedMidRunIsLeftAloneAndTheOthersWrittenBack() throws {
        let fake = makeFake()
        simulateCamera(fake, try scene(face: 0.3, window: 250))
        let camera = try Camera(path: path, ops: fake.ops)
        _ = try capture(camera, CameraExposure(), frames: 60)
        XCTAssertNotEqual(fake.control(CV4L2_CID_GAIN), Self.defaultGain)
        fake.controls[CV4L2_CID_GAIN]?.value = 7  // e.g. someone in qv4l2
        camera.close()
        XCTAssertEqual(fake.control(CV4L2_CID_GAIN), 7, "another program's value stays")
        XCTAssertEqual(fake.control(CV4L2_CID_EXPOSURE_AUTO_PRIORITY), 1, "facecap's own change is written back")
        let outcomes = camera.controlLedger.outcomes.filter { $0.id == CV4L2_CID_GAIN }.map(\.outcome)
        XCTAssertEqual(outcomes, [.leftAlone(.integer(7))])
    }

    func testAControlAnotherProgramChangesWhileTheFaceIsStillDarkIsNeverWrittenAgainNorWrittenBack() throws {
        let fake = makeFake()
        simulateCamera(fake, try scene(face: 0.3, window: 250))
        let camera = try Camera(path: path, ops: fake.ops)
        var writesBefore: Int?
        var lumaThen: Double?
        let run = try capture(camera, CameraExposure(), frames: 90) { run in
            guard writesBefore == nil, fake.controlWrites.contains(where: { $0.id == CV4L2_CID_GAIN }) else { return }
            // Facecap has turned the gain once; someone in qv4l2 sets it now, mid-steering.
            lumaThen = run.frames.last { $0.faceLuma != nil }?.faceLuma
            fake.controls[CV4L2_CID_GAIN]?.value = 7
            writesBefore = fake.controlWrites.count
        }
        let index = try XCTUnwrap(writesBefore, "the gain was turned: \(run.frames)")
        XCTAssertLessThan(try XCTUnwrap(lumaThen), AnalyzerThresholds().minFaceLuma, "changed while still dark")
        let later = fake.controlWrites[index...]
        XCTAssertFalse(later.contains { $0.id == CV4L2_CID_GAIN }, "facecap never writes it again: \(later)")
        XCTAssertTrue(later.contains { $0.id == CV4L2_CID_BRIGHTNESS }, "it steers the next control instead")
        XCTAssertEqual(camera.controlLedger.changed.map(\.id).filter { $0 == CV4L2_CID_GAIN }, [])
        camera.close()
        XCTAssertEqual(fake.control(CV4L2_CID_GAIN), 7, "another program's value stays")
        XCTAssertEqual(fake.control(CV4L2_CID_BRIGHTNESS), 0, "facecap's own change is written back")
        let outcomes = camera.controlLedger.outcomes.filter { $0.id == CV4L2_CID_GAIN }.map(\.outcome)
        XCTAssertEqual(outcomes, [.leftAlone(.integer(7))])
    }

    func testWithControlsActingTwoFramesLateTheFaceSettlesWithoutHunting() throws {
        let fake = makeFake()
        simulateCamera(fake, try scene(face: 0.3, window: 250), latency: 2)
        let camera = try Camera(path: path, ops: fake.ops)
        let exposure = CameraExposure()
        let run = try capture(camera, exposure, frames: 120)
        let seconds = try XCTUnwrap(settled(run), "the face's luma never settled in range: \(run.frames)")
        XCTAssertLessThanOrEqual(seconds, 3, "\(run.frames)")
        let gains = [Self.defaultGain] + fake.controlWrites.filter { $0.id == CV4L2_CID_GAIN }.map(\.value)
        var turns = 0
        for i in 2..<max(2, gains.count) where (gains[i] - gains[i - 1]) * (gains[i - 1] - gains[i - 2]) < 0 {
            turns += 1
        }
        XCTAssertLessThanOrEqual(turns, 1, "the gain does not swing back and forth: \(gains)")
        camera.close()
        XCTAssertEqual(fake.control(CV4L2_CID_GAIN), Self.defaultGain)
    }

    func testARegionWhoseAutoExposureCannotBeTurnedOnIsGivenUpForTheOtherControls() throws {
        let fake = makeFake(region: true)
        simulateCamera(fake, try scene(face: 0.3, window: 250))
        // Auto priority already off: the first integer write is ROI_AUTO's, and it fails.
        fake.controls[CV4L2_CID_EXPOSURE_AUTO_PRIORITY]?.value = 0
        fake.ioctlErrors[CV4L2_VIDIOC_S_CTRL] = [EIO]
        let camera = try Camera(path: path, ops: fake.ops)
        _ = try capture(camera, CameraExposure(), frames: 60)
        XCTAssertEqual(fake.control(CV4L2_CID_UVC_ROI_AUTO), 0)
        XCTAssertEqual(fake.controlWrites.filter { $0.id == CV4L2_CID_UVC_ROI_RECT }.count, 1, "not pointed again")
        XCTAssertNotEqual(fake.control(CV4L2_CID_GAIN), Self.defaultGain, "the gain is turned instead")
        camera.close()
    }

    func testAControlOfAnUnpluggedCameraIsWrittenBackWhenItComesBack() throws {
        let fake = makeFake()
        let ledger = CameraControlLedger()
        let camera = try Camera(path: path, ops: fake.ops, controlLedger: ledger)
        XCTAssertTrue(camera.setControl(CV4L2_CID_GAIN, .integer(90)))
        XCTAssertEqual(fake.control(CV4L2_CID_GAIN), 90)
        fake.script = [.disconnect]
        var frame = Frame.empty()
        XCTAssertThrowsError(try camera.nextFrame(into: &frame, timeout: 1))
        XCTAssertEqual(ledger.changed.map(\.id), [CV4L2_CID_GAIN], "kept for when the camera is back")
        XCTAssertEqual(ledger.outcomes.map(\.outcome), [.pending])
        fake.reconnect()
        let again = try Camera(path: path, ops: fake.ops, controlLedger: ledger)
        XCTAssertEqual(fake.control(CV4L2_CID_GAIN), Self.defaultGain, "written back as the camera opened again")
        XCTAssertTrue(ledger.changed.isEmpty)
        again.close()
    }

    func testPendingControlsAreWrittenBackAtTheEndOfTheRunWhenTheCameraIsThere() throws {
        let fake = makeFake()
        let ledger = CameraControlLedger()
        let camera = try Camera(path: path, ops: fake.ops, controlLedger: ledger)
        XCTAssertTrue(camera.setControl(CV4L2_CID_BRIGHTNESS, .integer(20)))
        XCTAssertTrue(camera.setControl(CV4L2_CID_BRIGHTNESS, .integer(30)))
        fake.script = [.disconnect]
        var frame = Frame.empty()
        XCTAssertThrowsError(try camera.nextFrame(into: &frame, timeout: 1))
        fake.reconnect()
        ledger.restorePending(ops: fake.ops)
        XCTAssertEqual(fake.control(CV4L2_CID_BRIGHTNESS), 0, "the value before the first change, not the second")
        XCTAssertTrue(ledger.changed.isEmpty)
        XCTAssertTrue(fake.openFds.isEmpty, "the device opened for its controls is closed again")
    }

    func testACameraWithoutControlsIsLeftAsItIs() throws {
        let fake = FakeV4L2Device(
            nodes: [path: .webcam],
            script: Array(repeating: .frame(FakeV4L2Device.FrameSpec(fill: 0x20)), count: 4))
        fakes.append(fake)
        let camera = try Camera(path: path, ops: fake.ops)
        let exposure = CameraExposure()
        var frame = Frame.empty()
        for _ in 0..<4 {
            XCTAssertEqual(try camera.nextFrame(into: &frame, timeout: 1), .frame)
            let metrics = FaceMeasures.measure(frame: frame, faces: [], thresholds: AnalyzerThresholds())
            exposure.analysed(metrics, camera: camera)
        }
        XCTAssertTrue(exposure.isExhausted, "a dark frame, nothing to turn: the camera has done what it can")
        XCTAssertFalse(fake.log.contains { $0.hasPrefix("S_CTRL") })
        camera.close()
    }

    // MARK: the exposure time (manual exposure only, capped at one frame)

    static let defaultExposure = 156  // 15.6 ms, in V4L2's 100 µs units

    /// A webcam in manual exposure (`exposure_auto` = `mode`) whose exposure time (3...2047) is the only control that
    /// brightens: picture = light × exposure / 15.6 ms. The frame rate is 30 whatever the exposure: the test checks
    /// facecap keeps it there by never exposing longer than one frame.
    func exposureTimeCamera(mode: Int32, face: Float) throws -> (FakeV4L2Device, Camera) {
        let fake = makeFake()
        fake.controls[CV4L2_CID_GAIN] = nil
        fake.controls[CV4L2_CID_BRIGHTNESS] = nil
        fake.controls[CV4L2_CID_EXPOSURE_AUTO] = .init(minimum: 0, maximum: 3, value: Int(mode))
        fake.controls[CV4L2_CID_EXPOSURE_ABSOLUTE] = .init(minimum: 3, maximum: 2047, value: Self.defaultExposure)
        let light = try scene(face: face, window: 250).light
        var time = 0.0
        fake.liveFrame = { device in
            let exposure =
                Float(device.appliedControl(CV4L2_CID_EXPOSURE_ABSOLUTE) ?? Self.defaultExposure)
                / Float(Self.defaultExposure)
            time += 1.0 / 30
            return FakeV4L2Device.FrameSpec(
                bytes: light.map { UInt8(max(0, min(255, $0 * exposure)).rounded()) },
                time: time)
        }
        return (fake, try Camera(path: path, ops: fake.ops))
    }

    func testInManualExposureTheExposureTimeIsLengthenedNeverPastOneFrameAndWrittenBack() throws {
        let (fake, camera) = try exposureTimeCamera(mode: Int32(V4L2_EXPOSURE_MANUAL.rawValue), face: 0.45)
        XCTAssertEqual(camera.frameRate, 30)
        let exposure = CameraExposure()
        let run = try capture(camera, exposure, frames: 90)
        let first = try XCTUnwrap(run.frames.first { $0.faceLuma != nil }?.faceLuma, "the dim face is found")
        XCTAssertLessThan(first, ExposureSteering.Limits().startBelow, "the face starts dark enough to steer")
        let writes = fake.controlWrites.filter { $0.id == CV4L2_CID_EXPOSURE_ABSOLUTE }.map(\.value)
        XCTAssertFalse(writes.isEmpty, "the exposure time was turned")
        let oneFrame = 10_000 / 30  // 1/30 s in 100 µs units
        XCTAssertTrue(
            writes.allSatisfy { $0 > Self.defaultExposure && $0 <= oneFrame },
            "longer, never past one frame at 30 fps: \(writes)")
        XCTAssertEqual(writes, writes.sorted(), "only lengthened on a face that stays dark: \(writes)")
        XCTAssertNotNil(settled(run), "the face's luma reached the analyzer's range: \(run.frames)")
        XCTAssertGreaterThanOrEqual(try XCTUnwrap(run.frameRate), 29.9)
        XCTAssertFalse(fake.controlWrites.contains { $0.id == CV4L2_CID_EXPOSURE_AUTO }, "the mode is left as it is")
        camera.close()
        XCTAssertEqual(fake.control(CV4L2_CID_EXPOSURE_ABSOLUTE), Self.defaultExposure)
        XCTAssertTrue(camera.controlLedger.changed.isEmpty)
    }

    func testAtTheOneFrameCapTheCameraHasDoneWhatItCan() throws {
        let (fake, camera) = try exposureTimeCamera(mode: Int32(V4L2_EXPOSURE_MANUAL.rawValue), face: 0.15)
        let exposure = CameraExposure()
        _ = try capture(camera, exposure, frames: 90)
        XCTAssertEqual(fake.control(CV4L2_CID_EXPOSURE_ABSOLUTE), 10_000 / 30, "at the cap, no further")
        XCTAssertTrue(exposure.isExhausted, "still dark at one frame's exposure: only the person's light is left")
        camera.close()
        XCTAssertEqual(fake.control(CV4L2_CID_EXPOSURE_ABSOLUTE), Self.defaultExposure)
    }

    func testInAutoExposureTheExposureTimeIsNeverWritten() throws {
        let (fake, camera) = try exposureTimeCamera(
            mode: Int32(V4L2_EXPOSURE_APERTURE_PRIORITY.rawValue),
            face: 0.45)
        let exposure = CameraExposure()
        _ = try capture(camera, exposure, frames: 40)
        XCTAssertFalse(fake.controlWrites.contains { $0.id == CV4L2_CID_EXPOSURE_ABSOLUTE }, "auto exposure drives it")
        XCTAssertTrue(exposure.isExhausted, "nothing else to turn")
        camera.close()
    }

    // MARK: the light words wait for the camera (LightWordsHold, through the wizard's FramePipeline)

    /// One analysed frame of the wizard's pipeline: the guidance the flow got, the analyzer's own active codes, and
    /// the steering's state after it.
    struct Said {
        var guidance: FrameGuidance
        /// What the analyzer's output alone would have said.
        var unheld: FrameGuidance
        var active: [GuidanceCode]
        var exhausted: Bool
        var held: Int
    }

    /// `count` camera frames of `camera` through the wizard's `FramePipeline` (its cadence, its exposure steering);
    /// what was said on each analysed frame.
    func wizardPipeline(_ camera: Camera, frames count: Int) throws -> (said: [Said], pipeline: FramePipeline) {
        let models = try FaceModelsFixture.models()
        let shared = try SharedFaceTracker(
            detector: models.detector, landmarks: models.landmarks, iris: models.iris,
            hand: models.hand)
        let pipeline = FramePipeline(tracker: shared, thresholds: AnalyzerThresholds())
        pipeline.reset(mustClear: [])
        var said: [Said] = []
        var read = 0
        var polls = 0
        while read < count {
            polls += 1
            guard polls < count * 100 else {
                XCTFail("the fake camera stopped giving frames after \(read)")
                break
            }
            switch try pipeline.next(from: camera) {
            case .none: continue
            case .skipped, .shownOnly: read += 1
            case .analysed(let guidance):
                read += 1
                let analysis = try XCTUnwrap(pipeline.photoFrame(for: .manual)?.analysis)
                said.append(
                    Said(
                        guidance: guidance, unheld: FrameGuidance(analysis), active: analysis.active,
                        exhausted: pipeline.exposure.isExhausted,
                        held: pipeline.exposure.heldLightWordFrames))
            }
        }
        return (said, pipeline)
    }

    static func says(_ guidance: FrameGuidance, _ code: GuidanceCode) -> Bool {
        guidance.primary == code || guidance.hints.contains(code)
    }

    func testTooDarkIsNotSaidWhileTheCameraBrightensABacklitFaceAndNeverReadyWhileDark() throws {
        let fake = makeFake()
        simulateCamera(fake, try scene(face: 0.3, window: 250))
        let camera = try Camera(path: path, ops: fake.ops)
        let (said, pipeline) = try wizardPipeline(camera, frames: 90)
        let darkFrames = said.filter { $0.active.contains(.tooDark) }
        XCTAssertFalse(darkFrames.isEmpty, "the analyzer found the face too dark at first")
        XCTAssertFalse(
            said.contains { Self.says($0.guidance, .tooDark) },
            "the camera brightened it: the person was never asked for light: \(said.map(\.guidance))")
        XCTAssertFalse(said.contains { $0.exhausted })
        XCTAssertGreaterThan(pipeline.exposure.heldLightWordFrames, 0)
        XCTAssertLessThan(pipeline.exposure.heldLightWordFrames, LightWordsHold().maxHeldFrames)
        for frame in darkFrames {
            XCTAssertNotEqual(frame.guidance.primary, .ready)
            XCTAssertFalse(frame.guidance.autoCapture)
        }
        XCTAssertGreaterThan(fake.control(CV4L2_CID_GAIN)!, Self.defaultGain, "the camera did it")
        camera.close()
        XCTAssertEqual(fake.control(CV4L2_CID_GAIN), Self.defaultGain)
    }

    func testACameraThatNeverConvergesSaysTooDarkAfterTheBoundInAnalysedFrames() throws {
        let fake = makeFake()
        // Gain and brightness are written but change nothing: the face stays dark whatever facecap turns.
        let dark = try scene(face: 0.3, window: 250)
        var time = 0.0
        let bytes = dark.light.map { UInt8(max(0, min(255, $0)).rounded()) }
        fake.liveFrame = { _ in
            time += 1.0 / 30
            return FakeV4L2Device.FrameSpec(bytes: bytes, time: time)
        }
        let camera = try Camera(path: path, ops: fake.ops)
        let bound = LightWordsHold().maxHeldFrames
        let (said, pipeline) = try wizardPipeline(camera, frames: 2 * (bound + 30))
        let first = try XCTUnwrap(
            said.firstIndex { Self.says($0.guidance, .tooDark) },
            "too dark said at last: \(said.map(\.guidance))")
        let before = said[..<first]
        XCTAssertFalse(said[first].exhausted, "said for the bound, not because the camera gave up")
        XCTAssertEqual(said[first].held, bound, "said on the first frame past the bound")
        XCTAssertEqual(before.last?.held, bound, "the frame before it was the last held")
        XCTAssertEqual(
            before.filter { Self.says($0.unheld, .tooDark) }.count, bound,
            "every frame the analyzer said too dark on before was held, and no other")
        XCTAssertTrue(
            said[first...].allSatisfy { !$0.active.contains(.tooDark) || Self.says($0.guidance, .tooDark) },
            "from then on it is said whenever the analyzer says it")
        XCTAssertEqual(pipeline.exposure.heldLightWordFrames, bound)
        camera.close()
        XCTAssertEqual(fake.control(CV4L2_CID_GAIN), Self.defaultGain)
        XCTAssertEqual(fake.control(CV4L2_CID_BRIGHTNESS), 0)
    }

    func testACameraWithoutControlsSaysTooDarkAsTheAnalyzerDoes() throws {
        let rgb = FakeV4L2Device.Format(fourcc: CV4L2_PIX_FMT_RGB24, description: "RGB3", sizes: [(640, 480)])
        let fake = FakeV4L2Device(nodes: [path: FakeV4L2Device.Node(formats: [rgb])])
        fakes.append(fake)
        let dark = try scene(face: 0.3, window: 250)
        var time = 0.0
        let bytes = dark.light.map { UInt8(max(0, min(255, $0)).rounded()) }
        fake.liveFrame = { _ in
            time += 1.0 / 30
            return FakeV4L2Device.FrameSpec(bytes: bytes, time: time)
        }
        let camera = try Camera(path: path, ops: fake.ops)
        let (said, pipeline) = try wizardPipeline(camera, frames: 40)
        let darkFrames = said.filter { $0.active.contains(.tooDark) }
        XCTAssertFalse(darkFrames.isEmpty)
        for frame in said {
            XCTAssertEqual(frame.guidance, frame.unheld, "nothing held")
        }
        XCTAssertTrue(said.contains { $0.guidance.primary == .tooDark }, "\(said.map(\.guidance))")
        XCTAssertEqual(pipeline.exposure.heldLightWordFrames, 0, "nothing to turn: nothing held")
        XCTAssertFalse(fake.log.contains { $0.hasPrefix("S_CTRL") })
        camera.close()
    }
}
