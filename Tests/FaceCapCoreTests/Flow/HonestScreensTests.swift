import FaceCapCore
import XCTest

/// The capture and Uploading screens say one thing at a time and what is true: no problem named while the
/// Steady bar fills, no "Perfect" beside a hint, the help a pause, one percentage, a visible wait, no flash.
final class HonestScreensTests: XCTestCase {
    private func settings(server: Bool = false, plain: Bool = false) -> WizardSettings {
        var settings = WizardSettings()
        settings.showTutorial = false
        settings.usesServer = server
        settings.serverURL = server ? "https://example.org/selfie" : nil
        settings.plain = plain
        return settings
    }

    private func capturing(_ settings: WizardSettings) -> Wizard {
        var wizard = Wizard(settings: settings)
        _ = wizard.handle(.start, at: 0)
        _ = wizard.handle(.cameraOpened, at: 0.1)
        return wizard
    }

    private func validating(_ settings: WizardSettings, at time: Double = 1.1) -> Wizard {
        var wizard = capturing(settings)
        _ = wizard.handle(
            .frameAnalyzed(FrameGuidance(time: 1, primary: .ready, stability: 1, autoCapture: true)),
            at: 1)
        _ = wizard.handle(.photoTaken(mode: .auto, width: 640, height: 480), at: time)
        return wizard
    }

    // MARK: No contradictions

    func testTheMainMessageNamesNoProblemWhileTheSteadyBarFills() {
        var wizard = capturing(settings())
        // The analyzer's message lags its measures by up to 500 ms: the window already fills.
        let lagging = FrameGuidance(time: 1, primary: .moveCloser, hints: [.tooDark], stability: 0.2)
        XCTAssertEqual(
            wizard.handle(.frameAnalyzed(lagging), at: 1), [.emit(.guidance(primary: .ready, hints: []))],
            "the events say what the screen says")
        let screen = wizard.screen(at: 1)
        XCTAssertEqual(screen.primary, "Perfect — hold still")
        XCTAssertEqual(screen.hints, [])
        XCTAssertEqual(screen.picture, .livePreview(oval: .ready, stability: 0.2))
        XCTAssertEqual(screen.progress, ScreenProgress(fraction: 0.2, label: "Steady"))
        XCTAssertEqual(PlainText.line(for: screen), "[capture] Perfect — hold still")
    }

    func testPerfectNeverComesWithAHint() {
        var wizard = capturing(settings())
        _ = wizard.handle(.frameAnalyzed(FrameGuidance(time: 1, primary: .ready, hints: [.holdStill])), at: 1)
        XCTAssertEqual(wizard.screen(at: 1).primary, "Hold still")
        XCTAssertEqual(wizard.screen(at: 1).hints, [])
        XCTAssertEqual(wizard.screen(at: 1).picture, .livePreview(oval: .adjusting, stability: 0))
        XCTAssertNotEqual(
            PlainText.line(for: wizard.screen(at: 1)), "[capture] Perfect — hold still (also: Hold still)")
        _ = wizard.handle(
            .frameAnalyzed(FrameGuidance(time: 2, primary: .ready, hints: [.tooDark, .holdStill])), at: 2)
        XCTAssertEqual(wizard.screen(at: 2).primary, "Too dark — find more light")
        XCTAssertEqual(wizard.screen(at: 2).hints, ["Hold still"])
    }

