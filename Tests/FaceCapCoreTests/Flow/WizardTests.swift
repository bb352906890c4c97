import FaceCapCore
import XCTest

/// Table tests of the capture flow: events in, effects and screens out. No clock, no I/O.
final class WizardTests: XCTestCase {
    private func settings(
        plain: Bool = false, tutorial: Bool = true, attempts: Int = 3,
        server: Bool = false
    ) -> WizardSettings {
        var settings = WizardSettings()
        // Answers come within a second of the photo here; the Uploading screen's minimum time has its own tests
        // (HonestScreensTests).
        settings.minimumCheckingDisplay = 0
        settings.plain = plain
        settings.showTutorial = tutorial
        settings.attempts = attempts
        settings.usesServer = server
        settings.serverURL = server ? "https://example.org/selfie" : nil
        return settings
    }

    private let lost = CameraProblem(
        kind: .lost, message: "camera disconnected: /dev/video0 stopped answering",
        exitCode: .failure)
    private let clipEnded = CameraProblem(
        kind: .lost, message: "clip.y4m: the clip ended after 90 frames",
        exitCode: .failure, recoverable: false)
    private let denied = CameraProblem(
        kind: .permissionDenied, message: "cannot open /dev/video0: permission denied",
        details: ["$ sudo usermod -aG video $USER"], exitCode: .permissionDenied)
    private let busy = CameraProblem(
        kind: .busy, message: "/dev/video0 is busy: in use by cheese (pid 42)",
        exitCode: .noCamera)
    private let none = CameraProblem(kind: .noCamera, message: "no camera found", exitCode: .noCamera)

    private func ready(_ t: Double, stability: Double = 0.5, capture: Bool = false) -> FrameGuidance {
        FrameGuidance(time: t, primary: .ready, stability: stability, autoCapture: capture)
    }

    /// A wizard already capturing (tutorial skipped, camera open).
    private func capturing(_ settings: WizardSettings) -> Wizard {
        var wizard = Wizard(settings: settings)
        XCTAssertEqual(wizard.handle(.start, at: 0), [.openCamera, .emit(.screen(.capture))])
        XCTAssertEqual(
            wizard.handle(.cameraOpened, at: 0.1),
            [.startAnalysis(CaptureGate(mustClear: [], awaitChange: false))])
        return wizard
    }

    /// A wizard whose photo is being validated.
    private func validating(_ settings: WizardSettings) -> Wizard {
        var wizard = capturing(settings)
        _ = wizard.handle(.frameAnalyzed(ready(1, stability: 1, capture: true)), at: 1)
        _ = wizard.handle(.photoTaken(mode: .auto, width: 640, height: 480), at: 1.1)
        return wizard
    }

    func testTutorialThenContextThenCameraThenCapture() {
        var wizard = Wizard(settings: settings())
        XCTAssertEqual(wizard.handle(.start, at: 0), [.emit(.screen(.tutorial))])
        XCTAssertEqual(wizard.screen(at: 0).picture, .tutorialIllustration)
        XCTAssertEqual(wizard.handle(.key(.character("x")), at: 1), [])
        XCTAssertEqual(wizard.handle(.key(.enter), at: 1), [.emit(.screen(.permissionContext))])
        XCTAssertTrue(wizard.screen(at: 1).lines.joined().contains("never saved or sent"))
        XCTAssertEqual(wizard.handle(.key(.enter), at: 2), [.openCamera, .emit(.screen(.capture))])
        XCTAssertEqual(wizard.screen(at: 2).primary, "Starting the camera…")
        XCTAssertEqual(
            wizard.handle(.cameraOpened, at: 2.2),
            [.startAnalysis(CaptureGate(mustClear: [], awaitChange: false))])
        XCTAssertEqual(wizard.screen(at: 2.2).picture, .livePreview(oval: .searching, stability: 0))
    }

    func testQuitFromTutorialIsCancelled() {
        var wizard = Wizard(settings: settings())
        _ = wizard.handle(.start, at: 0)
        XCTAssertEqual(
            wizard.handle(.key(.character("q")), at: 1),
            [
                .report(.cancelled), .stopAnalysis, .closeCamera,
                .emit(.exit(.cancelled)), .exit(.cancelled),
            ])
        XCTAssertTrue(wizard.isFinished)
        XCTAssertEqual(wizard.handle(.key(.enter), at: 2), [], "nothing happens after the end")
    }

    func testDecliningTheContextShowsWhatIsLeftThenRetryAsksAgain() {
        var wizard = Wizard(settings: settings())
        _ = wizard.handle(.start, at: 0)
        _ = wizard.handle(.key(.space), at: 1)
        XCTAssertEqual(wizard.handle(.key(.character("q")), at: 2), [.emit(.screen(.permissionDismissed))])
        let screen = wizard.screen(at: 2)
        XCTAssertTrue(screen.lines.contains("$ facecap --input clip.y4m"))
        XCTAssertEqual(screen.keys.map(\.key), ["r", "d", "q", "?"])
        var other = wizard
        XCTAssertEqual(other.handle(.key(.character("d")), at: 3), [.listCameras], "d opens the camera picker")
        _ = other.handle(
            .camerasListed([
                CameraChoice(path: "/dev/video0", description: "A", isCurrent: true),
                CameraChoice(path: "/dev/video2", description: "B"),
            ]), at: 3)
        XCTAssertEqual(
            other.handle(.key(.character("2")), at: 3),
            [.chooseCamera("/dev/video2"), .openCamera, .emit(.screen(.capture))])
        XCTAssertEqual(wizard.handle(.key(.character("r")), at: 3), [.emit(.screen(.permissionContext))])
        XCTAssertEqual(wizard.handle(.key(.enter), at: 4), [.openCamera, .emit(.screen(.capture))])
    }

    func testDismissedQuitIsCancelled() {
        var wizard = Wizard(settings: settings())
        _ = wizard.handle(.start, at: 0)
        _ = wizard.handle(.key(.enter), at: 1)
        _ = wizard.handle(.key(.escape), at: 2)
        XCTAssertEqual(wizard.handle(.key(.character("q")), at: 3).last, .exit(.cancelled))
    }

    func testNoTutorialOpensTheCameraAtOnce() {
        var wizard = Wizard(settings: settings(tutorial: false))
        XCTAssertEqual(wizard.handle(.start, at: 0), [.openCamera, .emit(.screen(.capture))])
    }

    func testPlainModePrintsTutorialAndContextAndWaitsForNobody() {
        var wizard = Wizard(settings: settings(plain: true))
        XCTAssertEqual(wizard.handle(.start, at: 0), [.emit(.screen(.tutorial))])
        XCTAssertEqual(wizard.nextDeadline, 0, "shown, then moves on at once")
        XCTAssertEqual(wizard.handle(.tick, at: 0), [.emit(.screen(.permissionContext))])
        XCTAssertEqual(wizard.nextDeadline, 0)
        XCTAssertEqual(wizard.handle(.tick, at: 0), [.openCamera, .emit(.screen(.capture))])
        XCTAssertNil(wizard.nextDeadline)
    }

