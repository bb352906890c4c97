import FaceCapCore
import XCTest

/// The server checked before the camera opens, server answers named for what they are, and the camera and
/// clip screens (each fact once, the summary on standard error on every way out, words for a replayed clip):
/// table tests of the flow, events in, effects and screens out.
final class ServerCheckFlowTests: XCTestCase {
    private func settings(plain: Bool = false, tutorial: Bool = false, token: Bool = false) -> WizardSettings {
        var settings = WizardSettings()
        settings.plain = plain
        settings.showTutorial = tutorial
        settings.usesServer = true
        settings.serverURL = "https://id.example.org/selfie"
        settings.checkServer = true
        settings.sendsToken = token
        // These tables answer within a second of the checking screen: no minimum display time to wait out
        // (HonestScreensTests tests it).
        settings.minimumCheckingDisplay = 0
        return settings
    }

    private let refused = ConnectionFailure.refused(place: "127.0.0.1:9")
    private let unavailable = ConnectionFailure.serverError(status: 503, message: "down for maintenance")

    /// A wizard whose pre-flight answered `check` (no tutorial: the camera was asked for at once).
    private func answered(_ check: ServerCheck, _ settings: WizardSettings) -> (Wizard, [WizardEffect]) {
        var wizard = Wizard(settings: settings)
        XCTAssertEqual(wizard.handle(.start, at: 0), [.checkServer, .emit(.screen(.capture))])
        XCTAssertEqual(wizard.state, .checkingServer)
        XCTAssertEqual(wizard.screen(at: 0).primary, "Asking https://id.example.org/selfie whether it takes photos…")
        let effects = wizard.handle(.serverChecked(check), at: 0.2)
        return (wizard, effects)
    }

    private func keys(_ wizard: Wizard) -> [String] { wizard.keyHelp.map(\.key) }

    func testTheCameraOpensOnlyOnceTheServerAnsweredReady() {
        let (wizard, effects) = answered(.ready, settings())
        XCTAssertEqual(effects, [.openCamera])
        XCTAssertEqual(wizard.state, .opening)
    }

    func testThePreflightRunsWhileTheTutorialIsReadAndItsAnswerWaitsForTheCamera() {
        var wizard = Wizard(settings: settings(tutorial: true))
        XCTAssertEqual(wizard.handle(.start, at: 0), [.checkServer, .emit(.screen(.tutorial))])
        XCTAssertEqual(wizard.handle(.serverChecked(.refused(status: 404, message: "no such path")), at: 0.1), [])
        XCTAssertEqual(wizard.screenName, .tutorial, "the tutorial is not cut short")
        _ = wizard.handle(.key(.enter), at: 1)
        XCTAssertEqual(
            wizard.handle(.key(.enter), at: 2), [.emit(.screen(.connectionError))],
            "the camera stays off: the address is wrong")
        XCTAssertEqual(wizard.screen(at: 2).title, "No validation service at this address")
    }

    func testA404NamesTheAddressNotTheToken() {
        let (wizard, effects) = answered(.refused(status: 404, message: ""), settings(token: true))
        XCTAssertEqual(effects, [.emit(.screen(.connectionError))])
        let screen = wizard.screen(at: 0.2)
        XCTAssertEqual(screen.title, "No validation service at this address")
        XCTAssertFalse(screen.lines.joined().contains("FACECAP_TOKEN"), "\(screen.lines)")
        XCTAssertEqual(
            screen.lines,
            [
                "The server answered HTTP 404.",
                "Check the address given with --server (https://id.example.org/selfie), then "
                    + "start facecap again.",
            ], "each fact once")
        XCTAssertEqual(keys(wizard), ["r", "q", "?"], "waiting cannot mend an address: no taking the photo anyway")
        XCTAssertNil(screen.countdown)
    }