    /// Every main message with every pair of hints, with and without the window filling, on the capture and
    /// the manual capture screens.
    func testNoScreenContradictsItselfForAnyGuidance() {
        let ready = Messages.guidance(.ready)
        let codes = GuidanceCode.allCases
        for manual in [false, true] {
            for primary in codes {
                for hint in codes where hint != .ready {
                    for stability in [0.0, 0.4] {
                        var wizard = capturing(settings())
                        let guidance = FrameGuidance(
                            time: 1, primary: primary, hints: [hint, .holdStill],
                            stability: stability,
                            manualFallback: manual ? .timeout : nil)
                        _ = wizard.handle(.frameAnalyzed(guidance), at: 1)
                        let screen = wizard.screen(at: 1)
                        let what = "\(primary) \(hint) \(stability) manual=\(manual)"
                        let said = manual ? screen.hints.first : screen.primary
                        let hints = manual ? Array(screen.hints.dropFirst()) : screen.hints
                        if screen.progress != nil {
                            XCTAssertEqual(said, ready, "a problem named while the Steady bar fills: \(what)")
                        }
                        if said == ready { XCTAssertEqual(hints, [], "Perfect with a hint: \(what)") }
                        XCTAssertFalse(hints.contains(ready), what)
                        if case .livePreview(let oval, _)? = screen.picture {
                            XCTAssertEqual(oval == .ready, said == ready, "the oval and the words disagree: \(what)")
                        }
                    }
                }
            }
        }
    }

    // MARK: Help

    func testTheHelpPausesAutoCaptureAndTheCountdownAndTheCaptureStartsOverWhenItCloses() {
        var wizard = capturing(settings())
        _ = wizard.handle(.frameAnalyzed(FrameGuidance(time: 1, primary: .moveCloser)), at: 1)
        XCTAssertEqual(wizard.screen(at: 1).countdown, "Manual capture in 30 s")
        XCTAssertEqual(wizard.handle(.key(.character("?")), at: 2), [])
        XCTAssertTrue(wizard.showsHelp)
        let filling = FrameGuidance(time: 3, primary: .ready, stability: 0.6)
        XCTAssertEqual(wizard.handle(.frameAnalyzed(filling), at: 3), [], "no guidance acted on behind the help")
        let complete = FrameGuidance(time: 4, primary: .ready, stability: 1, autoCapture: true)
        XCTAssertEqual(wizard.handle(.frameAnalyzed(complete), at: 4), [], "no photo taken behind the help")
        let late = FrameGuidance(time: 40, primary: .moveCloser, manualFallback: .timeout)
        XCTAssertEqual(wizard.handle(.frameAnalyzed(late), at: 40), [], "no manual capture offered behind the help")
        XCTAssertEqual(wizard.screenName, .capture)
        XCTAssertEqual(wizard.screen(at: 40).countdown, "Manual capture in 30 s", "the countdown does not move")
        XCTAssertEqual(wizard.screen(at: 40).primary, "Move closer")
        XCTAssertEqual(wizard.screen(at: 40.5).primary, "Move closer", "frames still come: not a frozen camera")

        // Any key closes it, and the capture starts over (the analyzer's timers too).
        XCTAssertEqual(
            wizard.handle(.key(.character("x")), at: 41),
            [.startAnalysis(CaptureGate(mustClear: [], awaitChange: false))])
        XCTAssertFalse(wizard.showsHelp)
        XCTAssertEqual(
            wizard.handle(
                .frameAnalyzed(
                    FrameGuidance(
                        time: 41, primary: .ready, stability: 1,
                        autoCapture: true)), at: 41.1),
            [.emit(.guidance(primary: .ready, hints: [])), .stopAnalysis, .takePhoto(.auto)])
    }

    func testTheHelpOverManualCaptureKeepsTheOfferAndSpaceOnlyClosesIt() {
        var wizard = capturing(settings())
        _ = wizard.handle(.frameAnalyzed(FrameGuidance(time: 30, primary: .tooDark, manualFallback: .timeout)), at: 30)
        XCTAssertEqual(wizard.screenName, .manualCapture)
        _ = wizard.handle(.key(.character("?")), at: 31)
        XCTAssertEqual(
            wizard.handle(.key(.space), at: 32),
            [.startAnalysis(CaptureGate(mustClear: [], awaitChange: false))], "SPACE closes the help")
        XCTAssertEqual(wizard.screenName, .manualCapture, "the offer stands")
        XCTAssertEqual(wizard.handle(.key(.space), at: 33), [.stopAnalysis, .takePhoto(.manual)])
    }

