import CCurses
import FaceCapCore
import Foundation
import XCTest

@testable import FaceCapTerminal

/// A terminal at the far end of a real pseudo-terminal that answers the graphics queries as a script says:
/// the probe runs on the slave side exactly as it does on a person's terminal.
final class ScriptedTerminal: @unchecked Sendable {
    let master: Int32
    let slave: Int32
    /// What the terminal received before it answered.
    private(set) var received: [UInt8] = []
    private var thread: Thread?

    init() throws {
        var number: Int32 = 0
        master = ccurses_open_pty(&number)
        guard master >= 0 else { throw NSError(domain: "pty", code: Int(errno)) }
        slave = open("/dev/pts/\(number)", O_RDWR | O_NOCTTY)
        guard slave >= 0 else { throw NSError(domain: "pty", code: Int(errno)) }
    }

    deinit {
        close(master)
        close(slave)
    }

    /// Answers with `reply` once the request for device attributes (the probe's last query) has arrived,
    /// after `delay` seconds; nil: never answers.
    func answer(_ reply: String?, delay: Double = 0) {
        let thread = Thread { [self] in
            var buffer = [UInt8](repeating: 0, count: 256)
            let end = Array("\u{1B}[c".utf8)
            while !received.ends(with: end) {
                var descriptor = pollfd(fd: master, events: Int16(POLLIN), revents: 0)
                guard poll(&descriptor, 1, 2000) > 0 else { return }
                let count = read(master, &buffer, buffer.count)
                guard count > 0 else { return }
                received += buffer[0..<count]
            }
            guard let reply else { return }
            if delay > 0 { Thread.sleep(forTimeInterval: delay) }
            _ = Array(reply.utf8).withUnsafeBytes { write(master, $0.baseAddress, $0.count) }
        }
        self.thread = thread
        thread.start()
    }
}

extension Array where Element == UInt8 {
    fileprivate func ends(with suffix: [UInt8]) -> Bool {
        count >= suffix.count && Array(self[(count - suffix.count)...]) == suffix
    }
}

final class GraphicsProbeTests: XCTestCase {
    /// The default time-out is far longer than any machine's delay: a reply ends the wait, and one of half the
    /// time-out can only be the time-out waited (a pseudo-terminal round trip is milliseconds).
    private func probe(_ reply: String?, delay: Double = 0, timeout: Double = 30)
        throws -> (answers: TerminalAnswers?, seconds: Double, received: [UInt8], echo: Bool)
    {
        let terminal = try ScriptedTerminal()
        var before = termios()
        tcgetattr(terminal.slave, &before)
        terminal.answer(reply, delay: delay)
        let start = SystemClock().now()
        let answers = TerminalProbe.ask(
            input: terminal.slave, output: terminal.slave, background: false, graphics: true,
            timeout: timeout)
        let seconds = SystemClock().now() - start
        var after = termios()
        tcgetattr(terminal.slave, &after)
        Thread.sleep(forTimeInterval: 0.05)
        return (
            answers, seconds, terminal.received, after.c_lflag == before.c_lflag && after.c_lflag & tcflag_t(ECHO) != 0
        )
    }

    func testKittyAnswersItsQueryBeforeTheDeviceAttributes() throws {
        let result = try probe("\u{1B}_Gi=31;OK\u{1B}\\\u{1B}[6;20;10t\u{1B}[?62;c")
        let answers = try XCTUnwrap(result.answers)
        XCTAssertTrue(answers.kitty)
        XCTAssertFalse(answers.sixel)
        XCTAssertEqual(answers.cellSize?.width, 10)
        XCTAssertEqual(answers.cellSize?.height, 20)
        XCTAssertEqual(GraphicsProbe.choose(.auto, answers: answers, cellSize: answers.cellSize), .kitty)
        // The terminal got every query, the device-attributes request last.
        XCTAssertEqual(result.received, GraphicsProbe.queries + TerminalProbe.deviceAttributes)
        XCTAssertTrue(result.echo, "the terminal's modes are restored")
    }