    /// The line on standard error is one sentence: the status as a clause after the label, not the screen's
    /// own sentence (no capital and full stop mid-line), in every shipped language.
    func testTheLineOnStandardErrorForA404IsOneSentenceInEveryLanguage() throws {
        var (english, _) = answered(.refused(status: 404, message: ""), settings())
        XCTAssertEqual(
            english.handle(.key(.character("q")), at: 1).first,
            .report(.serverCheck(.refused(status: 404, message: ""))))
        XCTAssertEqual(
            ReportLine.serverCheck(.refused(status: 404, message: "")).text,
            "the server was checked before the camera opened: the server answered HTTP 404")
        for translations in try shippedTranslations() {
            let line: String? = speaking(translations) {
                var wizard = Wizard(settings: settings())
                _ = wizard.handle(.start, at: 0)
                _ = wizard.handle(.serverChecked(.refused(status: 404, message: "")), at: 0.2)
                guard case .report(let line)? = wizard.handle(.key(.character("q")), at: 1).first else { return nil }
                return line.text
            }
            let said = try XCTUnwrap(line, translations.language)
            let label = speaking(translations) { Words.text(.separatorLabel) }
            let rest = try XCTUnwrap(said.components(separatedBy: label).last, said)
            XCTAssertTrue(rest.contains("404"), "\(translations.language): \(said)")
            XCTAssertFalse(
                rest.first.map { $0.isUppercase } ?? true,
                "\(translations.language): a capital after the colon: \(said)")
            XCTAssertFalse(said.hasSuffix(".") || said.hasSuffix("。"), "\(translations.language): a full stop: \(said)")
            XCTAssertFalse(said.contains("{"), said)
        }
    }

    func testA401SaysWhetherTheTokenIsMissingOrRefusedAndQuitSaysItOnStandardError() {
        let (missing, _) = answered(.refused(status: 401, message: "a token is needed"), settings())
        XCTAssertEqual(missing.screen(at: 1).title, "The server did not accept the token")
        XCTAssertEqual(
            missing.screen(at: 1).lines,
            ["HTTP 401: a token is needed", "This server needs a token: set FACECAP_TOKEN, then start facecap again."])
        var (wrong, _) = answered(.refused(status: 401, message: "bad token"), settings(token: true))
        XCTAssertEqual(
            wrong.screen(at: 1).lines.last,
            "Set FACECAP_TOKEN to a token this server accepts, then start "
                + "facecap again.")
        XCTAssertEqual(
            wrong.handle(.key(.character("q")), at: 2),
            [
                .report(.serverCheck(.refused(status: 401, message: "bad token"))),
                .stopAnalysis, .closeCamera, .emit(.exit(.failure)), .exit(.failure),
            ])
        let (forbidden, _) = answered(.refused(status: 403, message: "not for this client"), settings(token: true))
        XCTAssertEqual(forbidden.screen(at: 1).title, "The server refused access")
    }

    func testA503IsAServerThatAnsweredRetriedWithBackoffAndThePhotoCanBeTakenAnyway() {
        var (wizard, effects) = answered(.unreachable(unavailable), settings())
        XCTAssertEqual(effects, [.emit(.screen(.connectionError))])
        let screen = wizard.screen(at: 0.2)
        XCTAssertEqual(screen.title, "The server answered with an error")
        XCTAssertNotEqual(screen.title, "Cannot reach the server", "it answered")
        XCTAssertEqual(
            screen.lines,
            [
                "the server failed (HTTP 503): down for maintenance",
                "The server is there but failing; facecap checks again by itself. Press c to take "
                    + "the photo anyway: it is kept and sent once the server answers.",
            ])
        XCTAssertEqual(screen.countdown, "Checking again in 1 s")
        XCTAssertEqual(keys(wizard), ["r", "c", "q", "?"])
        XCTAssertEqual(wizard.handle(.tick, at: 0.5), [])
        XCTAssertEqual(wizard.handle(.tick, at: 1.25), [.checkServer])
        XCTAssertEqual(wizard.screen(at: 1.25).countdown, "Checking the server again…")
        XCTAssertEqual(wizard.handle(.serverChecked(.unreachable(refused)), at: 1.3), [])
        XCTAssertEqual(wizard.screen(at: 1.3).title, "Cannot reach the server")
        XCTAssertEqual(wizard.screen(at: 1.3).countdown, "Checking again in 2 s", "backoff")
        XCTAssertEqual(wizard.handle(.key(.character("c")), at: 1.5), [.openCamera, .emit(.screen(.capture))])
        XCTAssertEqual(
            wizard.handle(.cameraOpened, at: 1.6),
            [.startAnalysis(CaptureGate(mustClear: [], awaitChange: false))])
    }

