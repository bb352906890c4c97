import FaceCapCore
import XCTest

/// `--plain` for a screen reader: a line per change of the main message, hints riding along, at most one a
/// second on one screen; a new screen at once; ASCII punctuation outside UTF-8.
final class PlainAnnouncerTests: XCTestCase {
    private func capture(_ primary: String, _ hints: [String] = [], name: ScreenName = .capture) -> ScreenModel {
        ScreenModel(
            name: name, title: "Taking your selfie", primary: primary, hints: hints,
            countdown: "Manual capture in 20 s")
    }

    func testAChangeOfHintsAloneSaysNothingAndTheHintsRideAlongOnTheNextLine() {
        var announcer = PlainAnnouncer(ascii: false)
        XCTAssertEqual(announcer.offer(capture("Move closer"), at: 0), "[capture] Move closer")
        XCTAssertNil(announcer.offer(capture("Move closer", ["Too dark — find more light"]), at: 2))
        XCTAssertNil(announcer.offer(capture("Move closer", ["Hold still"]), at: 3))
        XCTAssertEqual(
            announcer.offer(capture("Move back", ["Hold still"]), at: 4),
            "[capture] Move back (also: Hold still)")
    }

    func testAtMostOneLineASecondAndTheNewestIsSaid() {
        var announcer = PlainAnnouncer(ascii: false)
        XCTAssertEqual(announcer.offer(capture("Looking for your face…"), at: 9.9), "[capture] Looking for your face…")
        XCTAssertEqual(
            announcer.offer(capture("Move closer"), at: 10), "[capture] Move closer",
            "the first guidance does not wait behind the screen's first line")
        XCTAssertNil(announcer.offer(capture("Move left"), at: 10.3), "held: a line was said 0.3 s ago")
        XCTAssertTrue(announcer.isDue(at: 11))
        XCTAssertFalse(announcer.isDue(at: 10.9))
        XCTAssertNil(announcer.offer(capture("Move right"), at: 10.6))
        XCTAssertEqual(announcer.due(at: 11), "[capture] Move right", "the newest, not the one that came and went")
        XCTAssertNil(announcer.due(at: 12), "said once")
        // A message that came and went while held is never said.
        XCTAssertNil(announcer.offer(capture("Move left"), at: 11.2))
        XCTAssertNil(announcer.offer(capture("Move right"), at: 11.5))
        XCTAssertFalse(announcer.isDue(at: 13))
        // Ten changes in ten seconds of a swaying face: at most ten lines, each a second after the last.
        var times: [Double] = []
        for step in 0..<100 {
            let t = 20 + Double(step) * 0.1
            if announcer.offer(capture(step % 3 == 0 ? "Move left" : "Move right"), at: t) != nil { times.append(t) }
        }
        XCTAssertLessThanOrEqual(times.count, 10)
        XCTAssertGreaterThanOrEqual(times.count, 5)
        for (a, b) in zip(times, times.dropFirst()) { XCTAssertGreaterThanOrEqual(b - a, 1 - 1e-9) }
    }

    /// Issue 35: a word that stops or turns a moving person is said at once, spending a second banked by silence;
    /// repeats and other changes keep the one-line-a-second limit, and over any stretch the lines stay at most
    /// one a second plus the two a quiet screen banks (plus the first guidance after the screen's first line).
    func testAWordThatStopsOrTurnsThePersonIsSaidAtOnce() {
        func guided(_ code: GuidanceCode, slight: Bool = false) -> ScreenModel {
            var model = capture(Messages.guidance(code, slight: slight))
            model.guidance = code
            return model
        }
        var announcer = PlainAnnouncer(ascii: false)
        XCTAssertEqual(announcer.offer(capture("Looking for your face…"), at: 0), "[capture] Looking for your face…")
        XCTAssertEqual(announcer.offer(guided(.moveDown), at: 0.03), "[capture] Move down")
        XCTAssertEqual(announcer.offer(guided(.moveDown, slight: true), at: 1.2), "[capture] A little lower")
        XCTAssertEqual(
            announcer.offer(guided(.holdStill), at: 1.5), "[capture] Hold still",
            "a stop 0.3 s after the last line, at once")
        XCTAssertNil(announcer.offer(guided(.ready), at: 1.7), "the banked second is spent: waits")
        XCTAssertFalse(announcer.isDue(at: 2.1))
        XCTAssertEqual(announcer.due(at: 2.3), "[capture] Perfect — hold still", "before the ordinary second")
        // Not urgent: a new problem after "Perfect", a direction after it.
        XCTAssertNil(announcer.offer(guided(.keepHeadLevel), at: 2.6))
        XCTAssertEqual(announcer.due(at: 3.3), "[capture] Keep your head level")
        XCTAssertNil(announcer.offer(guided(.moveLeft), at: 3.5), "a direction after a non-direction is no turn")
        XCTAssertEqual(announcer.due(at: 4.3), "[capture] Move left")
        // A face that turns every 0.2 s: the stops are said at once while the bank lasts, then a line a second.
        var times: [Double] = []
        for step in 0..<100 {
            let t = 10 + Double(step) * 0.2
            if announcer.offer(guided(step % 2 == 0 ? .moveRight : .holdStill), at: t) != nil { times.append(t) }
        }
        for start in times {
            let within = times.filter { $0 >= start && $0 < start + 5 }
            XCTAssertLessThanOrEqual(within.count, 5 + 2, "at \(start): \(times)")
        }
        XCTAssertEqual(times.first, 10, "the first turn, with a banked second, at once")
    }