    func testPermissionDeniedWaitsForTheUserAndQuitsWith77() {
        var wizard = Wizard(settings: settings(tutorial: false))
        _ = wizard.handle(.start, at: 0)
        XCTAssertEqual(wizard.handle(.cameraFailed(denied), at: 0.1), [.emit(.screen(.permissionDenied))])
        // Each fact once: the details say what the one-line message says (that line is for standard error).
        XCTAssertEqual(wizard.screen(at: 0.1).lines, ["$ sudo usermod -aG video $USER"])
        XCTAssertNil(wizard.screen(at: 0.1).countdown, "permission is not retried by itself")
        XCTAssertEqual(wizard.handle(.tick, at: 60), [])
        XCTAssertEqual(wizard.handle(.key(.character("r")), at: 61), [.openCamera])
        XCTAssertEqual(wizard.handle(.cameraFailed(denied), at: 61.1), [])
        XCTAssertEqual(wizard.handle(.key(.character("q")), at: 62).last, .exit(.permissionDenied))
    }

    func testPermissionGrantedOnRetryGoesToCapture() {
        var wizard = Wizard(settings: settings(tutorial: false))
        _ = wizard.handle(.start, at: 0)
        _ = wizard.handle(.cameraFailed(denied), at: 0.1)
        _ = wizard.handle(.key(.character("r")), at: 5)
        XCTAssertEqual(
            wizard.handle(.cameraOpened, at: 5.1),
            [.startAnalysis(CaptureGate(mustClear: [], awaitChange: false)), .emit(.screen(.capture))])
    }

    func testNoCameraAndBusyAreRetriedWithBackoffAndOnR() {
        var wizard = Wizard(settings: settings(tutorial: false))
        _ = wizard.handle(.start, at: 0)
        XCTAssertEqual(wizard.handle(.cameraFailed(none), at: 0), [.emit(.screen(.noCamera))])
        XCTAssertEqual(wizard.screen(at: 0.2).countdown, "Looking again in 1 s")
        XCTAssertEqual(wizard.handle(.tick, at: 0.5), [])
        XCTAssertEqual(wizard.handle(.tick, at: 1.0), [.openCamera])
        XCTAssertEqual(wizard.handle(.cameraFailed(busy), at: 1.0), [.emit(.screen(.cameraBusy))])
        XCTAssertEqual(wizard.screen(at: 1.0).countdown, "Looking again in 2 s")
        XCTAssertEqual(wizard.handle(.tick, at: 2.9), [])
        XCTAssertEqual(wizard.handle(.key(.character("r")), at: 2.9), [.openCamera])
        XCTAssertEqual(wizard.handle(.key(.character("r")), at: 2.95), [], "one open at a time")
        XCTAssertEqual(wizard.handle(.cameraFailed(busy), at: 3), [])
        XCTAssertEqual(wizard.screen(at: 3).countdown, "Looking again in 4 s")
        XCTAssertEqual(wizard.handle(.key(.character("d")), at: 3.5), [.listCameras])
        XCTAssertEqual(wizard.handle(.tick, at: 20), [], "no automatic retry behind the picker")
        _ = wizard.handle(
            .camerasListed([
                CameraChoice(path: "/dev/video0", description: "A", isCurrent: true),
                CameraChoice(path: "/dev/video2", description: "B"),
            ]), at: 20)
        XCTAssertEqual(
            wizard.handle(.key(.character("2")), at: 20),
            [.chooseCamera("/dev/video2"), .openCamera, .emit(.screen(.capture))])
        XCTAssertEqual(
            wizard.handle(.cameraOpened, at: 20.1),
            [.startAnalysis(CaptureGate(mustClear: [], awaitChange: false))])
    }

    func testBusyQuitIs69() {
        var wizard = Wizard(settings: settings(tutorial: false))
        _ = wizard.handle(.start, at: 0)
        _ = wizard.handle(.cameraFailed(busy), at: 0)
        XCTAssertEqual(wizard.handle(.key(.escape), at: 1).last, .exit(.noCamera))
    }

    func testPlainModeEndsAtOnceWhenTheCameraCannotBeOpened() {
        for (problem, code) in [(denied, ExitCode.permissionDenied), (busy, .noCamera), (none, .noCamera)] {
            var wizard = Wizard(settings: settings(plain: true, tutorial: false))
            _ = wizard.handle(.start, at: 0)
            XCTAssertEqual(
                wizard.handle(.cameraFailed(problem), at: 0.1),
                [
                    .report(.camera(problem, advice: true)), .stopAnalysis, .closeCamera, .emit(.exit(code)),
                    .exit(code),
                ])
        }
    }

    func testGuidanceIsEmittedOnChangeOnly() {
        var wizard = capturing(settings(tutorial: false))
        let far = FrameGuidance(time: 0.1, primary: .moveCloser, hints: [.tooDark])
        XCTAssertEqual(
            wizard.handle(.frameAnalyzed(far), at: 0.2),
            [.emit(.guidance(primary: .moveCloser, hints: [.tooDark]))])
        var same = far
        same.time = 0.2
        XCTAssertEqual(wizard.handle(.frameAnalyzed(same), at: 0.3), [])
        let screen = wizard.screen(at: 0.3)
        XCTAssertEqual(screen.primary, "Move closer")
        XCTAssertEqual(screen.hints, ["Too dark — find more light"])
        XCTAssertEqual(screen.picture, .livePreview(oval: .adjusting, stability: 0))
        XCTAssertEqual(screen.countdown, "Manual capture in 30 s")
        XCTAssertEqual(
            wizard.handle(.frameAnalyzed(ready(0.5, stability: 0.4)), at: 0.6),
            [.emit(.guidance(primary: .ready, hints: []))])
        XCTAssertEqual(wizard.screen(at: 0.6).picture, .livePreview(oval: .ready, stability: 0.4))
        XCTAssertEqual(wizard.screen(at: 0.6).progress, ScreenProgress(fraction: 0.4, label: "Steady"))
    }

    /// A direction turning to its graded words is a change a script following the events must see (issue 35):
    /// the same code, said "A little to the left", is written again with `slight`.
    func testGradedWordsAreAGuidanceChange() {
        var wizard = capturing(settings(tutorial: false))
        let far = FrameGuidance(time: 0.1, primary: .moveLeft, hints: [.tooDark])
        XCTAssertEqual(
            wizard.handle(.frameAnalyzed(far), at: 0.2),
            [.emit(.guidance(primary: .moveLeft, hints: [.tooDark]))])
        var near = far
        near.time = 0.2
        near.slight = [.moveLeft, .tooDark]
        XCTAssertEqual(
            wizard.handle(.frameAnalyzed(near), at: 0.3),
            [.emit(.guidance(primary: .moveLeft, hints: [.tooDark], slight: [.moveLeft, .tooDark]))])
        XCTAssertEqual(wizard.screen(at: 0.3).primary, "A little to the left")
        near.time = 0.3
        XCTAssertEqual(wizard.handle(.frameAnalyzed(near), at: 0.4), [])
        var held = near
        held.time = 0.4
        held.slight = [.holdStill]
        held.primary = .holdStill
        held.hints = []
        // holdStill has no graded words: it is never listed.
        XCTAssertEqual(
            wizard.handle(.frameAnalyzed(held), at: 0.5),
            [.emit(.guidance(primary: .holdStill, hints: []))])
    }

