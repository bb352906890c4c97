import FaceCapCore
import Foundation
import XCTest

/// Every way out of the wizard leaves exactly one line on standard error, and that line is one sentence (issue
/// 18): no full stop inside or at its end, no second sentence from a server's message, nothing on a second line.
/// The list below is every kind of ending; each is driven through the flow as a person would meet it.
final class StandardErrorLineTests: XCTestCase {
    private func settings(
        plain: Bool = false, server: Bool = false, token: Bool = false,
        preflight: Bool = false
    ) -> WizardSettings {
        var settings = WizardSettings()
        settings.minimumCheckingDisplay = 0
        settings.plain = plain
        settings.showTutorial = false
        settings.usesServer = server
        settings.serverURL = server ? "https://id.example.org/selfie" : nil
        settings.sendsToken = token
        settings.checkServer = preflight
        return settings
    }

    /// Whether `line` reads as one sentence: one line, no sentence end inside it (". X", "? X", "! X", "。")
    /// and none at its end, and no capital at its start unless the first word is a name written in capitals.
    static func isOneSentence(_ line: String) -> Bool {
        guard !line.isEmpty, !line.contains(where: \.isNewline) else { return false }
        if let last = line.last, ".!。".contains(last) { return false }
        // "e.g." and "i.e." end no sentence.
        let characters = Array(
            line.replacingOccurrences(of: "e.g.", with: "eg").replacingOccurrences(of: "i.e.", with: "ie"))
        for i in characters.indices.dropLast(2) where ".!?。".contains(characters[i]) {
            if characters[i + 1] == " ", characters[i + 2].isUppercase { return false }
        }
        let word = line.prefix { !$0.isWhitespace }
        if let first = word.first, first.isUppercase, word.dropFirst().first?.isLowercase ?? false { return false }
        return true
    }

    func testTheJudgeOfASentence() {
        XCTAssertTrue(Self.isOneSentence("the server refused the photo (HTTP 422): face too small; try again"))
        XCTAssertTrue(Self.isOneSentence("unknown option '--inptu'; did you mean '--input'?"))
        XCTAssertTrue(Self.isOneSentence("FACECAP_TOKEN contains a line break"))
        XCTAssertTrue(Self.isOneSentence("use --plain, or set TERM (e.g. TERM=xterm-256color)"))
        XCTAssertFalse(Self.isOneSentence("the server refused the photo: Face too small. Try again."))
        XCTAssertFalse(Self.isOneSentence("cancelled."))
        XCTAssertFalse(Self.isOneSentence("Cancelled by the user"))
        XCTAssertFalse(Self.isOneSentence("one\ntwo"))
        XCTAssertFalse(Self.isOneSentence(""))
    }

    func testAServersSentencesBecomeClauses() {
        XCTAssertEqual(Messages.clause("Face too small. Please try again."), "face too small; please try again")
        XCTAssertEqual(Messages.clause("  HTTP 413 is too large!\nSend less.  "), "HTTP 413 is too large; send less")
        XCTAssertEqual(Messages.clause("bad token"), "bad token")
        XCTAssertEqual(Messages.clause("v1.2 is old"), "v1.2 is old", "a dot inside a word ends no sentence")
        XCTAssertEqual(Messages.clause(""), "")
        XCTAssertEqual(
            Messages.clause("I could not find a face. A photo needs one."),
            "I could not find a face; a photo needs one", "the pronoun I stays, an article starts small")
    }

    private let photo = SavedPhoto(photoPath: "out/selfie-1.jpg", reportPath: "out/selfie-1.json")
    private let access = DeviceAccess(owner: "root", group: "video", mode: "crw-rw----", userGroups: ["users"])

    /// Events from the start; returns the lines for standard error and the exit code.
    private func run(_ settings: WizardSettings, _ events: [WizardEvent]) -> (lines: [String], exit: ExitCode?) {
        var wizard = Wizard(settings: settings)
        var effects = wizard.handle(.start, at: 0)
        var t = 0.0
        for event in events {
            t += 0.5
            effects += wizard.handle(event, at: t)
        }
        let lines = effects.compactMap { if case .report(let line) = $0 { line.text } else { nil } }
        let exit = effects.compactMap { if case .exit(let code) = $0 { code } else { nil } }.last
        return (lines, exit)
    }

    private var photoTaken: [WizardEvent] {
        [
            .cameraOpened, .frameAnalyzed(FrameGuidance(time: 1, primary: .ready, stability: 1, autoCapture: true)),
            .photoTaken(mode: .auto, width: 640, height: 480),
        ]
    }