    func testANewScreenIsSaidAtOnce() {
        var announcer = PlainAnnouncer(ascii: false)
        _ = announcer.offer(capture("Move closer"), at: 0.5)
        _ = announcer.offer(capture("Perfect — hold still"), at: 1)
        XCTAssertNil(announcer.offer(capture("Taking the photo…"), at: 1.2))
        let uploading = ScreenModel(
            name: .uploading, title: "Checking your photo", primary: "Checking your photo…",
            lines: ["Attempt 1 of 3"])
        XCTAssertEqual(announcer.offer(uploading, at: 1.25), "[uploading] Checking your photo: Attempt 1 of 3")
        let success = ScreenModel(name: .success, title: "Selfie accepted", lines: ["Saved to out/p.jpg"])
        XCTAssertEqual(
            announcer.offer(success, at: 1.3), "[success] Selfie accepted: Saved to out/p.jpg",
            "the last line before the program ends is never held back")
    }

    func testPunctuationIsASCIIOutsideUTF8() {
        var announcer = PlainAnnouncer(ascii: true)
        XCTAssertEqual(
            announcer.offer(capture("Perfect — hold still", ["Too dark — find more light"]), at: 0),
            "[capture] Perfect - hold still (also: Too dark - find more light)")
        XCTAssertEqual(
            announcer.offer(capture("Looking for your face…", name: .manualCapture), at: 1),
            "[manualCapture] Looking for your face...")
        XCTAssertEqual(
            PlainText.asciiPunctuation("Rapprochez-vous\u{00A0}: «\u{00A0}q\u{00A0}» – 60×20 ¿Qué?"),
            "Rapprochez-vous : \" q \" - 60x20 Qué?")
        XCTAssertEqual(PlainText.asciiPunctuation("顔を近づけて（もっと）：はい。「q」、／〜"), "顔を近づけて(もっと):はい.\"q\",/~")
        XCTAssertEqual(PlainText.asciiPunctuation("„Bitte“ ‘q’"), "\"Bitte\" 'q'")
    }

    /// Every punctuation mark outside ASCII that any catalogue uses has its ASCII form.
    func testEveryCataloguePunctuationMarkHasAnASCIIForm() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        var texts = MessageID.allCases.flatMap { [$0.english] + ($0.englishPlural.map { [$0] } ?? []) }
        for language in ["de", "es", "fr", "ja", "pt_BR"] {
            let po = try String(contentsOf: root.appendingPathComponent("Resources/po/\(language).po"), encoding: .utf8)
            texts += po.split(separator: "\n").filter { $0.hasPrefix("msgstr") }.map(String.init)
        }
        XCTAssertGreaterThan(texts.count, 1000)
        for text in texts {
            for scalar in PlainText.asciiPunctuation(text).unicodeScalars where !scalar.isASCII {
                XCTAssertTrue(
                    scalar.properties.isAlphabetic || scalar.properties.generalCategory == .modifierLetter
                        || scalar.properties.generalCategory == .nonspacingMark,
                    "U+\(String(scalar.value, radix: 16, uppercase: true)) stays in \(text)")
            }
        }
    }

    func testTheLocaleDecidesLikeTheCLibrary() {
        XCTAssertTrue(PlainText.localeIsUTF8(["LANG": "de_DE.UTF-8"]))
        XCTAssertTrue(PlainText.localeIsUTF8(["LANG": "C", "LC_CTYPE": "C.utf8"]))
        XCTAssertFalse(PlainText.localeIsUTF8(["LANG": "C"]))
        XCTAssertFalse(PlainText.localeIsUTF8([:]))
        XCTAssertFalse(PlainText.localeIsUTF8(["LC_ALL": "POSIX", "LANG": "en_US.UTF-8"]), "LC_ALL wins")
        XCTAssertTrue(PlainText.localeIsUTF8(["LC_ALL": "", "LANG": "en_US.UTF-8"]), "an empty one is not set")
    }
}
