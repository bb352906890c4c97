import CCurses
import FaceCapCore
import Foundation
import XCTest

@testable import FaceCapTerminal

/// The start-up queries as one round (background and graphics in one burst, one wait), and the terminal's
/// replies that come after the wait: on a real pseudo-terminal, read by the real ncurses, they are no keys.
final class TerminalProbeTests: XCTestCase {
    private static let light = "\u{1B}]11;rgb:ffff/ffff/f5f5\u{1B}\\"
    private static let kitty = "\u{1B}_Gi=31;OK\u{1B}\\"
    private static let cell = "\u{1B}[6;20;10t"
    private static let attributes = "\u{1B}[?62;22c"

    func testOneBurstAsksForTheBackgroundAndTheGraphicsAndOneReplyEndsTheWait() throws {
        let terminal = try ScriptedTerminal()
        terminal.answer(Self.light + Self.kitty + Self.cell + Self.attributes)
        // A time-out far longer than any machine's delay: the reply ends the wait, whatever the machine's load, and a
        // wait of half the time-out can only be the time-out waited (a pseudo-terminal round trip is milliseconds).
        let start = SystemClock().now()
        let answers = try XCTUnwrap(
            TerminalProbe.ask(
                input: terminal.slave, output: terminal.slave, background: true,
                graphics: true, timeout: 30))
        let seconds = SystemClock().now() - start
        Thread.sleep(forTimeInterval: 0.05)
        // Every question in one write, the device attributes last: one round trip for all of them.
        XCTAssertEqual(
            terminal.received, TerminalBackground.query + GraphicsProbe.queries + TerminalProbe.deviceAttributes)
        XCTAssertEqual(answers.background, TerminalBackground.Colour(r: 255, g: 255, b: 245))
        XCTAssertTrue(answers.kitty)
        XCTAssertEqual(answers.cellSize?.width, 10)
        XCTAssertTrue(answers.deviceAttributes)
        XCTAssertLessThan(seconds, 15, "the device attributes ended the wait, not the 30 s time-out")
    }

    func testOnlyWhatIsNeededIsAsked() throws {
        XCTAssertEqual(
            TerminalProbe.queries(background: false, graphics: true),
            GraphicsProbe.queries + TerminalProbe.deviceAttributes)
        XCTAssertEqual(
            TerminalProbe.queries(background: true, graphics: false),
            TerminalBackground.query + TerminalProbe.deviceAttributes)
        let terminal = try ScriptedTerminal()
        XCTAssertNil(
            TerminalProbe.ask(input: terminal.slave, output: terminal.slave, background: false, graphics: false),
            "no colour and --graphics cells: nothing is asked")
    }

    /// Starts the real ncurses on the program's end of `terminal`, as the wizard does on its terminal.
    private func curses(on terminal: ScriptedTerminal) throws -> (CursesFrontEnd, [UnsafeMutablePointer<FILE>]) {
        setenv("LC_ALL", "C.UTF-8", 1)
        let output = try XCTUnwrap(fdopen(dup(terminal.slave), "w"))
        let input = try XCTUnwrap(fdopen(dup(terminal.slave), "r"))
        let ui = try CursesFrontEnd(
            colorMode: .colors256, mirror: true, environment: ["TERM": "xterm-256color"],
            output: output, input: input)
        return (ui, [output, input])
    }

    /// Reads keys for up to `seconds`, until `until` is among them.
    private func keys(_ ui: CursesFrontEnd, for seconds: Double, until: FrontEndInput) -> [FrontEndInput] {
        var inputs: [FrontEndInput] = []
        let deadline = SystemClock().now() + seconds
        while SystemClock().now() < deadline, !inputs.contains(until) {
            inputs += ui.readInput()
            Thread.sleep(forTimeInterval: 0.02)
        }
        return inputs
    }

    private func type(_ text: String, on terminal: ScriptedTerminal) {
        _ = Array(text.utf8).withUnsafeBytes { write(terminal.master, $0.baseAddress, $0.count) }
    }