    func testTheManualCountdownFollowsFrameTime() {
        var wizard = capturing(settings(tutorial: false))
        _ = wizard.handle(.frameAnalyzed(FrameGuidance(time: 100, primary: .noFace, hasFace: false)), at: 1)
        _ = wizard.handle(.frameAnalyzed(FrameGuidance(time: 112.5, primary: .noFace, hasFace: false)), at: 2)
        XCTAssertEqual(wizard.screen(at: 2).countdown, "Manual capture in 18 s")
        XCTAssertEqual(wizard.screen(at: 2).picture, .livePreview(oval: .searching, stability: 0))
    }

    func testAFrozenPictureSaysItWaitsForTheCameraAndRecoversWithTheNextFrame() {
        var wizard = capturing(settings(tutorial: false))
        let near = FrameGuidance(time: 5, primary: .moveCloser, hints: [.holdStill])
        _ = wizard.handle(.frameAnalyzed(near), at: 5)
        XCTAssertEqual(wizard.screen(at: 5.9).primary, "Move closer", "a frame late is not a stall")
        let frozen = wizard.screen(at: 6.0)
        XCTAssertEqual(frozen.primary, "Waiting for the camera…")
        XCTAssertEqual(frozen.countdown, "No new picture for 1 s")
        XCTAssertEqual(frozen.hints, [], "the frozen picture's advice is not the person's")
        XCTAssertEqual(frozen.picture, .livePreview(oval: .searching, stability: 0))
        XCTAssertNil(frozen.progress)
        XCTAssertEqual(wizard.screen(at: 8.4).countdown, "No new picture for 3 s")
        XCTAssertEqual(
            PlainText.line(for: wizard.screen(at: 6)), PlainText.line(for: wizard.screen(at: 8.4)),
            "plain mode prints the stall once, not every second")
        XCTAssertEqual(wizard.screenName, .capture, "still the capture screen: no event, no exit code")
        _ = wizard.handle(.frameAnalyzed(FrameGuidance(time: 8.5, primary: .ready, hasFace: true)), at: 8.5)
        XCTAssertEqual(wizard.screen(at: 8.5).primary, "Perfect — hold still")

        // Once manual capture is offered the offer stands; the stall is said under it.
        let dark = FrameGuidance(time: 30, primary: .tooDark, hasFace: true, manualFallback: .timeout)
        _ = wizard.handle(.frameAnalyzed(dark), at: 30)
        let offered = wizard.screen(at: 32.2)
        XCTAssertEqual(offered.primary, "Press SPACE to take the photo")
        XCTAssertEqual(offered.countdown, "Waiting for the camera: no new picture for 2 s")
        XCTAssertEqual(wizard.handle(.key(.space), at: 32.3), [.stopAnalysis, .takePhoto(.manual)])
    }

    func testAutoCaptureTakesThePhotoThenValidatesAttemptOne() {
        var wizard = capturing(settings(tutorial: false))
        XCTAssertEqual(
            wizard.handle(.frameAnalyzed(ready(1, stability: 1, capture: true)), at: 1),
            [.emit(.guidance(primary: .ready, hints: [])), .stopAnalysis, .takePhoto(.auto)])
        XCTAssertEqual(wizard.screen(at: 1).picture, .livePreview(oval: .capturing, stability: 1))
        XCTAssertEqual(wizard.handle(.key(.character("q")), at: 1.05), [], "the photo is being taken")
        let request = ValidationRequest(attempt: 1, isFinal: false)
        XCTAssertEqual(
            wizard.handle(.photoTaken(mode: .auto, width: 1280, height: 720), at: 1.1),
            [
                .closeCamera, .emit(.captured(mode: .auto, attempt: 1, width: 1280, height: 720)),
                .validate(request), .emit(.screen(.uploading)),
            ])
        XCTAssertEqual(wizard.handle(.validation(.progress(0.5)), at: 1.2), [])
        XCTAssertEqual(wizard.screen(at: 1.2).progress, ScreenProgress(fraction: 0.5, label: "Checking"))
        XCTAssertEqual(wizard.handle(.key(.character("q")), at: 1.3), [], "input is ignored while uploading")
    }

    func testManualCaptureOnlyOnceOffered() {
        var wizard = capturing(settings(tutorial: false))
        XCTAssertEqual(wizard.handle(.key(.space), at: 1), [], "SPACE does nothing before it is offered")
        let dark = FrameGuidance(time: 30, primary: .tooDark, hasFace: true, manualFallback: .timeout)
        XCTAssertEqual(
            wizard.handle(.frameAnalyzed(dark), at: 30),
            [.emit(.guidance(primary: .tooDark, hints: [])), .emit(.screen(.manualCapture))])
        let screen = wizard.screen(at: 30)
        XCTAssertEqual(screen.primary, "Press SPACE to take the photo")
        XCTAssertEqual(screen.hints, ["Too dark — find more light"])
        XCTAssertEqual(screen.lines, ["Auto capture did not finish in 30 s."], "the why is the live hint, not repeated")
        XCTAssertEqual(screen.keys.first, KeyHelp("SPACE", "take photo"))
        XCTAssertEqual(wizard.handle(.key(.space), at: 31), [.stopAnalysis, .takePhoto(.manual)])
        XCTAssertEqual(
            wizard.handle(.photoTaken(mode: .manual, width: 640, height: 480), at: 31.1),
            [
                .closeCamera, .emit(.captured(mode: .manual, attempt: 1, width: 640, height: 480)),
                .validate(ValidationRequest(attempt: 1, isFinal: false)), .emit(.screen(.uploading)),
            ])
    }

    func testManualCaptureAfterNoConfidentFaceSaysWhy() {
        var wizard = capturing(settings(plain: true, tutorial: false))
        let none = FrameGuidance(time: 10, primary: .noFace, hasFace: false, manualFallback: .noConfidentFace)
        _ = wizard.handle(.frameAnalyzed(none), at: 10)
        XCTAssertEqual(wizard.screenName, .manualCapture)
        XCTAssertEqual(wizard.screen(at: 10).lines, ["No face was found clearly enough for auto capture."])
        XCTAssertEqual(wizard.screen(at: 10).primary, "Press SPACE, or type capture and Enter, to take the photo")
    }

    func testAManualCaptureWithoutAFrameGoesBackToCapture() {
        var wizard = capturing(settings(tutorial: false))
        _ = wizard.handle(.frameAnalyzed(FrameGuidance(time: 30, primary: .noFace, manualFallback: .timeout)), at: 30)
        _ = wizard.handle(.key(.space), at: 31)
        XCTAssertEqual(
            wizard.handle(.photoFailed, at: 31),
            [.startAnalysis(CaptureGate(mustClear: [], awaitChange: false))])
        XCTAssertEqual(wizard.screenName, .manualCapture, "the offer stands")
    }