    func testQWithTheHelpOpenStillQuits() {
        var wizard = capturing(settings())
        _ = wizard.handle(.key(.character("?")), at: 1)
        XCTAssertEqual(
            wizard.handle(.key(.character("q")), at: 2),
            [
                .report(.cancelled), .stopAnalysis, .closeCamera,
                .emit(.exit(.cancelled)), .exit(.cancelled),
            ])
    }

    func testTheHelpClosesWhenTheScreenChanges() {
        // The server could not be reached: help opened there, then the photo is re-sent by itself and accepted.
        var wizard = validating(settings(server: true))
        _ = wizard.handle(.validation(.unreachable(reason: .refused(place: "example.org:443"), retryAfter: nil)), at: 3)
        XCTAssertEqual(wizard.screenName, .connectionError)
        _ = wizard.handle(.key(.character("?")), at: 3.5)
        XCTAssertTrue(wizard.screen(at: 3.5).showsHelp)
        XCTAssertEqual(wizard.helpOverlay?.over, .connectionError, "the help knows the screen it was opened over")
        XCTAssertEqual(wizard.handle(.tick, at: 4), [.validate(ValidationRequest(attempt: 1, isFinal: false))])
        XCTAssertTrue(wizard.showsHelp, "still the same screen")
        _ = wizard.handle(.validation(.verdict(ValidationVerdict(result: .pass))), at: 4.2)
        _ = wizard.handle(.photoSaved(SavedPhoto(photoPath: "out/p.jpg", reportPath: "out/p.json")), at: 4.3)
        XCTAssertEqual(wizard.screenName, .success)
        XCTAssertFalse(wizard.showsHelp, "the help is not left over Success")
        XCTAssertNil(wizard.helpOverlay)
        XCTAssertFalse(wizard.screen(at: 4.3).showsHelp)

        // Opened while the camera starts, it closes when the camera cannot be opened.
        var starting = Wizard(settings: settings())
        _ = starting.handle(.start, at: 0)
        _ = starting.handle(.key(.character("?")), at: 0.05)
        XCTAssertTrue(starting.showsHelp)
        _ = starting.handle(.cameraFailed(CameraProblem(kind: .busy, message: "busy", exitCode: .noCamera)), at: 0.1)
        XCTAssertEqual(starting.screenName, .cameraBusy)
        XCTAssertFalse(starting.showsHelp)
    }

    // MARK: Uploading

    func testUploadingSaysOnePercentageThenWaitsVisiblyWithTheTimeOut() {
        var wizard = validating(settings(server: true), at: 1.1)
        _ = wizard.handle(.validation(.progress(0.4)), at: 1.3)
        var screen = wizard.screen(at: 1.3)
        XCTAssertEqual(screen.progress, ScreenProgress(fraction: 0.4, label: "Sending"))
        XCTAssertFalse(screen.progress!.label.contains("%"), "the percentage is said once, by the bar")
        XCTAssertNil(screen.countdown, "the bar moves: no need for a spinner yet")
        XCTAssertTrue(
            screen.lines.contains("Ctrl-C cancels: the photo is then saved without a check."), "\(screen.lines)")

        _ = wizard.handle(.validation(.progress(1)), at: 1.6)
        screen = wizard.screen(at: 1.6)
        XCTAssertEqual(screen.countdown, "Waiting for the answer: 0 s (time-out 30 s)")
        let first = screen.spinner
        XCTAssertNotNil(first)
        screen = wizard.screen(at: 5.2)
        XCTAssertEqual(screen.countdown, "Waiting for the answer: 4 s (time-out 30 s)")
        XCTAssertNotEqual(screen.spinner, first, "the spinner turns")
        XCTAssertNotEqual(wizard.screen(at: 5.45).spinner, screen.spinner, "at every tick (four a second)")
        XCTAssertEqual(
            PlainText.line(for: wizard.screen(at: 1.6)), PlainText.line(for: wizard.screen(at: 5.2)),
            "the seconds are not a new --plain line")
    }

