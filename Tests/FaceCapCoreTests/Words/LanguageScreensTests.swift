import XCTest

@testable import FaceCapCore

/// The same flow in two languages: the words change, nothing a script reads does.
final class LanguageScreensTests: XCTestCase {
    /// Every message marked, so a test can tell the language apart and see which words came from elsewhere.
    static let marked: Translations = {
        var entries: [String: [String]] = [:]
        for id in MessageID.allCases {
            entries[id.key] = [id.english, id.englishPlural ?? id.english].map { "[xx] " + $0 }
        }
        return Translations(language: "xx", entries: entries)
    }()

    func run(_ events: [(WizardEvent, Double)], in translations: Translations) -> (
        effects: [WizardEffect], screens: [ScreenModel]
    ) {
        speaking(translations) {
            var settings = WizardSettings()
            settings.showTutorial = false
            settings.usesServer = true
            // The journey's answers come within a second; the Uploading screen's minimum time is tested apart.
            settings.minimumCheckingDisplay = 0
            var wizard = Wizard(settings: settings)
            var effects: [WizardEffect] = []
            var screens: [ScreenModel] = []
            for (event, time) in events {
                effects += wizard.handle(event, at: time)
                screens.append(wizard.screen(at: time))
            }
            return (effects, screens)
        }
    }

    static let journey: [(WizardEvent, Double)] = [
        (.start, 0), (.cameraOpened, 0.1),
        (.frameAnalyzed(FrameGuidance(time: 1, primary: .moveCloser, hints: [.tooDark])), 0.2),
        (.frameAnalyzed(FrameGuidance(time: 2, primary: .ready, stability: 1, autoCapture: true)), 0.3),
        (.photoTaken(mode: .auto, width: 640, height: 480), 0.4),
        (
            .validation(
                .verdict(
                    ValidationVerdict(
                        result: .retry, reasons: ["tooDark", "somethingNew"],
                        message: "Das Licht reicht nicht"))), 1
        ),
        (.key(.enter), 2), (.cameraOpened, 2.1),
        (.frameAnalyzed(FrameGuidance(time: 3, primary: .ready, stability: 1, autoCapture: true)), 2.2),
        (.photoTaken(mode: .auto, width: 640, height: 480), 2.3),
        (.validation(.unreachable(reason: .refused(place: "127.0.0.1:9"), retryAfter: nil)), 3),
        (.tick, 5), (.validation(.refused(status: 401, message: "bad token")), 6),
        (.key(.character("q")), 7),
        (.photoSaved(SavedPhoto(photoPath: "out/a.jpg", reportPath: "out/a.json")), 8),
    ]

    func testEventsAndExitCodesAreTheSameInEveryLanguage() {
        let english = run(Self.journey, in: .english)
        let other = run(Self.journey, in: Self.marked)
        func records(_ effects: [WizardEffect]) -> [String] {
            effects.compactMap { if case .emit(let record) = $0 { return record.json(t: 1) } else { return nil } }
        }
        XCTAssertEqual(
            records(other.effects), records(english.effects), "the --events stream is byte-for-byte the same")
        XCTAssertEqual(
            other.effects.filter { if case .report = $0 { false } else { true } },
            english.effects.filter { if case .report = $0 { false } else { true } })
        XCTAssertEqual(other.screens.map(\.name), english.screens.map(\.name))
        XCTAssertEqual(english.effects.last, .exit(.failure))
        // The lines for people are in the language.
        let reports = speaking(Self.marked) {
            other.effects.compactMap { if case .report(let line) = $0 { line.text } else { nil } }
        }
        XCTAssertEqual(
            reports,
            [
                "[xx] the server refused the photo (HTTP 401): bad token[xx] ; [xx] the photo was not "
                    + "validated and is saved in out/a.jpg"
            ], "one line: the refusal, then the photo")
    }

    func testAServersWordsAreShownAsSentAndAnUnknownReasonGetsASentence() throws {
        let screens = run(Self.journey, in: Self.marked).screens
        let retry = try XCTUnwrap(screens.first { $0.name == .retry })
        XCTAssertEqual(
            retry.lines,
            [
                "Das Licht reicht nicht", "[xx] Too dark: face a window or a lamp",
                "[xx] The checker asked for another photo for a reason facecap does not know",
            ])
        let refused = try XCTUnwrap(screens.last { $0.title == "[xx] The server refused the photo" })
        XCTAssertEqual(refused.lines.first, "[xx] HTTP 401: bad token", "the server's message, as it sent it")
        let unreachable = try XCTUnwrap(screens.first { $0.title == "[xx] Cannot reach the server" })
        XCTAssertEqual(unreachable.lines.first, "[xx] connection refused by 127.0.0.1:9")
    }

    /// Every word on every screen of the journey comes from the catalogue (or from outside: a path, the
    /// server's message, a camera's text): nothing English is left behind in a translated screen.
    func testNoEnglishIsLeftOnATranslatedScreen() {
        for screen in run(Self.journey, in: Self.marked).screens {
            var texts = [screen.title, screen.primary, screen.countdown, screen.progress?.label].compactMap { $0 }
            texts += screen.hints + screen.keys.map(\.action)
            for text in texts where !text.isEmpty {
                XCTAssertTrue(text.hasPrefix("[xx] "), "\(screen.name): \"\(text)\" is not from the catalogue")
            }
        }
    }
}