    func testRRetriesAndAServerThatComesBackOpensTheCamera() {
        var (wizard, _) = answered(.unreachable(refused), settings())
        XCTAssertEqual(wizard.handle(.key(.character("r")), at: 0.3), [.checkServer])
        XCTAssertEqual(keys(wizard), ["q", "?"], "one check at a time")
        XCTAssertEqual(wizard.handle(.serverChecked(.ready), at: 0.4), [.openCamera, .emit(.screen(.capture))])
    }

    func testQuittingAnUnreachableServerIs75AndCtrlCIs130BothWithTheLine() {
        var (quit, _) = answered(.unreachable(refused), settings())
        XCTAssertEqual(
            quit.handle(.key(.character("q")), at: 1),
            [
                .report(.serverCheck(.unreachable(refused))),
                .stopAnalysis, .closeCamera, .emit(.exit(.serverUnreachable)), .exit(.serverUnreachable),
            ])
        var (interrupted, _) = answered(.unreachable(refused), settings())
        XCTAssertEqual(
            interrupted.handle(.stop, at: 1).first,
            .report(.serverCheck(.unreachable(refused))))
        XCTAssertTrue(interrupted.isFinished)
    }

    func testPlainModeEndsOnARefusalAndGoesOnWithoutAServerThatCannotBeReached() {
        let (refusedRun, effects) = answered(.refused(status: 401, message: "a token is needed"), settings(plain: true))
        XCTAssertEqual(
            effects,
            [
                .report(.serverCheck(.refused(status: 401, message: "a token is needed"))),
                .stopAnalysis, .closeCamera, .emit(.exit(.failure)), .exit(.failure),
            ])
        XCTAssertTrue(refusedRun.isFinished)
        var (down, shown) = answered(.unreachable(refused), settings(plain: true))
        XCTAssertEqual(shown, [.emit(.screen(.connectionError))], "the line is printed")
        XCTAssertEqual(down.nextDeadline, 0.2)
        XCTAssertEqual(down.handle(.tick, at: 0.2), [.openCamera, .emit(.screen(.capture))])
    }

    func testThePreflightIsOneValueAndNoAnswerIsActedOnUnasked() {
        var tutorial = Wizard(settings: settings(tutorial: true))
        XCTAssertEqual(tutorial.preFlight, .notAsked)
        _ = tutorial.handle(.start, at: 0)
        XCTAssertEqual(tutorial.preFlight, .inFlight)
        _ = tutorial.handle(.serverChecked(.ready), at: 0.1)
        XCTAssertEqual(tutorial.preFlight, .cleared)
        XCTAssertEqual(tutorial.handle(.serverChecked(.unreachable(refused)), at: 0.2), [], "nothing was asked")
        XCTAssertEqual(tutorial.preFlight, .cleared)

        var (wizard, _) = answered(.unreachable(refused), settings())
        XCTAssertEqual(wizard.preFlight, .answered(.unreachable(refused)))
        _ = wizard.handle(.key(.character("r")), at: 0.3)
        XCTAssertEqual(wizard.preFlight, .inFlight, "the old answer is gone while the new check is out")
        _ = wizard.handle(.serverChecked(.unreachable(refused)), at: 0.4)
        _ = wizard.handle(.key(.character("c")), at: 0.5)
        XCTAssertEqual(wizard.preFlight, .cleared)
        XCTAssertEqual(wizard.handle(.serverChecked(.ready), at: 0.6), [], "a late answer changes nothing")
        XCTAssertEqual(wizard.state, .opening)
    }