    func testTheBuiltInCheckSaysItsSecondsAndCancelling() {
        let wizard = validating(settings(), at: 1.1)
        let screen = wizard.screen(at: 1.2)
        XCTAssertEqual(screen.progress?.label, "Checking")
        XCTAssertEqual(screen.countdown, "Checking on this machine: 0 s")
        XCTAssertNotNil(screen.spinner)
        XCTAssertTrue(screen.lines.contains("Ctrl-C cancels (the photo is not kept)."), "\(screen.lines)")
    }

    func testAQuickAnswerWaitsUntilTheUploadingScreenHasBeenUpASecond() {
        var wizard = validating(settings(), at: 1.1)
        XCTAssertEqual(wizard.handle(.validation(.progress(0.6)), at: 1.12), [])
        XCTAssertEqual(
            wizard.handle(.validation(.verdict(ValidationVerdict(result: .pass))), at: 1.13), [],
            "held: the screen would flash for 30 ms")
        XCTAssertEqual(wizard.screenName, .uploading)
        XCTAssertEqual(wizard.nextDeadline ?? 0, 2.1, accuracy: 1e-9)
        XCTAssertNil(wizard.screen(at: 1.5).spinner, "the answer is in: nothing is waited for")
        XCTAssertEqual(wizard.screen(at: 1.5).progress?.fraction, 1)
        XCTAssertEqual(wizard.handle(.tick, at: 1.6), [])
        XCTAssertEqual(
            wizard.handle(.tick, at: 2.1),
            [.emit(.validation(result: .pass, reasons: [], attemptsLeft: 3)), .save(ValidationVerdict(result: .pass))])

        // An answer after the second is acted on at once; plain mode holds nothing.
        var slow = validating(settings(server: true), at: 1.1)
        XCTAssertEqual(
            slow.handle(.validation(.verdict(ValidationVerdict(result: .pass))), at: 2.5).last,
            .save(ValidationVerdict(result: .pass)))
        var plain = validating(settings(plain: true), at: 1.1)
        XCTAssertEqual(
            plain.handle(.validation(.verdict(ValidationVerdict(result: .pass))), at: 1.13).last,
            .save(ValidationVerdict(result: .pass)))
        // A server that could not be reached is held too, then named.
        var unreachable = validating(settings(server: true), at: 1.1)
        XCTAssertEqual(
            unreachable.handle(
                .validation(
                    .unreachable(
                        reason: .refused(place: "example.org:443"),
                        retryAfter: nil)), at: 1.2), [])
        _ = unreachable.handle(.tick, at: 2.1)
        XCTAssertEqual(unreachable.screenName, .connectionError)
    }

    func testCtrlCWhileAnAnswerIsHeldStillEndsTheRun() {
        var wizard = validating(settings(), at: 1.1)
        _ = wizard.handle(.validation(.verdict(ValidationVerdict(result: .pass))), at: 1.13)
        XCTAssertEqual(wizard.handle(.stop, at: 1.5).last, .exit(.cancelled))
        // With a server, the answer it gave is acted on before the stop: its pass is saved as a pass, the upload
        // that is over is not cancelled.
        var server = validating(settings(server: true), at: 1.1)
        _ = server.handle(.validation(.verdict(ValidationVerdict(result: .pass))), at: 1.13)
        let effects = server.handle(.stop, at: 1.5)
        XCTAssertTrue(effects.contains(.save(ValidationVerdict(result: .pass))), "\(effects)")
        XCTAssertFalse(effects.contains(.cancelValidation), "\(effects)")
        XCTAssertFalse(effects.contains(.save(nil)), "\(effects)")
    }
}