    func testPassSavesThenSuccessContinuesByItselfAfterThreeSeconds() {
        var wizard = validating(settings(tutorial: false))
        let verdict = ValidationVerdict(result: .pass)
        XCTAssertEqual(
            wizard.handle(.validation(.verdict(verdict)), at: 2),
            [.emit(.validation(result: .pass, reasons: [], attemptsLeft: 3)), .save(verdict)])
        let saved = SavedPhoto(photoPath: "out/facecap-1.jpg", reportPath: "out/facecap-1.json")
        XCTAssertEqual(
            wizard.handle(.photoSaved(saved), at: 2.1),
            [.emit(.saved(saved)), .report(.saved(path: "out/facecap-1.jpg")), .emit(.screen(.success))])
        XCTAssertEqual(wizard.nextDeadline, 5.1)
        let screen = wizard.screen(at: 2.1)
        XCTAssertEqual(screen.title, "Selfie accepted")
        XCTAssertEqual(screen.picture, .photo)
        XCTAssertTrue(screen.lines.contains("Saved to out/facecap-1.jpg"))
        XCTAssertEqual(screen.countdown, "Continuing in 3 s")
        XCTAssertEqual(wizard.handle(.tick, at: 5.0), [])
        XCTAssertEqual(wizard.handle(.tick, at: 5.1).last, .exit(.success))
    }

    /// Plain mode leaves Retry by itself after `plainRetryDelay` (2 s), not sooner, not later: the schedule the
    /// command-line tests used to time with a stopwatch (WizardServerTests), here at the times given.
    func testPlainRetryGoesBackToCaptureByItselfAfterTwoSeconds() {
        var wizard = validating(settings(plain: true, tutorial: false))
        let verdict = ValidationVerdict(result: .retry, reasons: ["tooDark"])
        _ = wizard.handle(.validation(.verdict(verdict)), at: 2)
        XCTAssertEqual(wizard.screenName, .retry)
        XCTAssertEqual(wizard.nextDeadline, 4)
        XCTAssertEqual(wizard.handle(.tick, at: 3.99), [])
        XCTAssertEqual(wizard.screenName, .retry)
        _ = wizard.handle(.tick, at: 4)
        XCTAssertEqual(wizard.screenName, .capture)
    }

    func testEnterLeavesSuccessSooner() {
        var wizard = validating(settings(tutorial: false))
        _ = wizard.handle(.validation(.verdict(ValidationVerdict(result: .pass))), at: 2)
        _ = wizard.handle(.photoSaved(SavedPhoto(photoPath: "a.jpg", reportPath: "a.json")), at: 2)
        XCTAssertEqual(wizard.handle(.key(.enter), at: 2.5).last, .exit(.success))
    }

    func testPlainSuccessEndsAtOnce() {
        var wizard = validating(settings(plain: true, tutorial: false))
        _ = wizard.handle(.validation(.verdict(ValidationVerdict(result: .pass))), at: 2)
        let saved = SavedPhoto(photoPath: "a.jpg", reportPath: "a.json")
        XCTAssertEqual(
            wizard.handle(.photoSaved(saved), at: 2),
            [.emit(.saved(saved)), .report(.saved(path: "a.jpg")), .emit(.screen(.success))])
        XCTAssertEqual(wizard.nextDeadline, 2, "shown, then the end at once")
        XCTAssertEqual(
            wizard.handle(.tick, at: 2), [.stopAnalysis, .closeCamera, .emit(.exit(.success)), .exit(.success)])
    }

    func testRetryCountsAttemptsAndReturnsToCaptureOnEnter() {
        var wizard = validating(settings(tutorial: false))
        let verdict = ValidationVerdict(result: .retry, reasons: ["tooDark", "somethingNew"])
        XCTAssertEqual(
            wizard.handle(.validation(.verdict(verdict)), at: 2),
            [
                .emit(.validation(result: .retry, reasons: ["tooDark", "somethingNew"], attemptsLeft: 2)),
                .discardPhoto, .emit(.screen(.retry)),
            ])
        let screen = wizard.screen(at: 2)
        XCTAssertEqual(screen.primary, "2 attempts left")
        // A reason facecap does not know gets a sentence, not the raw code (the event keeps the code).
        XCTAssertEqual(
            screen.lines,
            [
                "Too dark: face a window or a lamp",
                "The checker asked for another photo for a reason facecap does not know",
            ])
        XCTAssertNil(screen.countdown, "the full-screen Retry waits for the person")
        XCTAssertEqual(wizard.handle(.tick, at: 60), [])
        XCTAssertEqual(wizard.handle(.key(.character("r")), at: 61), [.openCamera, .emit(.screen(.capture))])
        // The capture restarts holding the refused measure to its margin (a server's own code names none).
        XCTAssertEqual(
            wizard.handle(.cameraOpened, at: 61.2),
            [.startAnalysis(CaptureGate(mustClear: [.tooDark], awaitChange: false))])
        _ = wizard.handle(.frameAnalyzed(ready(62, stability: 1, capture: true)), at: 62)
        XCTAssertEqual(
            wizard.handle(.photoTaken(mode: .auto, width: 640, height: 480), at: 62).dropFirst(2).first,
            .validate(ValidationRequest(attempt: 2, isFinal: false)))
    }

    func testARefusalNamingNoMeasureRestartsCaptureWaitingForAChange() {
        var wizard = validating(settings(tutorial: false))
        // A server's own code: nothing the analyzer can hold to a margin, so it waits for a visible change.
        _ = wizard.handle(.validation(.verdict(ValidationVerdict(result: .retry, reasons: ["serverSaysNo"]))), at: 2)
        XCTAssertEqual(wizard.captureGate.mustClear, [])
        XCTAssertTrue(wizard.captureGate.awaitChange)
        _ = wizard.handle(.key(.enter), at: 3)
        XCTAssertEqual(
            wizard.handle(.cameraOpened, at: 3.1),
            [.startAnalysis(CaptureGate(mustClear: [], awaitChange: true))])
        // Opening and closing the help restarts the capture still waiting for the change.
        _ = wizard.handle(.key(.character("?")), at: 3.5)
        XCTAssertEqual(
            wizard.handle(.key(.character("x")), at: 4),
            [.startAnalysis(CaptureGate(mustClear: [], awaitChange: true))])
        // A refusal that names a measure holds that measure instead; a pass clears both.
        _ = wizard.handle(.frameAnalyzed(ready(5, stability: 1, capture: true)), at: 5)
        _ = wizard.handle(.photoTaken(mode: .auto, width: 640, height: 480), at: 5)
        _ = wizard.handle(.validation(.verdict(ValidationVerdict(result: .retry, reasons: ["blurry", "x"]))), at: 6)
        XCTAssertFalse(wizard.captureGate.awaitChange)
        _ = wizard.handle(.key(.enter), at: 7)
        XCTAssertEqual(
            wizard.handle(.cameraOpened, at: 7.1),
            [.startAnalysis(CaptureGate(mustClear: [.blurry], awaitChange: false))])
    }

