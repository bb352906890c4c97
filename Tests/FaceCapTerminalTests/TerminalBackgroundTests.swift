import Dispatch
import XCTest

@testable import FaceCapTerminal

#if canImport(Glibc)
import Glibc
#endif

/// OSC 11: the terminal's background asked at start-up, against a pseudo-terminal whose other end is a
/// script playing the terminal; and the inks chosen for the answer.
final class TerminalBackgroundTests: XCTestCase {
    /// What is sent when only the background is asked (`--graphics cells`): OSC 11, then the device attributes.
    static let burst = TerminalBackground.query + TerminalProbe.deviceAttributes

    /// A pty pair: the program's end (a real tty) and the terminal's end.
    private struct PTY {
        struct Unavailable: Error {}
        let terminal: Int32, program: Int32

        init() throws {
            // posix_openpt and friends are not in Swift's Glibc: /dev/ptmx, unlocked (TIOCSPTLCK), its number
            // (TIOCGPTN) naming the other end; the request numbers are Linux's.
            terminal = open("/dev/ptmx", O_RDWR | O_NOCTTY)
            guard terminal >= 0 else { throw Unavailable() }
            var unlock: Int32 = 0, number: UInt32 = 0
            guard ioctl(terminal, 0x4004_5431, &unlock) == 0, ioctl(terminal, 0x8004_5430, &number) == 0 else {
                Glibc.close(terminal)
                throw Unavailable()
            }
            program = open("/dev/pts/\(number)", O_RDWR | O_NOCTTY)
            if program < 0 {
                Glibc.close(terminal)
                throw Unavailable()
            }
        }

        func close() {
            Glibc.close(program)
            Glibc.close(terminal)
        }
    }

    private static func seconds() -> Double {
        var t = timespec()
        clock_gettime(CLOCK_MONOTONIC, &t)
        return Double(t.tv_sec) + Double(t.tv_nsec) / 1e9
    }

    /// Asks through `pty` while the terminal's end reads the query and sends `reply` (nil: says nothing).
    /// `answered`: the device attributes came, which ends the wait (so a long time-out costs nothing then; half of
    /// it waited can only be the time-out, a pseudo-terminal round trip being milliseconds).
    private func ask(reply: String?, timeout: Double = 30) throws
        -> (colour: TerminalBackground.Colour?, answered: Bool, seconds: Double, query: [UInt8])
    {
        let pty = try PTY()
        defer { pty.close() }
        let heard = DispatchSemaphore(value: 0)
        nonisolated(unsafe) var query: [UInt8] = []
        let terminal = pty.terminal
        DispatchQueue.global().async {
            var buffer = [UInt8](repeating: 0, count: 64)
            var got: [UInt8] = []
            while got.count < Self.burst.count {
                let n = buffer.withUnsafeMutableBytes { read(terminal, $0.baseAddress, $0.count) }
                if n <= 0 { break }
                got += buffer[0..<n]
            }
            query = got
            if let reply { _ = Array(reply.utf8).withUnsafeBytes { write(terminal, $0.baseAddress, $0.count) } }
            heard.signal()
        }
        let start = Self.seconds()
        let answers = TerminalProbe.ask(
            input: pty.program, output: pty.program, background: true, graphics: false,
            timeout: timeout)
        let elapsed = Self.seconds() - start
        heard.wait()
        return (answers?.background, answers?.deviceAttributes ?? false, elapsed, query)
    }

    func testALightBackgroundIsReadFromTheTerminalsReply() throws {
        let r = try ask(reply: "\u{1B}]11;rgb:ffff/ffff/f5f5\u{1B}\\\u{1B}[?62;22c")
        XCTAssertEqual(r.query, Self.burst)
        XCTAssertEqual(r.colour, TerminalBackground.Colour(r: 255, g: 255, b: 245))
        XCTAssertTrue(r.answered)
        XCTAssertLessThan(r.seconds, 15, "the wait ends at the device-attributes reply, not the 30 s time-out")
    }