    func testWithoutAServerNothingIsChecked() {
        var settings = WizardSettings()
        settings.showTutorial = false
        var wizard = Wizard(settings: settings)
        XCTAssertEqual(wizard.handle(.start, at: 0), [.openCamera, .emit(.screen(.capture))])
    }

    // MARK: Answers after the upload, named for what they are

    private func validating(_ settings: WizardSettings) -> Wizard {
        var (wizard, _) = answered(.ready, settings)
        _ = wizard.handle(.cameraOpened, at: 0.3)
        _ = wizard.handle(
            .frameAnalyzed(FrameGuidance(time: 1, primary: .ready, stability: 1, autoCapture: true)), at: 1)
        _ = wizard.handle(.photoTaken(mode: .auto, width: 640, height: 480), at: 1.1)
        return wizard
    }

    func testAnUpload503IsNotTitledCannotReachTheServer() {
        var wizard = validating(settings())
        _ = wizard.handle(.validation(.unreachable(reason: unavailable, retryAfter: nil)), at: 2)
        XCTAssertEqual(wizard.screen(at: 2).title, "The server answered with an error")
        var unreachable = validating(settings())
        _ = unreachable.handle(.validation(.unreachable(reason: refused, retryAfter: nil)), at: 2)
        XCTAssertEqual(unreachable.screen(at: 2).title, "Cannot reach the server")
    }

    func testAnUpload404NamesTheAddressAndA401TheToken() {
        var notFound = validating(settings())
        _ = notFound.handle(.validation(.refused(status: 404, message: "no such path")), at: 2)
        XCTAssertFalse(
            notFound.screen(at: 2).lines.joined().contains("FACECAP_TOKEN"), "\(notFound.screen(at: 2).lines)")
        XCTAssertTrue(notFound.screen(at: 2).lines.joined().contains("--server address"))
        var token = validating(settings())
        _ = token.handle(.validation(.refused(status: 401, message: "bad token")), at: 2)
        XCTAssertTrue(token.screen(at: 2).lines.joined().contains("FACECAP_TOKEN"))
        var tooLarge = validating(settings())
        _ = tooLarge.handle(.validation(.refused(status: 413, message: "photo too large")), at: 2)
        XCTAssertFalse(tooLarge.screen(at: 2).lines.joined().contains("FACECAP_TOKEN"))
    }

    // MARK: Camera screens

    private var cameraSettings: WizardSettings {
        var settings = WizardSettings()
        settings.showTutorial = false
        settings.minimumCheckingDisplay = 0
        return settings
    }

    // Computed, not stored: XCTest keeps every test case object to the end, and LeakSanitizer would count a
    // stored problem's strings as facecap's leaks.
    private var denied: CameraProblem {
        CameraProblem(
            CameraError.permissionDenied(
                path: "/dev/video0",
                access: DeviceAccess(
                    owner: "root", group: "video", mode: "crw-rw----", userGroups: ["alice", "sudo"])))
    }

    func testQuittingACameraThatCannotOpenPrintsItsSummaryOnEveryWayOut() {
        let none = CameraProblem(CameraError.noCamera(directory: "/dev"))
        for (problem, code) in [(denied, ExitCode.permissionDenied), (none, .noCamera)] {
            for (event, exit) in [
                (WizardEvent.key(.character("q")), code), (.key(.escape), code),
                (.stop, .cancelled),
            ] {
                var wizard = Wizard(settings: cameraSettings)
                _ = wizard.handle(.start, at: 0)
                _ = wizard.handle(.cameraFailed(problem), at: 0.1)
                XCTAssertEqual(
                    wizard.handle(event, at: 1),
                    [
                        .report(.camera(problem, advice: false)), .stopAnalysis, .closeCamera, .emit(.exit(exit)),
                        .exit(exit),
                    ],
                    "\(problem.kind) \(event)")
            }
        }
    }