    func testTheRetryScreenGivesEachAdviceOnce() {
        var wizard = validating(settings(tutorial: false))
        // moveLeft and moveUp share one advice (off centre), and two unknown codes share the generic one.
        let verdict = ValidationVerdict(result: .retry, reasons: ["moveLeft", "tooDark", "moveUp", "a", "b"])
        _ = wizard.handle(.validation(.verdict(verdict)), at: 2)
        let lines = wizard.screen(at: 2).lines
        XCTAssertEqual(lines.count, Set(lines).count, "\(lines)")
        XCTAssertEqual(
            lines,
            [
                Messages.advice(forReason: "moveLeft"), Messages.advice(forReason: "tooDark"),
                Messages.advice(forReason: "a"),
            ])
    }

    func testARefusalIsCarriedToEveryRestartOfCaptureUntilTheNextVerdict() {
        var wizard = validating(settings(tutorial: false))
        let refusal = ValidationVerdict(result: .retry, reasons: ["keepHeadLevel", "faceUnclear", "unevenLight"])
        _ = wizard.handle(.validation(.verdict(refusal)), at: 2)
        XCTAssertEqual(wizard.captureGate.mustClear, [.keepHeadLevel, .unevenLight])
        _ = wizard.handle(.key(.enter), at: 3)
        XCTAssertEqual(
            wizard.handle(.cameraOpened, at: 3.1),
            [.startAnalysis(CaptureGate(mustClear: [.keepHeadLevel, .unevenLight], awaitChange: false))])
        // The camera lost and found again: still the same refusal to clear.
        _ = wizard.handle(.cameraLost(CameraProblem(kind: .lost, message: "gone", exitCode: .failure)), at: 4)
        _ = wizard.handle(.tick, at: 6)
        XCTAssertEqual(
            wizard.handle(.cameraOpened, at: 6.1).first,
            .startAnalysis(CaptureGate(mustClear: [.keepHeadLevel, .unevenLight], awaitChange: false)))
        // A new refusal replaces it; a pass clears it.
        _ = wizard.handle(.frameAnalyzed(ready(7, stability: 1, capture: true)), at: 7)
        _ = wizard.handle(.photoTaken(mode: .auto, width: 640, height: 480), at: 7)
        _ = wizard.handle(.validation(.verdict(ValidationVerdict(result: .retry, reasons: ["blurry"]))), at: 8)
        XCTAssertEqual(wizard.captureGate.mustClear, [.blurry])
        _ = wizard.handle(.key(.enter), at: 9)
        XCTAssertEqual(
            wizard.handle(.cameraOpened, at: 9.1),
            [.startAnalysis(CaptureGate(mustClear: [.blurry], awaitChange: false))])
        _ = wizard.handle(.frameAnalyzed(ready(10, stability: 1, capture: true)), at: 10)
        _ = wizard.handle(.photoTaken(mode: .auto, width: 640, height: 480), at: 10)
        _ = wizard.handle(.validation(.verdict(ValidationVerdict(result: .pass))), at: 11)
        XCTAssertEqual(wizard.captureGate.mustClear, [])
    }

    func testPlainRetryGoesBackAfterTwoSeconds() {
        var wizard = validating(settings(plain: true, tutorial: false))
        _ = wizard.handle(.validation(.verdict(ValidationVerdict(result: .retry, reasons: ["blurry"]))), at: 2)
        XCTAssertEqual(wizard.screen(at: 2.5).countdown, "Back to the camera in 2 s")
        XCTAssertEqual(wizard.handle(.tick, at: 3.9), [])
        XCTAssertEqual(wizard.handle(.tick, at: 4.0), [.openCamera, .emit(.screen(.capture))])
    }

    func testTheLastFailedAttemptGoesToManualReviewAndExits3() {
        var wizard = Wizard(settings: settings(tutorial: false, attempts: 2))
        _ = wizard.handle(.start, at: 0)
        var requests: [ValidationRequest] = []
        for round in 0..<2 {
            let t = Double(round * 10)
            _ = wizard.handle(.cameraOpened, at: t + 1)
            _ = wizard.handle(.frameAnalyzed(ready(t + 2, stability: 1, capture: true)), at: t + 2)
            for case .validate(let request) in wizard.handle(.photoTaken(mode: .auto, width: 1, height: 1), at: t + 3) {
                requests.append(request)
            }
            let effects = wizard.handle(
                .validation(.verdict(ValidationVerdict(result: .retry, reasons: ["blurry"]))),
                at: t + 4)
            if round == 0 {
                XCTAssertEqual(effects.first, .emit(.validation(result: .retry, reasons: ["blurry"], attemptsLeft: 1)))
                _ = wizard.handle(.key(.enter), at: t + 5)
            } else {
                let final = ValidationVerdict(result: .manualReview, reasons: ["blurry"])
                XCTAssertEqual(
                    effects,
                    [
                        .emit(.validation(result: .manualReview, reasons: ["blurry"], attemptsLeft: 0)),
                        .save(final),
                    ])
            }
        }
        XCTAssertEqual(
            requests, [ValidationRequest(attempt: 1, isFinal: false), ValidationRequest(attempt: 2, isFinal: true)])
        let saved = SavedPhoto(photoPath: "b.jpg", reportPath: "b.json")
        XCTAssertEqual(
            wizard.handle(.photoSaved(saved), at: 20),
            [
                .emit(.saved(saved)), .report(.manualReview(path: "b.jpg")),
                .emit(.screen(.finalError)),
            ])
        XCTAssertEqual(wizard.screen(at: 20).countdown, "Continuing in 5 s")
        XCTAssertTrue(
            wizard.screen(at: 20).lines.contains("It was submitted for review by a person: you may continue."))
        XCTAssertEqual(wizard.handle(.tick, at: 24.9), [])
        XCTAssertEqual(wizard.handle(.tick, at: 25).last, .exit(.manualReview))
    }

    func testAPassResetsTheAttempts() {
        var wizard = validating(settings(tutorial: false, attempts: 2))
        _ = wizard.handle(.validation(.verdict(ValidationVerdict(result: .retry))), at: 2)
        XCTAssertEqual(wizard.attemptsUsed, 1)
        _ = wizard.handle(.key(.enter), at: 3)
        _ = wizard.handle(.cameraOpened, at: 3)
        _ = wizard.handle(.frameAnalyzed(ready(4, stability: 1, capture: true)), at: 4)
        _ = wizard.handle(.photoTaken(mode: .auto, width: 1, height: 1), at: 4)
        _ = wizard.handle(.validation(.verdict(ValidationVerdict(result: .pass))), at: 5)
        XCTAssertEqual(wizard.attemptsUsed, 0)
        XCTAssertEqual(wizard.attemptsLeft, 2)
    }

    func testAManualReviewVerdictBeforeTheLastAttemptEndsAsFinalError() {
        var wizard = validating(settings(tutorial: false))
        let verdict = ValidationVerdict(result: .manualReview, reasons: [], message: "a person will look")
        XCTAssertEqual(wizard.handle(.validation(.verdict(verdict)), at: 2).last, .save(verdict))
    }

