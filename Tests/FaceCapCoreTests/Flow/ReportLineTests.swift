import FaceCapCore
import XCTest

/// The line on standard error leaves the flow as a value (`ReportLine`) and is worded by the Screens layer: the
/// words the flow's tests once read off its effects, each line here.
final class ReportLineTests: XCTestCase {
    private let clipEnded = CameraProblem(
        kind: .lost, message: "clip.y4m: the clip ended after 90 frames",
        exitCode: .failure, recoverable: false)

    func testEachLineIsWordedAsTheFlowSaidItBefore() {
        let refused = ConnectionFailure.refused(place: "127.0.0.1:9")
        let lines: [(ReportLine, String)] = [
            (.cancelled, "cancelled before a photo was saved"),
            (.saved(path: "out/facecap-1.jpg"), "photo saved: out/facecap-1.jpg"),
            (.manualReview(path: "b.jpg"), "photo submitted for manual review, saved: b.jpg"),
            (.notValidated(path: "c.jpg", why: nil), "the photo was not validated and is saved in c.jpg"),
            (.notSaved(reason: "disk full", why: nil), "the photo could not be saved: disk full"),
            (.notSavedQuit(reason: "disk full"), "the photo was not saved: disk full"),
            (
                .notValidated(path: "d.jpg", why: .refused(status: 413, message: "Too large. Send a smaller one.")),
                "the server refused the photo (HTTP 413): too large; send a smaller one; the photo was not validated "
                    + "and is saved in d.jpg"
            ),
            (
                .serverCheck(.refused(status: 404, message: "")),
                "the server was checked before the camera opened: the server answered HTTP 404"
            ),
            (
                .serverCheck(.refused(status: 401, message: "bad token")),
                "the server was checked before the camera opened: HTTP 401: bad token"
            ),
            (
                .serverCheck(.refused(status: 401, message: "a token is needed")),
                "the server was checked before the camera opened: HTTP 401: a token is needed"
            ),
            (
                .serverCheck(.unreachable(refused)),
                "the server was checked before the camera opened: connection refused by 127.0.0.1:9"
            ),
            (.camera(clipEnded, advice: false), clipEnded.message),
            (.camera(clipEnded, advice: true), clipEnded.message),
        ]
        for (line, text) in lines {
            XCTAssertEqual(line.text, text)
        }
    }

    /// A plain run has no terminal size, but the flow must not depend on that: a screen event names the screen the
    /// state shows. A clip that ends while "terminal too small" is shown announces no Connection error, as the
    /// full screen does not (review 2026-12-05, §4 item 9: the announcement was written by hand, state unchanged).
    func testAPlainEndAnnouncesOnlyTheScreenItsStateShows() {
        for plain in [false, true] {
            var settings = WizardSettings()
            settings.plain = plain
            settings.showTutorial = false
            var wizard = Wizard(settings: settings)
            _ = wizard.handle(.start, at: 0)
            _ = wizard.handle(.cameraOpened, at: 0.1)
            XCTAssertEqual(wizard.handle(.resized(columns: 10, rows: 5), at: 0.2), [.emit(.screen(.terminalTooSmall))])
            let effects = wizard.handle(.cameraLost(clipEnded), at: 3)
            XCTAssertFalse(effects.contains(.emit(.screen(.connectionError))), "plain \(plain): \(effects)")
            XCTAssertEqual(wizard.screenName, .terminalTooSmall, "plain \(plain)")
        }
    }

    /// The photo's attempt and whether it is the last are decided by the flow once: what the session writes into the
    /// photo's report is what the check is asked with.
    func testTheCurrentRequestIsTheOneTheCheckIsAskedWith() {
        var settings = WizardSettings()
        settings.showTutorial = false
        settings.attempts = 2
        settings.minimumCheckingDisplay = 0
        var wizard = Wizard(settings: settings)
        var requests: [ValidationRequest] = []
        var current: [ValidationRequest] = []
        var t = 0.0
        _ = wizard.handle(.start, at: t)
        for _ in 0..<2 {
            t += 1
            _ = wizard.handle(.cameraOpened, at: t)
            _ = wizard.handle(
                .frameAnalyzed(FrameGuidance(time: t, primary: .ready, stability: 1, autoCapture: true)),
                at: t)
            current.append(wizard.currentRequest)
            for effect in wizard.handle(.photoTaken(mode: .auto, width: 640, height: 480), at: t) {
                if case .validate(let request) = effect { requests.append(request) }
            }
            _ = wizard.handle(
                .validation(.verdict(ValidationVerdict(result: .retry, reasons: ["tooDark"]))), at: t + 0.5)
            _ = wizard.handle(.key(.enter), at: t + 0.6)
        }
        XCTAssertEqual(
            requests, [ValidationRequest(attempt: 1, isFinal: false), ValidationRequest(attempt: 2, isFinal: true)])
        XCTAssertEqual(current, requests)
    }
}