    func testABELTerminatedDarkReplyIsRead() throws {
        let r = try ask(reply: "\u{1B}]11;rgb:1c/1c/20\u{07}\u{1B}[?1;2c")
        XCTAssertEqual(r.colour, TerminalBackground.Colour(r: 28, g: 28, b: 32))
    }

    func testATerminalThatDoesNotKnowOSC11CostsNoWait() throws {
        // Only the device attributes (tmux 3.3 without an outer terminal): no colour, and no time-out waited.
        let r = try ask(reply: "\u{1B}[?1;2c")
        XCTAssertNil(r.colour)
        XCTAssertTrue(r.answered)
        XCTAssertLessThan(r.seconds, 15, "the device attributes end the wait, not the 30 s time-out")
    }

    func testASilentTerminalIsGivenUpAfterTheTimeOut() throws {
        let r = try ask(reply: nil, timeout: 0.2)
        XCTAssertNil(r.colour)
        XCTAssertFalse(r.answered)
        XCTAssertGreaterThanOrEqual(r.seconds, 0.19, "the whole time-out waited (and the probe returned)")
    }

    func testTheTerminalsModesArePutBack() throws {
        let pty = try PTY()
        defer { pty.close() }
        var before = termios(), after = termios()
        tcgetattr(pty.program, &before)
        _ = TerminalProbe.ask(input: pty.program, output: pty.program, background: true, graphics: true, timeout: 0.05)
        tcgetattr(pty.program, &after)
        XCTAssertEqual(before.c_lflag, after.c_lflag)
        XCTAssertEqual(before.c_iflag, after.c_iflag)
    }

    func testParsing() {
        func colour(_ s: String) -> TerminalBackground.Colour? { TerminalAnswers.parse(Array(s.utf8)).background }
        XCTAssertEqual(colour("\u{1B}]11;rgb:f/8/0\u{07}"), .init(r: 255, g: 136, b: 0))
        XCTAssertEqual(colour("\u{1B}]11;rgba:0000/8080/ffff/ffff\u{1B}\\"), .init(r: 0, g: 128, b: 255))
        XCTAssertNil(colour("\u{1B}]11;rgb:ff/ff\u{07}"), "two channels")
        XCTAssertNil(colour("\u{1B}]11;rgb:fffff/0/0\u{07}"), "five digits")
        XCTAssertNil(colour("\u{1B}]10;rgb:ff/ff/ff\u{07}"), "the foreground's reply")
        XCTAssertNil(colour("\u{1B}]11;rgb:ff/ff/ff"), "not terminated yet")
        XCTAssertFalse(TerminalAnswers.parse(Array("\u{1B}[?1;2".utf8)).deviceAttributes)
        XCTAssertTrue(TerminalAnswers.parse(Array("x\u{1B}[?64;1;2c".utf8)).deviceAttributes)
        XCTAssertFalse(TerminalAnswers.parse(Array("\u{1B}[2c".utf8)).deviceAttributes, "not a DA1 reply")
    }

    func testInksReadOnTheBackgroundTheTerminalSaid() {
        let light = TerminalBackground.Colour(r: 250, g: 250, b: 245),
            dark = TerminalBackground.Colour(r: 24, g: 24, b: 28)
        for tone in ToneInk.allCases {
            for background in [light, dark, TerminalBackground.Colour(r: 255, g: 255, b: 255), .init(r: 0, g: 0, b: 0)]
            {
                guard let ink = tone.ink(on: background) else { return XCTFail("\(tone) on \(background): no ink") }
                let c = xtermRGB(Int(ink))
                XCTAssertGreaterThanOrEqual(
                    TerminalBackground.Colour(r: c.r, g: c.g, b: c.b).contrast(background), 4.5,
                    "\(tone) on \(background)")
            }
            XCTAssertNotEqual(tone.ink(on: light), tone.ink(on: dark), "\(tone): one shade for both themes")
        }
        // A mid-grey background: no shade reads 4.5:1 on it for every tone; those keep their box.
        let grey = TerminalBackground.Colour(r: 118, g: 118, b: 118)
        XCTAssertTrue(ToneInk.allCases.contains { $0.ink(on: grey) == nil })
    }
}