    func testServerDownKeepsThePhotoAndResendsTheSameAttemptWithBackoff() {
        var wizard = validating(settings(tutorial: false, server: true))
        let request = ValidationRequest(attempt: 1, isFinal: false)
        XCTAssertEqual(
            wizard.handle(.validation(.unreachable(reason: .refused(place: "127.0.0.1:9"), retryAfter: nil)), at: 2),
            [.emit(.screen(.connectionError))])
        var screen = wizard.screen(at: 2)
        XCTAssertEqual(screen.title, "Cannot reach the server")
        XCTAssertEqual(screen.countdown, "Sending again in 1 s")
        XCTAssertTrue(screen.lines.contains("connection refused by 127.0.0.1:9"), "the failure, worded by the screen")
        XCTAssertEqual(wizard.attemptsUsed, 0, "no attempt is used")
        XCTAssertEqual(wizard.handle(.tick, at: 3), [.validate(request)])
        XCTAssertEqual(wizard.screen(at: 3).countdown, "Sending again…")
        XCTAssertEqual(
            wizard.handle(.validation(.unreachable(reason: .timedOut(seconds: 30), retryAfter: nil)), at: 4), [])
        XCTAssertEqual(wizard.screen(at: 4).countdown, "Sending again in 2 s")
        XCTAssertEqual(wizard.handle(.tick, at: 5), [])
        XCTAssertEqual(wizard.handle(.key(.character("r")), at: 5), [.validate(request)], "r sends at once")
        XCTAssertEqual(wizard.handle(.key(.character("r")), at: 5.1), [], "one send at a time")
        XCTAssertEqual(wizard.handle(.validation(.unreachable(reason: .busy, retryAfter: 20)), at: 6), [])
        XCTAssertEqual(wizard.screen(at: 6).countdown, "Sending again in 20 s", "Retry-After wins over the backoff")
        XCTAssertEqual(wizard.handle(.tick, at: 26), [.validate(request)])
        XCTAssertEqual(wizard.handle(.validation(.progress(0.25)), at: 26.5), [])
        screen = wizard.screen(at: 26.5)
        XCTAssertEqual(screen.progress, ScreenProgress(fraction: 0.25, label: "Sending again"))
        XCTAssertEqual(
            wizard.handle(.validation(.verdict(ValidationVerdict(result: .pass))), at: 27),
            [
                .emit(.validation(result: .pass, reasons: [], attemptsLeft: 3)),
                .save(ValidationVerdict(result: .pass)), .emit(.screen(.uploading)),
            ])
    }

    func testBackoffGrowsToThirtySeconds() {
        XCTAssertEqual((0..<8).map { Backoff().delay(step: $0) }, [1, 2, 4, 8, 16, 30, 30, 30])
    }

    func testQuittingWhileTheServerIsUnreachableSavesThePhotoAndExits75() {
        var wizard = validating(settings(tutorial: false, server: true))
        _ = wizard.handle(.validation(.unreachable(reason: .refused(place: "127.0.0.1:9"), retryAfter: nil)), at: 2)
        XCTAssertEqual(wizard.handle(.key(.character("q")), at: 3), [.save(nil)])
        let saved = SavedPhoto(photoPath: "c.jpg", reportPath: "c.json")
        XCTAssertEqual(
            wizard.handle(.photoSaved(saved), at: 3.1),
            [
                .emit(.saved(saved)), .report(.notValidated(path: "c.jpg", why: nil)),
                .stopAnalysis, .closeCamera, .emit(.exit(.serverUnreachable)), .exit(.serverUnreachable),
            ])
    }

    func testCtrlCWhileResendingCancelsTheUploadAndStillSaves() {
        var wizard = validating(settings(tutorial: false, server: true))
        _ = wizard.handle(.validation(.unreachable(reason: .reset(place: "127.0.0.1:9"), retryAfter: nil)), at: 2)
        _ = wizard.handle(.tick, at: 3)
        XCTAssertEqual(
            wizard.handle(.stop, at: 3.5),
            [.cancelValidation, .save(nil)])
        XCTAssertEqual(
            wizard.handle(.saveFailed(message: "disk full"), at: 3.6),
            [
                .report(.notSaved(reason: "disk full", why: nil)), .stopAnalysis, .closeCamera,
                .emit(.exit(.serverUnreachable)), .exit(.serverUnreachable),
            ])
    }

    func testServerRefusalWaitsForTheUser() {
        var wizard = validating(settings(tutorial: false, server: true))
        XCTAssertEqual(
            wizard.handle(.validation(.refused(status: 401, message: "bad token")), at: 2),
            [.emit(.screen(.connectionError))])
        XCTAssertEqual(wizard.screen(at: 2).lines.first, "HTTP 401: bad token")
        XCTAssertEqual(wizard.handle(.tick, at: 100), [], "no automatic re-send")
        XCTAssertEqual(
            wizard.handle(.key(.character("r")), at: 101),
            [.validate(ValidationRequest(attempt: 1, isFinal: false))])
        _ = wizard.handle(.validation(.refused(status: 401, message: "bad token")), at: 102)
        XCTAssertEqual(wizard.handle(.key(.character("q")), at: 103), [.save(nil)])
    }

    func testCtrlCOnTheRefusedScreenKeepsThePhotoAsQDoes() {
        var wizard = validating(settings(tutorial: false, server: true))
        _ = wizard.handle(.validation(.refused(status: 401, message: "bad token")), at: 2)
        XCTAssertEqual(wizard.handle(.stop, at: 3), [.save(nil)])
        let saved = SavedPhoto(photoPath: "r.jpg", reportPath: "r.json")
        XCTAssertEqual(wizard.handle(.photoSaved(saved), at: 3.1).suffix(2), [.emit(.exit(.failure)), .exit(.failure)])
    }

    func testCtrlCDuringAnUploadKeepsThePhotoAndExits130() {
        var wizard = validating(settings(tutorial: false, server: true))
        XCTAssertEqual(wizard.handle(.stop, at: 2), [.cancelValidation, .save(nil)])
        XCTAssertEqual(wizard.screenName, .uploading, "no Connection error for an upload the person stopped")
        let saved = SavedPhoto(photoPath: "u.jpg", reportPath: "u.json")
        XCTAssertEqual(
            wizard.handle(.photoSaved(saved), at: 2.1).suffix(2), [.emit(.exit(.cancelled)), .exit(.cancelled)])
    }

    func testCtrlCDuringTheBuiltInCheckEndsAt130() {
        var wizard = validating(settings(tutorial: false))
        let effects = wizard.handle(.stop, at: 2)
        XCTAssertEqual(effects.prefix(2), [.report(.cancelled), .cancelValidation])
        XCTAssertFalse(effects.contains(.save(nil)), "a photo checked on this machine is not kept unasked")
        XCTAssertEqual(effects.suffix(2), [.emit(.exit(.cancelled)), .exit(.cancelled)])
    }