    func testAVT340AnswersFourAndItsSixelGeometry() throws {
        // xterm -ti vt340's own replies.
        let result = try probe("\u{1B}[?2;0;1000;1000S\u{1B}[6;13;6t\u{1B}[?63;1;2;4;6;9;15;22c")
        let answers = try XCTUnwrap(result.answers)
        XCTAssertFalse(answers.kitty)
        XCTAssertTrue(answers.sixel)
        XCTAssertEqual(answers.sixelLimit?.width, 1000)
        XCTAssertEqual(answers.cellSize?.height, 13)
        XCTAssertEqual(GraphicsProbe.choose(.auto, answers: answers, cellSize: answers.cellSize), .sixel)
        // Without a cell size sixel's pixels cannot be matched to the cells: cells.
        XCTAssertNil(GraphicsProbe.choose(.auto, answers: answers, cellSize: nil))
        XCTAssertNil(GraphicsProbe.choose(.cells, answers: answers, cellSize: answers.cellSize))
    }

    func testTmuxAndGnomeTerminalAnswersMeanCells() throws {
        // tmux 3.3a and VTE (GNOME Terminal) answer only the device attributes, without 4.
        for reply in ["\u{1B}[?1;2c", "\u{1B}[?65;1;9c"] {
            let result = try probe(reply)
            let answers = try XCTUnwrap(result.answers)
            XCTAssertTrue(answers.deviceAttributes)
            XCTAssertLessThan(result.seconds, 15, "the reply ended the wait, not the 30 s time-out")
            XCTAssertFalse(answers.kitty || answers.sixel)
            XCTAssertNil(GraphicsProbe.choose(.auto, answers: answers, cellSize: (8, 16)))
        }
    }

    func testATerminalThatNeverAnswersCostsOnlyTheTimeOut() throws {
        let result = try probe(nil, timeout: 0.25)
        let answers = try XCTUnwrap(result.answers)
        XCTAssertFalse(answers.deviceAttributes)
        XCTAssertNil(GraphicsProbe.choose(.auto, answers: answers, cellSize: (8, 16)))
        // The wait lasted the time-out, and ended (a hang would stop the suite).
        XCTAssertGreaterThanOrEqual(result.seconds, 0.24)
        XCTAssertTrue(result.echo)
        // A reply later than the time-out is not waited for either: the probe returns without it.
        let late = try probe("\u{1B}[?63;4c", delay: 2, timeout: 0.1)
        XCTAssertEqual(late.answers?.deviceAttributes, false, "the reply 2 s later was not waited for")
        XCTAssertEqual(late.answers?.sixel, false)
    }

    func testNoTerminalIsNotAsked() {
        var pipeEnds: [Int32] = [0, 0]
        XCTAssertEqual(pipe(&pipeEnds), 0)
        defer { close(pipeEnds[0]); close(pipeEnds[1]) }
        XCTAssertNil(TerminalProbe.ask(input: pipeEnds[0], output: pipeEnds[1], background: true, graphics: true))
        XCTAssertNil(GraphicsProbe.choose(.auto, answers: nil, cellSize: (8, 16)))
        XCTAssertEqual(GraphicsProbe.choose(.sixel, answers: nil, cellSize: nil), .sixel)
        XCTAssertEqual(GraphicsProbe.choose(.kitty, answers: nil, cellSize: nil), .kitty)
    }

    func testRepliesAreFoundAmongKeysAndErrors() {
        let bytes = Array("x\u{1B}_Gi=31;ENOTSUPPORTED:no\u{1B}\\y\u{1B}[?2;3;0;0S\u{1B}[?62;22;4c".utf8)
        let answers = TerminalAnswers.parse(bytes)
        XCTAssertFalse(answers.kitty, "an error reply is no")
        XCTAssertNil(answers.sixelLimit, "a failed XTSMGRAPHICS gives no geometry")
        XCTAssertTrue(answers.sixel)
        // The 4 must be an attribute, not the first field (the terminal class).
        XCTAssertFalse(TerminalAnswers.parse(Array("\u{1B}[?4;1c".utf8)).sixel)
        XCTAssertFalse(TerminalAnswers.parse(Array("\u{1B}[?64;14c".utf8)).sixel)
    }
}