    func testEveryEndingLeavesOneLineOfOneSentence() {
        let q = WizardEvent.key(.character("q"))
        let refusal = WizardEvent.validation(.refused(status: 422, message: "Face too small. Please come closer."))
        let unreachable = WizardEvent.validation(
            .unreachable(
                reason: .refused(place: "id.example.org:443"),
                retryAfter: nil))
        let endings: [(String, WizardSettings, [WizardEvent], ExitCode)] = [
            (
                "accepted", settings(),
                photoTaken + [
                    .validation(.verdict(ValidationVerdict(result: .pass))),
                    .photoSaved(photo), .key(.enter),
                ], .success
            ),
            ("server refused, q", settings(server: true), photoTaken + [refusal, q, .photoSaved(photo)], .failure),
            (
                "server refused, --plain", settings(plain: true, server: true),
                photoTaken + [refusal, .photoSaved(photo)],
                .failure
            ),
            (
                "server refused, Ctrl-C", settings(server: true),
                photoTaken + [
                    refusal, .stop,
                    .photoSaved(photo),
                ], .failure
            ),
            (
                "server unreachable, q", settings(server: true), photoTaken + [unreachable, q, .photoSaved(photo)],
                .serverUnreachable
            ),
            (
                "upload cancelled", settings(server: true), photoTaken + [.stop, .photoSaved(photo)],
                .cancelled
            ),
            (
                "pre-flight 404, q", settings(server: true, preflight: true),
                [.serverChecked(.refused(status: 404, message: "")), q],
                .failure
            ),
            (
                "pre-flight 401, q", settings(server: true, token: true, preflight: true),
                [.serverChecked(.refused(status: 401, message: "Bad token. Ask for a new one.")), q], .failure
            ),
            (
                "pre-flight unreachable, q", settings(server: true, preflight: true),
                [.serverChecked(.unreachable(.refused(place: "id.example.org:443"))), q], .serverUnreachable
            ),
            ("no camera, q", settings(), [.cameraFailed(CameraProblem(.noCamera(directory: "/dev"))), q], .noCamera),
            (
                "no camera, Ctrl-C", settings(),
                [
                    .cameraFailed(CameraProblem(.noCamera(directory: "/dev"))),
                    .stop,
                ], .cancelled
            ),
            (
                "permission denied, q", settings(),
                [.cameraFailed(CameraProblem(.permissionDenied(path: "/dev/video0", access: access))), q],
                .permissionDenied
            ),
            (
                "camera busy, q", settings(),
                [.cameraFailed(CameraProblem(.busy(path: "/dev/video0", holders: []))), q],
                .noCamera
            ),
            (
                "clip ended, --plain", settings(plain: true),
                [
                    .cameraOpened,
                    .cameraLost(
                        CameraProblem(
                            kind: .lost, message: "clip.y4m: the clip ended after 90 frames",
                            exitCode: .failure, recoverable: false)),
                ], .failure
            ),
            (
                "save failed, q", settings(),
                photoTaken + [
                    .validation(.verdict(ValidationVerdict(result: .pass))),
                    .saveFailed(message: "cannot write out/selfie-1.jpg: disk full"),
                    q,
                ], .failure
            ),
            (
                "save failed, --plain", settings(plain: true),
                photoTaken + [
                    .validation(.verdict(ValidationVerdict(result: .pass))),
                    .saveFailed(message: "cannot write out/selfie-1.jpg: disk full"),
                ], .failure
            ),
            ("q while capturing", settings(), [.cameraOpened, q], .cancelled),
            ("Esc while capturing", settings(), [.cameraOpened, .key(.escape)], .cancelled),
            ("Ctrl-C while capturing", settings(), [.cameraOpened, .stop], .cancelled),
            ("hang-up while capturing", settings(), [.cameraOpened, .stop], .cancelled),
            (
                "q on the tutorial",
                {
                    var s = settings(); s.showTutorial = true; return s
                }(), [q], .cancelled
            ),
        ]
        for (name, settings, events, code) in endings {
            let (lines, exit) = run(settings, events)
            XCTAssertEqual(exit, code, name)
            XCTAssertEqual(lines.count, 1, "\(name): \(lines)")
            for line in lines { XCTAssertTrue(Self.isOneSentence(line), "\(name): \(line)") }
        }
    }

    /// The usage errors are the first of their two lines (the second points to --help): each one sentence too.
    func testEveryUsageErrorIsOneSentence() {
        let usage = MessageID.allCases.filter { $0.rawValue.hasPrefix("usage.") && $0 != .usageSeeHelp }
        XCTAssertGreaterThan(usage.count, 20)
        for id in usage {
            let text = id.english
            XCTAssertTrue(Self.isOneSentence(text), "\(id.rawValue): \(text)")
        }
    }
}