    func testRepliesAfterTheWaitAreNotReadAsKeys() throws {
        // A slow link: the replies come 0.6 s after the queries, the probe gave up after 0.1 s.
        let terminal = try ScriptedTerminal()
        terminal.answer(Self.light + Self.kitty, delay: 0.6)
        let answers = try XCTUnwrap(
            TerminalProbe.ask(
                input: terminal.slave, output: terminal.slave, background: true,
                graphics: true, timeout: 0.1))
        XCTAssertFalse(answers.deviceAttributes)
        let (ui, files) = try curses(on: terminal)
        defer {
            ui.close()
            for file in files { fclose(file) }
            unsetenv("LC_ALL")
        }
        // The rest of the replies, split as a slow link's packets split them, then a key the person types.
        Thread.sleep(forTimeInterval: 0.8)
        XCTAssertEqual(keys(ui, for: 0.3, until: .key(.character("q"))), [], "the background's and kitty's replies")
        type("\u{1B}[?2;0;1000;1000S\u{1B}[6;2", on: terminal)
        XCTAssertEqual(keys(ui, for: 0.2, until: .key(.character("q"))), [], "half of the cell size's reply")
        type("0;10t" + Self.attributes + "\u{1B}P1+r544e\u{1B}\\\u{9D}11;rgb:0/0/0\u{07}", on: terminal)
        XCTAssertEqual(keys(ui, for: 0.2, until: .key(.character("q"))), [], "the rest, a DCS and an 8-bit OSC")
        // A reply split right after its ESC, the rest 60 ms behind (a packet boundary): ncurses waits ESCDELAY
        // for it, so the ESC is no Esc key and the rest (]11;rgb:…, with its c and d) no keys.
        let master = terminal.master
        type("\u{1B}", on: terminal)
        DispatchQueue.global().asyncAfter(deadline: .now() + 0.06) {
            let rest = Array("]11;rgb:cccc/dddd/eeee\u{07}".utf8)
            _ = rest.withUnsafeBytes { write(master, $0.baseAddress, $0.count) }
        }
        XCTAssertEqual(keys(ui, for: 0.4, until: .key(.escape)), [], "a reply split after its ESC")
        type("r", on: terminal)
        XCTAssertEqual(
            keys(ui, for: 5, until: .key(.character("r"))), [.key(.character("r"))],
            "a key typed after the replies is a key")
        // A lone Esc is still the Esc key; an arrow key is decoded by ncurses and means nothing.
        type("\u{1B}", on: terminal)
        XCTAssertEqual(keys(ui, for: 5, until: .key(.escape)), [.key(.escape)])
        type("\u{1B}[A", on: terminal)
        type("q", on: terminal)
        XCTAssertEqual(keys(ui, for: 5, until: .key(.character("q"))), [.key(.character("q"))])
    }

    func testTheDecoderSwallowsEveryKindOfReply() {
        var decoder = KeyDecoder()
        func feed(_ text: String, at now: Double = 0) -> [Key] {
            var keys: [Key] = []
            for scalar in text.unicodeScalars { keys += decoder.decode(character: scalar.value, at: now) }
            return keys + decoder.endOfInput()
        }
        for reply in [
            Self.light, "\u{1B}]11;rgb:1c/1c/20\u{07}", Self.kitty, Self.cell, Self.attributes,
            "\u{1B}[?2;0;1000;1000S", "\u{1B}P1+r544e=787465726d\u{1B}\\", "\u{9B}?1;2c", "\u{1B}OP",
        ] {
            XCTAssertEqual(feed(reply + "q"), [.character("q")], reply.replacingOccurrences(of: "\u{1B}", with: "^["))
        }
        XCTAssertEqual(feed("\u{1B}"), [.escape], "a lone ESC")
        XCTAssertEqual(feed("\u{1B}q"), [.escape, .character("q")], "Alt+q: Esc and q, as before")
        XCTAssertEqual(feed("\u{1B}\u{1B}"), [.escape, .escape])
        // A string split across reads stays swallowed; one whose rest never comes is given up after the gap.
        XCTAssertEqual(feed("\u{1B}]11;rgb:ff", at: 0), [])
        XCTAssertTrue(decoder.inSequence)
        XCTAssertEqual(feed("ff/ffff/ffff\u{1B}\\r", at: 0.1), [.character("r")])
        XCTAssertEqual(feed("\u{1B}]11;rgb:ff", at: 1), [])
        XCTAssertEqual(
            feed("q", at: 1 + KeyDecoder.sequenceGap + 0.1), [.character("q")], "a key long after a cut reply")
        XCTAssertEqual(decoder.decode(code: KEY_ENTER, at: 3), [.enter])
        // Outside a UTF-8 locale get_wch hands over raw bytes: 0x9B and 0x9E are the second bytes of ś and ў
        // typed, not the start of a reply, so the keys after them are keys.
        var raw = KeyDecoder()
        raw.eightBitControls = false
        var typed: [Key] = []
        for byte: UInt32 in [0xC5, 0x9B, 0x20, 0xD1, 0x9E, 0x71] { typed += raw.decode(character: byte, at: 4) }
        XCTAssertEqual(typed.filter { $0 == .space || $0 == .character("q") }, [.space, .character("q")])
        XCTAssertFalse(raw.inSequence)
    }
}