    func testEachCameraFactIsSaidOnce() {
        var wizard = Wizard(settings: cameraSettings)
        _ = wizard.handle(.start, at: 0)
        _ = wizard.handle(.cameraFailed(denied), at: 0.1)
        let lines = wizard.screen(at: 0.1).lines
        XCTAssertFalse(lines.contains(denied.message), "the raw sentence is for standard error")
        XCTAssertEqual(
            lines.filter { $0.contains("/dev/video0") }.count, 2,
            "the device once, and once in the pass-through command: \(lines)")
        XCTAssertEqual(lines.filter { $0.contains("crw-rw----") }.count, 1, "\(lines)")
        XCTAssertEqual(lines.filter { $0.contains("alice, sudo") }.count, 1, "\(lines)")
        var none = Wizard(settings: cameraSettings)
        _ = none.handle(.start, at: 0)
        _ = none.handle(.cameraFailed(CameraProblem(CameraError.noCamera(directory: "/dev"))), at: 0.1)
        let noneLines = none.screen(at: 0.1).lines
        XCTAssertEqual(noneLines.filter { $0.contains("--input") }.count, 1, "\(noneLines)")
        XCTAssertEqual(noneLines.filter { $0.lowercased().contains("connect a webcam") }.count, 1, "\(noneLines)")
        XCTAssertFalse(noneLines.contains { $0.lowercased().hasPrefix("no camera found") }, "the title says it")
        XCTAssertEqual(noneLines.filter { $0.contains("/dev") && !$0.hasPrefix("$") }.count, 1, "\(noneLines)")
    }

    // MARK: Key d: choosing another camera

    private let twoCameras = [
        CameraChoice(
            path: "/dev/video0", description: "Integrated Camera (uvcvideo, usb-0000:00:14.0-5)", isCurrent: true),
        CameraChoice(path: "/dev/video2", description: "USB Camera (uvcvideo, usb-0000:00:14.0-2)"),
    ]

    private func picking(_ problem: CameraProblem) -> Wizard {
        var wizard = Wizard(settings: cameraSettings)
        _ = wizard.handle(.start, at: 0)
        _ = wizard.handle(.cameraFailed(problem), at: 0.1)
        XCTAssertEqual(wizard.handle(.key(.character("d")), at: 1), [.listCameras])
        XCTAssertEqual(wizard.screen(at: 1).lines, ["Looking for cameras…"])
        return wizard
    }

    func testDListsTheCamerasAndANumberOpensThatOne() {
        var wizard = picking(denied)
        XCTAssertEqual(wizard.handle(.camerasListed(twoCameras), at: 1.1), [])
        let screen = wizard.screen(at: 1.1)
        XCTAssertEqual(screen.name, .permissionDenied)
        XCTAssertEqual(screen.title, "Choose a camera")
        XCTAssertEqual(
            screen.lines,
            [
                "Press the number of the camera to use:",
                "1  /dev/video0  Integrated Camera (uvcvideo, usb-0000:00:14.0-5) (tried last)",
                "2  /dev/video2  USB Camera (uvcvideo, usb-0000:00:14.0-2)",
            ])
        XCTAssertEqual(keys(wizard), ["1–2", "r", "Esc", "q", "?"])
        XCTAssertEqual(wizard.handle(.key(.character("3")), at: 2), [], "no third camera")
        XCTAssertEqual(
            wizard.handle(.key(.character("2")), at: 2),
            [
                .chooseCamera("/dev/video2"), .openCamera,
                .emit(.screen(.capture)),
            ])
    }