    func testPlainRefusalSavesAndExits1() {
        var wizard = validating(settings(plain: true, tutorial: false, server: true))
        XCTAssertEqual(
            wizard.handle(.validation(.refused(status: 413, message: "Too large. Send a smaller one.")), at: 2),
            [.save(nil), .emit(.screen(.connectionError))], "the event log says where the flow ended")
        let effects = wizard.handle(.photoSaved(SavedPhoto(photoPath: "d.jpg", reportPath: "d.json")), at: 2)
        XCTAssertEqual(effects.last, .exit(.failure))
        // One line: why, then where the photo went; the server's sentences as clauses.
        XCTAssertEqual(
            effects.compactMap { if case .report(let line) = $0 { line.text } else { nil } },
            [
                "the server refused the photo (HTTP 413): too large; send a smaller one; the photo was not "
                    + "validated and is saved in d.jpg"
            ])
    }

    func testCameraLossShowsConnectionErrorAndResumesWhenTheCameraIsBack() {
        var wizard = capturing(settings(tutorial: false))
        _ = wizard.handle(.frameAnalyzed(ready(1)), at: 1)
        XCTAssertEqual(
            wizard.handle(.cameraLost(lost), at: 2),
            [.stopAnalysis, .closeCamera, .emit(.screen(.connectionError))])
        let screen = wizard.screen(at: 2)
        XCTAssertEqual(screen.title, "Camera connection lost")
        XCTAssertEqual(screen.countdown, "Looking again in 1 s")
        XCTAssertEqual(wizard.handle(.tick, at: 3), [.openCamera])
        XCTAssertEqual(wizard.screen(at: 3).countdown, "Looking for the camera…")
        XCTAssertEqual(wizard.handle(.cameraFailed(none), at: 3.1), [], "still on Connection error")
        XCTAssertEqual(wizard.screenName, .connectionError)
        XCTAssertEqual(wizard.screen(at: 3.1).countdown, "Looking again in 2 s")
        XCTAssertEqual(wizard.handle(.tick, at: 5.1), [.openCamera])
        XCTAssertEqual(
            wizard.handle(.cameraOpened, at: 5.2),
            [.startAnalysis(CaptureGate(mustClear: [], awaitChange: false)), .emit(.screen(.capture))])
        XCTAssertEqual(
            wizard.handle(.frameAnalyzed(ready(5.3)), at: 5.3),
            [.emit(.guidance(primary: .ready, hints: []))],
            "the guidance is announced again after the camera came back, even when it did not change")
    }

    func testCameraLossQuitExits1() {
        var wizard = capturing(settings(tutorial: false))
        _ = wizard.handle(.cameraLost(lost), at: 2)
        XCTAssertEqual(wizard.handle(.key(.character("q")), at: 3).last, .exit(.failure))
    }

    func testAClipThatEndsIsNotRetriedByItself() {
        var clip = settings(tutorial: false)
        clip.sourceIsClip = true
        var wizard = capturing(clip)
        _ = wizard.handle(.cameraLost(clipEnded), at: 3)
        XCTAssertEqual(wizard.screen(at: 3).title, "The clip ended")
        XCTAssertNil(wizard.screen(at: 3).countdown)
        XCTAssertEqual(wizard.handle(.tick, at: 100), [])
        XCTAssertEqual(wizard.handle(.key(.character("r")), at: 101), [.openCamera])
    }

    func testPlainModeEndsWhenTheClipEnds() {
        var wizard = capturing(settings(plain: true, tutorial: false))
        XCTAssertEqual(
            wizard.handle(.cameraLost(clipEnded), at: 3),
            [
                .emit(.screen(.connectionError)), .report(.camera(clipEnded, advice: false)), .stopAnalysis,
                .closeCamera,
                .emit(.exit(.failure)), .exit(.failure),
            ])
    }

    func testPlainModeRetriesALostCamera() {
        var wizard = capturing(settings(plain: true, tutorial: false))
        XCTAssertEqual(
            wizard.handle(.cameraLost(lost), at: 3),
            [.stopAnalysis, .closeCamera, .emit(.screen(.connectionError))])
        XCTAssertEqual(wizard.handle(.tick, at: 4), [.openCamera])
    }

    func testTerminalTooSmallReplacesEveryScreenAndRestartsCapture() {
        var wizard = capturing(settings(tutorial: false))
        _ = wizard.handle(.frameAnalyzed(ready(1, stability: 0.8)), at: 1)
        XCTAssertEqual(wizard.handle(.resized(columns: 40, rows: 12), at: 2), [.emit(.screen(.terminalTooSmall))])
        let screen = wizard.screen(at: 2)
        XCTAssertEqual(screen.name, .terminalTooSmall)
        XCTAssertTrue(screen.lines[0].contains("60×20"))
        XCTAssertTrue(screen.lines[0].contains("40×12"))
        XCTAssertEqual(
            wizard.handle(.frameAnalyzed(ready(2, stability: 1, capture: true)), at: 2.1), [],
            "no photo is taken while the person cannot see the preview")
        for key in [Key.enter, .space, .character("r"), .character("?"), .character("d")] {
            XCTAssertEqual(wizard.handle(.key(key), at: 2.2), [], "\(key) acts on nothing behind the small screen")
        }
        XCTAssertFalse(wizard.screen(at: 2.2).showsHelp)
        XCTAssertEqual(
            wizard.handle(.resized(columns: 100, rows: 32), at: 3),
            [.startAnalysis(CaptureGate(mustClear: [], awaitChange: false)), .emit(.screen(.capture))])
        XCTAssertEqual(wizard.handle(.key(.character("q")), at: 4).last, .exit(.cancelled))
    }

    func testKeysBehindTheTooSmallScreenCannotPassTheCameraQuestion() {
        var wizard = Wizard(settings: settings())
        _ = wizard.handle(.resized(columns: 50, rows: 15), at: 0)
        _ = wizard.handle(.start, at: 0)
        XCTAssertEqual(wizard.handle(.key(.enter), at: 1), [])
        XCTAssertEqual(wizard.handle(.key(.enter), at: 2), [], "the camera stays off")
        XCTAssertEqual(wizard.handle(.resized(columns: 80, rows: 24), at: 3), [.emit(.screen(.tutorial))])
        XCTAssertEqual(wizard.handle(.key(.escape), at: 4).last, .exit(.cancelled))
    }

    func testHelpOverlayOpensAndClosesWithoutActing() {
        var wizard = Wizard(settings: settings())
        _ = wizard.handle(.start, at: 0)
        XCTAssertEqual(wizard.handle(.key(.character("?")), at: 1), [])
        XCTAssertTrue(wizard.screen(at: 1).showsHelp)
        XCTAssertFalse(wizard.screen(at: 1).helpLines.isEmpty)
        XCTAssertEqual(wizard.handle(.key(.enter), at: 2), [], "the first key closes the help")
        XCTAssertFalse(wizard.screen(at: 2).showsHelp)
        XCTAssertEqual(wizard.screenName, .tutorial)
        _ = wizard.handle(.key(.character("?")), at: 3)
        XCTAssertEqual(wizard.handle(.key(.character("q")), at: 4).last, .exit(.cancelled), "q still quits")
    }

