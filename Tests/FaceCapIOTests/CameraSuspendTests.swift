import CV4L2
import FaceCapCore
import Foundation
import XCTest

@testable import FaceCapIO

#if canImport(Glibc)
import Glibc
#endif

/// Ctrl-Z through the wizard's own signal path: SIGTSTP arrives on the signal pipe, the session gives the camera's
/// controls back before the process stops, and once continued the steering reads them again, a value another program
/// set meanwhile being the new first value. Decided on the fake's control writes and frames, never on time.
extension CameraExposureTests {
    func testCtrlZGivesTheControlsBackWhileStoppedAndSteeringGoesOnFromWhatItFinds() throws {
        let fake = makeFake()
        simulateCamera(fake, try scene(face: 0.3, window: 250))
        let camera = fake.liveFrame!
        let keys = KeyPipe()
        var stopped = false, continued = false, quit = false
        var writesAtStop = 0, frames = 0
        var whileStopped: (gain: Int?, priority: Int?) = (nil, nil)
        let anotherProgramsGain = 50
        fake.liveFrame = { device in
            frames += 1
            if !stopped, device.controlWrites.contains(where: { $0.id == CV4L2_CID_GAIN }) {
                stopped = true
                // Only with the session's handler in place: without it SIGTSTP would stop the test process itself.
                guard Signals.descriptor >= 0 else {
                    XCTFail("the session's signal handling is not installed")
                    return camera(device)
                }
                raise(SIGTSTP)  // as the terminal's Ctrl-Z: a byte on the session's signal pipe
            }
            let resteered = continued && device.controlWrites[writesAtStop...].contains { $0.id == CV4L2_CID_GAIN }
            if !quit, resteered || frames >= 900 {
                quit = true
                keys.press()
            }
            return camera(device)
        }
        let session = try wizardSession(
            opener: OneCamera { try Camera(path: self.path, ops: fake.ops) },
            frontEnd: keys)
        session.suspendProcess = {
            // Stopped: what another program sees now, and what it does.
            whileStopped = (fake.control(CV4L2_CID_GAIN), fake.control(CV4L2_CID_EXPOSURE_AUTO_PRIORITY))
            writesAtStop = fake.controlWrites.count
            fake.controls[CV4L2_CID_GAIN]?.value = anotherProgramsGain
            continued = true
        }
        Signals.install()
        defer {
            Signals.restoreDefaults()
            _ = Signals.drain()
        }
        _ = Signals.drain()
        XCTAssertEqual(session.run(), .cancelled)
        XCTAssertTrue(continued, "the session stopped the process on SIGTSTP")
        XCTAssertEqual(whileStopped.gain, Self.defaultGain, "the gain given back while stopped")
        XCTAssertEqual(whileStopped.priority, 1, "auto priority given back while stopped")
        let after = fake.controlWrites[writesAtStop...].filter { $0.id == CV4L2_CID_GAIN }.map(\.value)
        let first = try XCTUnwrap(
            after.first, "the gain was steered again after the process continued (\(frames) frames)")
        XCTAssertGreaterThan(first, anotherProgramsGain, "steered on from the other program's value, up: \(after)")
        XCTAssertLessThan(first, anotherProgramsGain + 32, "a step from it, not from facecap's old value: \(after)")
        XCTAssertEqual(fake.control(CV4L2_CID_GAIN), anotherProgramsGain, "the new first value is what is written back")
        XCTAssertEqual(fake.control(CV4L2_CID_EXPOSURE_AUTO_PRIORITY), 1)
    }

    /// The wizard on `opener`, plain, no tutorial, photos refused as unreachable (never taken here in practice).
    private func wizardSession(opener: FrameSourceOpener, frontEnd: WizardFrontEnd) throws -> WizardSession {
        var settings = WizardSettings()
        settings.plain = true
        settings.showTutorial = false
        let models = try FaceModelsFixture.models()
        let tracker = try SharedFaceTracker(
            detector: models.detector, landmarks: models.landmarks, iris: models.iris,
            hand: models.hand)
        let directory = try TemporaryDirectory()
        addTeardownBlock { directory.remove() }
        chmod(directory.url.path, 0o700)
        let photos = try WizardPhotos(
            checker: Unreachable(), validator: .server,
            store: PhotoStore(directory: directory.path("out")), version: "0.1.0-test",
            models: [])
        return WizardSession(
            settings: settings, frontEnd: frontEnd, events: nil, tracker: tracker,
            thresholds: AnalyzerThresholds(), photos: photos, opener: opener)
    }
}

/// Opens the camera `make` makes, each time it is asked.
private final class OneCamera: FrameSourceOpener {
    let make: () throws -> Camera
    init(_ make: @escaping () throws -> Camera) { self.make = make }

    func open() throws(CameraProblem) -> FrameSource {
        do {
            return try make()
        } catch {
            throw CameraProblem(kind: .noCamera, message: "\(error)", exitCode: .noCamera)
        }
    }

    func cameras() -> [CameraChoice] { [] }
    func choose(_ path: String) {}
}

/// A front end that draws nothing and presses q (through a pipe the session polls) when told to.
private final class KeyPipe: WizardFrontEnd {
    private let ends: [Int32]

    init() {
        var ends: [Int32] = [-1, -1]
        _ = pipe(&ends)
        self.ends = ends
    }

    deinit {
        for end in ends where end >= 0 { Glibc.close(end) }
    }

    func press() {
        var byte: UInt8 = 1
        _ = write(ends[1], &byte, 1)
    }

    var size: (columns: Int, rows: Int)? { nil }
    var inputDescriptor: Int32? { ends[0] }

    func readInput() -> [FrontEndInput] {
        var byte: UInt8 = 0
        return read(ends[0], &byte, 1) == 1 ? [.key(.character("q"))] : []
    }

    func render(_ model: ScreenModel, preview: Frame?, photo: ShownPhoto?) {}
    func resize() -> (columns: Int, rows: Int)? { size }
    func suspend() {}
    func resume() {}
    func close() {}
}

private final class Unreachable: PhotoChecker {
    func check(
        _ photo: CapturedPhoto, request: ValidationRequest, cancellation: Cancellation,
        progress: (Double) -> Void
    ) -> ValidationOutcome {
        .unreachable(reason: .refused(place: "127.0.0.1:9"), retryAfter: nil)
    }
}