    func testDSaysWhenThereIsNoOtherCameraAndEscGoesBack() {
        var wizard = picking(CameraProblem(CameraError.noCamera(directory: "/dev")))
        _ = wizard.handle(.camerasListed([twoCameras[0]]), at: 1.1)
        XCTAssertEqual(
            wizard.screen(at: 1.1).lines,
            ["No other camera was found: /dev/video0 is the only one. Connect another and press r."])
        XCTAssertEqual(keys(wizard), ["r", "Esc", "q", "?"])
        XCTAssertEqual(wizard.handle(.key(.character("1")), at: 1.2), [], "the only camera is not offered again")
        XCTAssertEqual(wizard.handle(.key(.character("r")), at: 1.3), [.listCameras])
        _ = wizard.handle(.camerasListed([]), at: 1.4)
        XCTAssertEqual(wizard.screen(at: 1.4).lines, ["No camera was found. Connect one and press r to look again."])
        XCTAssertEqual(wizard.handle(.key(.escape), at: 2), [])
        XCTAssertEqual(wizard.screen(at: 2).title, "No camera found")
        XCTAssertEqual(wizard.screen(at: 2).countdown, "Looking again in 1 s", "its automatic retry runs again")
    }

    func testQuittingThePickerEndsAsTheScreenItCameFromWithItsLine() {
        var wizard = picking(denied)
        _ = wizard.handle(.camerasListed(twoCameras), at: 1.1)
        XCTAssertEqual(
            wizard.handle(.key(.character("q")), at: 2),
            [
                .report(.camera(denied, advice: false)), .stopAnalysis, .closeCamera, .emit(.exit(.permissionDenied)),
                .exit(.permissionDenied),
            ])
    }

    // MARK: Could not save the photo: another folder

    func testSaveFailedLetsThePersonTypeAnotherFolderAndSavesThere() {
        var wizard = Wizard(settings: cameraSettings)
        _ = wizard.handle(.start, at: 0)
        _ = wizard.handle(.cameraOpened, at: 0.1)
        _ = wizard.handle(
            .frameAnalyzed(FrameGuidance(time: 1, primary: .ready, stability: 1, autoCapture: true)), at: 1)
        _ = wizard.handle(.photoTaken(mode: .auto, width: 640, height: 480), at: 1.1)
        let pass = ValidationVerdict(result: .pass)
        XCTAssertEqual(wizard.handle(.validation(.verdict(pass)), at: 1.2).last, .save(pass))
        XCTAssertEqual(
            wizard.handle(.saveFailed(message: "out: the folder is read-only"), at: 1.3),
            [.emit(.screen(.saveFailed))])
        XCTAssertEqual(keys(wizard), ["r", "o", "q", "?"])
        XCTAssertEqual(wizard.screen(at: 1.3).lines.last, "Or press o to type another folder to save it in.")
        _ = wizard.handle(.key(.character("o")), at: 2)
        XCTAssertEqual(keys(wizard), ["Enter", "Esc"], "the field takes every other key")
        for key in [
            Key.character("/"), .character("t"), .character("m"), .character("p"), .character("/"),
            .character("q"), .character("r"), .space, .character("x"), .backspace, .backspace, .character("s"),
        ] {
            XCTAssertEqual(wizard.handle(.key(key), at: 2.1), [], "\(key) types, q and r included")
        }
        XCTAssertEqual(wizard.screen(at: 2.1).lines.last, "> /tmp/qrs_")
        XCTAssertEqual(
            wizard.handle(.key(.enter), at: 3),
            [
                .saveIn(directory: "/tmp/qrs", verdict: pass),
                .emit(.screen(.uploading)),
            ])
        let saved = SavedPhoto(photoPath: "/tmp/qrs/facecap-1.jpg", reportPath: "/tmp/qrs/facecap-1.json")
        XCTAssertEqual(wizard.handle(.photoSaved(saved), at: 3.1).first, .emit(.saved(saved)))
        XCTAssertEqual(wizard.screenName, .success)
    }

