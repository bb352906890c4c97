import XCTest

@testable import FaceCapCore

final class PlainTextTests: XCTestCase {
    func testCaptureLinesAreTheGuidanceAlone() {
        let model = ScreenModel(
            name: .capture, title: "Taking your selfie", primary: "Move closer",
            hints: ["Too dark — find more light"], countdown: "Manual capture in 12 s")
        XCTAssertEqual(PlainText.line(for: model), "[capture] Move closer (also: Too dark — find more light)")
    }

    func testOtherScreensGiveTitleMessageAndBodyOnOneLine() {
        let model = ScreenModel(
            name: .retry, title: "Let's take another photo", primary: "2 attempts left",
            lines: ["Too dark: face a window or a lamp"], countdown: "Back to the camera in 2 s")
        XCTAssertEqual(
            PlainText.line(for: model),
            "[retry] Let's take another photo: 2 attempts left: Too dark: face a window or a lamp")
    }

    func testCommandsLoseTheirPromptAndTheTitleIsNotRepeated() {
        let model = ScreenModel(
            name: .permissionDenied, title: "Camera access denied", primary: "Camera access denied",
            lines: ["cannot open /dev/video0", "$ sudo usermod -aG video $USER"])
        XCTAssertEqual(
            PlainText.line(for: model),
            "[permissionDenied] Camera access denied: cannot open /dev/video0; sudo usermod -aG video $USER")
    }

    /// The colon rule on a screen other than the MIPI one it came with: a line ending in a colon introduces the
    /// command after it with a space, not a clause mark; the lines after a command are clauses again.
    func testALineEndingInAColonIntroducesTheNextOnTheNoCameraScreen() {
        let model = ScreenModel(
            name: .noCamera, title: "No camera found", primary: "Nothing to take a selfie with",
            lines: [
                "No video device in /dev.", "List what is there:", "$ ls /dev/video*",
                "a USB cable", "--input clip.y4m",
            ])
        XCTAssertEqual(
            PlainText.line(for: model),
            "[noCamera] No camera found: Nothing to take a selfie with: No video"
                + " device in /dev. List what is there: ls /dev/video*; a USB cable; --input clip.y4m")
        let dismissed = ScreenModel(name: .permissionDismissed, title: "T", lines: ["a:", "b", "c"])
        XCTAssertEqual(PlainText.line(for: dismissed), "[permissionDismissed] T: a: b; c")
    }

    func testTheLineIgnoresCountdownsAndProgress() {
        var settings = WizardSettings()
        settings.showTutorial = false
        settings.plain = true
        var wizard = Wizard(settings: settings)
        _ = wizard.handle(.start, at: 0)
        _ = wizard.handle(.cameraOpened, at: 0)
        _ = wizard.handle(.frameAnalyzed(FrameGuidance(time: 1, primary: .moveCloser)), at: 1)
        let early = PlainText.line(for: wizard.screen(at: 1))
        _ = wizard.handle(.frameAnalyzed(FrameGuidance(time: 9, primary: .moveCloser)), at: 9)
        XCTAssertEqual(PlainText.line(for: wizard.screen(at: 9)), early)
        XCTAssertEqual(early, "[capture] Move closer")
    }

    /// The separators are the language's own: French puts a no-break space before the colon and the semicolon,
    /// Japanese has its own colon.
    func testSeparatorsAreTheLanguages() throws {
        let model = ScreenModel(
            name: .permissionDenied, title: "T", primary: "P", hints: ["h1", "h2"], lines: ["a", "b"])
        XCTAssertEqual(PlainText.line(for: model), "[permissionDenied] T: P: a; b (also: h1; h2)")
        let shipped = try shippedTranslations()
        let french = try XCTUnwrap(shipped.first { $0.language == "fr" })
        let line = speaking(french) { PlainText.line(for: model) }
        XCTAssertTrue(line.hasPrefix("[permissionDenied] T\u{A0}: P\u{A0}: a\u{A0}; b"), line)
        let japanese = try XCTUnwrap(shipped.first { $0.language == "ja" })
        XCTAssertTrue(speaking(japanese) { PlainText.line(for: model) }.hasPrefix("[permissionDenied] T：P：a"))
    }
    /// The Uploading screen's line says its title once in every language: its main message is the title as a
    /// running status, worded apart from it outside English (German "Foto wird geprüft: Ihr Foto wird
    /// geprüft …" was said twice over).
    func testTheUploadingLineSaysItsTitleOnceInEveryLanguage() throws {
        for translations in try shippedTranslations() {
            for server in [false, true] {
                let (model, line) = speaking(translations) { () -> (ScreenModel, String) in
                    var settings = WizardSettings()
                    settings.showTutorial = false
                    settings.plain = true
                    settings.usesServer = server
                    var wizard = Wizard(settings: settings)
                    _ = wizard.handle(.start, at: 0)
                    _ = wizard.handle(.cameraOpened, at: 0)
                    _ = wizard.handle(
                        .frameAnalyzed(
                            FrameGuidance(
                                time: 1, primary: .ready, stability: 1,
                                autoCapture: true)), at: 1)
                    _ = wizard.handle(.photoTaken(mode: .auto, width: 640, height: 480), at: 1.1)
                    let model = wizard.screen(at: 1.2)
                    return (model, PlainText.line(for: model))
                }
                XCTAssertEqual(model.name, .uploading, "\(translations.language): \(line)")
                let primary = try XCTUnwrap(model.primary)
                XCTAssertTrue(line.contains(model.title), "\(translations.language): \(line)")
                XCTAssertFalse(line.contains(primary), "\(translations.language): the title twice over: \(line)")
            }
        }
    }
}