    func testSignalsEndWith130() {
        var stopped = capturing(settings(tutorial: false))
        XCTAssertEqual(stopped.handle(.stop, at: 1).last, .exit(.cancelled))
        var wizard = validating(settings(tutorial: false))
        XCTAssertEqual(
            wizard.handle(.stop, at: 2),
            [
                .report(.cancelled), .cancelValidation, .stopAnalysis, .closeCamera,
                .emit(.exit(.cancelled)), .exit(.cancelled),
            ])
    }

    func testASaveFailureKeepsThePhotoAndRetriesOnR() {
        var wizard = validating(settings(tutorial: false))
        let verdict = ValidationVerdict(result: .pass)
        _ = wizard.handle(.validation(.verdict(verdict)), at: 2)
        XCTAssertEqual(wizard.handle(.saveFailed(message: "out is read-only"), at: 2.1), [.emit(.screen(.saveFailed))])
        XCTAssertEqual(wizard.screen(at: 2.1).lines.first, "out is read-only")
        XCTAssertEqual(wizard.handle(.key(.character("r")), at: 3), [.save(verdict), .emit(.screen(.uploading))])
        XCTAssertEqual(
            wizard.handle(.photoSaved(SavedPhoto(photoPath: "e.jpg", reportPath: "e.json")), at: 3.1).last,
            .emit(.screen(.success)))
    }

    func testPlainSaveFailureExits1() {
        var wizard = validating(settings(plain: true, tutorial: false))
        _ = wizard.handle(.validation(.verdict(ValidationVerdict(result: .pass))), at: 2)
        XCTAssertEqual(wizard.handle(.saveFailed(message: "disk full"), at: 2.1).last, .exit(.failure))
    }

    func testLateAnswersAreIgnored() {
        var wizard = capturing(settings(tutorial: false))
        XCTAssertEqual(wizard.handle(.cameraOpened, at: 1), [], "no open was asked for")
        XCTAssertEqual(wizard.handle(.validation(.verdict(ValidationVerdict(result: .pass))), at: 1), [])
        XCTAssertEqual(wizard.handle(.photoTaken(mode: .auto, width: 1, height: 1), at: 1), [])
        XCTAssertEqual(wizard.handle(.photoSaved(SavedPhoto(photoPath: "x", reportPath: "y")), at: 1), [])
    }

    func testEveryScreenIsReachable() {
        var seen = Set<ScreenName>()
        func record(_ effects: [WizardEffect]) {
            for case .emit(.screen(let name)) in effects { seen.insert(name) }
        }
        var wizard = Wizard(settings: settings())
        record(wizard.handle(.start, at: 0))
        record(wizard.handle(.key(.enter), at: 1))
        record(wizard.handle(.key(.character("q")), at: 2))
        record(wizard.handle(.key(.character("r")), at: 3))
        record(wizard.handle(.key(.enter), at: 3))
        for problem in [denied, busy, none] {
            record(wizard.handle(.cameraFailed(problem), at: 4))
            record(wizard.handle(.key(.character("r")), at: 5))
        }
        record(wizard.handle(.cameraOpened, at: 6))
        record(
            wizard.handle(.frameAnalyzed(FrameGuidance(time: 40, primary: .noFace, manualFallback: .timeout)), at: 7))
        record(wizard.handle(.key(.space), at: 8))
        record(wizard.handle(.photoTaken(mode: .manual, width: 1, height: 1), at: 9))
        record(wizard.handle(.validation(.verdict(ValidationVerdict(result: .retry))), at: 10))
        record(wizard.handle(.key(.enter), at: 11))
        record(wizard.handle(.cameraLost(lost), at: 12))
        record(wizard.handle(.key(.character("r")), at: 13))
        record(wizard.handle(.cameraOpened, at: 14))
        record(wizard.handle(.resized(columns: 10, rows: 5), at: 15))
        record(wizard.handle(.resized(columns: 80, rows: 24), at: 16))
        record(wizard.handle(.frameAnalyzed(ready(50, stability: 1, capture: true)), at: 17))
        record(wizard.handle(.photoTaken(mode: .auto, width: 1, height: 1), at: 18))
        record(wizard.handle(.validation(.verdict(ValidationVerdict(result: .pass))), at: 19))
        record(wizard.handle(.saveFailed(message: "read-only"), at: 20))
        record(wizard.handle(.key(.character("r")), at: 21))
        record(wizard.handle(.photoSaved(SavedPhoto(photoPath: "p", reportPath: "r")), at: 22))
        var final = validating(settings(tutorial: false, attempts: 1))
        record(final.handle(.validation(.verdict(ValidationVerdict(result: .retry))), at: 2))
        record(final.handle(.photoSaved(SavedPhoto(photoPath: "p", reportPath: "r")), at: 3))
        XCTAssertEqual(seen, Set(ScreenName.allCases))
    }

    func testEventRecordsAreTheDocumentedJSON() {
        XCTAssertEqual(
            EventRecord.screen(.capture).json(t: 0.0123), #"{"t":0.012,"event":"screen","screen":"capture"}"#)
        XCTAssertEqual(
            EventRecord.guidance(primary: .moveCloser, hints: [.tooDark]).json(t: 1),
            #"{"t":1,"event":"guidance","primary":"moveCloser","hints":["tooDark"],"slight":[]}"#)
        XCTAssertEqual(
            EventRecord.captured(mode: .auto, attempt: 1, width: 1280, height: 720).json(t: 2.5),
            #"{"t":2.5,"event":"captured","mode":"auto","attempt":1,"width":1280,"height":720}"#)
        XCTAssertEqual(
            EventRecord.validation(result: .retry, reasons: ["tooDark"], attemptsLeft: 2).json(t: 3),
            #"{"t":3,"event":"validation","result":"retry","reasons":["tooDark"],"attemptsLeft":2}"#)
        XCTAssertEqual(
            EventRecord.saved(SavedPhoto(photoPath: "o/a.jpg", reportPath: "o/a.json")).json(t: 4),
            #"{"t":4,"event":"saved","photo":"o/a.jpg","report":"o/a.json"}"#)
        XCTAssertEqual(EventRecord.exit(.manualReview).json(t: 5), #"{"t":5,"event":"exit","code":3}"#)
    }
}

extension WizardTests {
    func testASizeGivenBeforeStartAnnouncesNothingUntilTheFlowStarts() {
        var wizard = Wizard(settings: settings(tutorial: false))
        XCTAssertEqual(wizard.handle(.resized(columns: 100, rows: 32), at: 0), [])
        XCTAssertEqual(wizard.handle(.start, at: 0), [.openCamera, .emit(.screen(.capture))])
        var small = Wizard(settings: settings())
        _ = small.handle(.resized(columns: 30, rows: 10), at: 0)
        XCTAssertEqual(small.handle(.start, at: 0), [.emit(.screen(.terminalTooSmall))])
    }
}