    func testEscOrAnEmptyFieldGoesBackWithoutSaving() {
        var wizard = Wizard(settings: cameraSettings)
        _ = wizard.handle(.start, at: 0)
        _ = wizard.handle(.cameraOpened, at: 0.1)
        _ = wizard.handle(
            .frameAnalyzed(FrameGuidance(time: 1, primary: .ready, stability: 1, autoCapture: true)), at: 1)
        _ = wizard.handle(.photoTaken(mode: .auto, width: 640, height: 480), at: 1.1)
        _ = wizard.handle(.validation(.verdict(ValidationVerdict(result: .pass))), at: 1.2)
        _ = wizard.handle(.saveFailed(message: "out: the disk is full"), at: 1.3)
        _ = wizard.handle(.key(.character("o")), at: 2)
        _ = wizard.handle(.key(.character("x")), at: 2)
        XCTAssertEqual(wizard.handle(.key(.escape), at: 2), [])
        XCTAssertEqual(keys(wizard), ["r", "o", "q", "?"])
        _ = wizard.handle(.key(.character("o")), at: 3)
        XCTAssertEqual(wizard.handle(.key(.enter), at: 3), [])
        XCTAssertEqual(keys(wizard), ["r", "o", "q", "?"])
    }

    func testAReplayedClipIsNotCalledACamera() {
        var settings = WizardSettings()
        settings.sourceIsClip = true
        settings.source = .clip("clip.y4m")
        var wizard = Wizard(settings: settings)
        _ = wizard.handle(.start, at: 0)
        _ = wizard.handle(.key(.enter), at: 1)
        XCTAssertEqual(wizard.screen(at: 1).title, "facecap replays your clip")
        _ = wizard.handle(.key(.character("q")), at: 2)
        let dismissed = wizard.screen(at: 2)
        XCTAssertEqual(dismissed.name, .permissionDismissed)
        XCTAssertEqual(dismissed.title, "The clip was not replayed")
        let words = ([dismissed.title] + dismissed.lines).joined(separator: "\n").lowercased()
        XCTAssertFalse(words.contains("camera"), words)
        XCTAssertFalse(words.contains("replay a"), words)
        XCTAssertFalse(dismissed.lines.contains { $0.hasPrefix("$ ") }, "\(dismissed.lines)")
    }

    /// Issue 18: with `--input`, the error screens spoke of a camera and offered another one. A clip that cannot
    /// be read and a clip that ended say "clip", offer no `d` (there is no other camera to pick for a file) and
    /// name their `r` for the clip.
    func testAClipThatCannotBeReadOrEndsIsNotCalledACameraAndOffersNoOtherCamera() {
        var settings = WizardSettings()
        settings.sourceIsClip = true
        settings.source = .clip("clip.y4m")
        settings.showTutorial = false
        var wizard = Wizard(settings: settings)
        XCTAssertEqual(wizard.handle(.start, at: 0), [.openCamera, .emit(.screen(.capture))])
        let unreadable = CameraProblem(
            kind: .noCamera, message: "clip.y4m: damaged or invalid (no frames)",
            exitCode: .noCamera)
        _ = wizard.handle(.cameraFailed(unreadable), at: 0.1)
        let failed = wizard.screen(at: 0.2)
        XCTAssertEqual(failed.title, "The clip cannot be read")
        XCTAssertFalse(
            ([failed.title] + failed.lines).joined(separator: "\n").lowercased().contains("camera"),
            "\(failed.title) \(failed.lines)")
        XCTAssertFalse(keys(wizard).contains("d"), "\(wizard.keyHelp)")

        var replay = Wizard(settings: settings)
        _ = replay.handle(.start, at: 0)
        _ = replay.handle(.cameraOpened, at: 0.1)
        let ended = CameraProblem(
            kind: .lost, message: "clip.y4m: the clip ended after 90 frames", exitCode: .failure,
            recoverable: false)
        _ = replay.handle(.cameraLost(ended), at: 3)
        let screen = replay.screen(at: 3)
        XCTAssertEqual(screen.title, "The clip ended")
        XCTAssertFalse(
            ([screen.title] + screen.lines).joined(separator: "\n").lowercased().contains("camera"),
            "\(screen.title) \(screen.lines)")
        XCTAssertTrue(replay.keyHelp.contains(KeyHelp("r", "replay the clip")), "\(replay.keyHelp)")
        XCTAssertFalse(keys(replay).contains("d"), "\(replay.keyHelp)")
    }
}
