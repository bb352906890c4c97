import CCurses
import FaceCapCore
import XCTest

@testable import FaceCapTerminal

#if canImport(Glibc)
import Glibc
#endif

/// The real ncurses, writing into a file instead of a terminal: what it sends for each preview frame.
final class CursesOutputTests: XCTestCase {
    private var output: UnsafeMutablePointer<FILE>?
    private var input: UnsafeMutablePointer<FILE>?
    private var path = ""

    override func setUp() {
        // Half blocks need a UTF-8 locale; the front end reads it with setlocale(LC_ALL, "").
        setenv("LC_ALL", "C.UTF-8", 1)
        path = NSTemporaryDirectory() + "facecap-curses-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).out"
        output = fopen(path, "w+")
        input = fopen("/dev/null", "r")
    }

    override func tearDown() {
        if let output { fclose(output) }
        if let input { fclose(input) }
        unlink(path)
        unsetenv("LC_ALL")
    }

    private func bytesWritten() -> Int {
        var info = stat()
        fflush(output)
        fstat(fileno(output), &info)
        return Int(info.st_size)
    }

    private func frontEnd(
        _ mode: ColorMode, term: String = "xterm-256color",
        colorTerm: String? = nil
    ) throws -> CursesFrontEnd {
        var environment = ["TERM": term]
        environment["COLORTERM"] = colorTerm
        return try CursesFrontEnd(colorMode: mode, mirror: true, environment: environment, output: output, input: input)
    }

    /// A second of a person moving in front of the camera (sideways and closer, with sensor noise), drawn
    /// frame by frame on the capture screen; the bytes ncurses sent for each frame after the first.
    private func bytesPerFrame(
        columns: Int, rows: Int, mode: ColorMode = .colors256,
        photo: Frame = sergeyPhoto
    ) throws -> [Int] {
        let ui = try frontEnd(mode)
        defer { ui.close() }
        ui.resize(columns: columns, rows: rows)
        XCTAssertEqual(ui.size?.columns, columns)
        var sizes: [Int] = []
        var last = bytesWritten()
        for i in 0..<31 {
            let phase = Double(i) / 30 * 2 * Double.pi
            let frame = TestFrames.place(
                photo, scale: 0.8 + 0.04 * sin(phase), dx: Int(24 * sin(phase)),
                noise: 3, seed: UInt64(i))
            var model = ScreenSamples.model(.capture)
            model.picture = .livePreview(oval: .ready, stability: Double(i % 30) / 30)
            ui.renderNow(model, preview: frame, photo: nil)
            let now = bytesWritten()
            if i > 0 { sizes.append(now - last) }
            last = now
        }
        return sizes.sorted()
    }

    func testAPreviewFrameAt80x24In256ColoursIsUnder16KB() throws {
        let sizes = try bytesPerFrame(columns: 80, rows: 24)
        let median = sizes[sizes.count / 2]
        print("80×24, 256 colours: median \(median) bytes per preview frame, max \(sizes.last!)")
        XCTAssertLessThanOrEqual(median, 16 * 1024)
        // Dark skin, where 256 colours draw shade mixes (░ ▒ ▓) as well as half blocks.
        var dark = sergeyPhoto
        let gains: [Float] = [0.48, 0.40, 0.32]
        for i in dark.data.indices { dark.data[i] = UInt8(Float(dark.data[i]) * gains[i % 3]) }
        let darkSizes = try bytesPerFrame(columns: 80, rows: 24, photo: dark)
        print(
            "80×24, 256 colours, dark skin: median \(darkSizes[darkSizes.count / 2]) bytes per preview frame, max \(darkSizes.last!)"
        )
        XCTAssertLessThanOrEqual(darkSizes[darkSizes.count / 2], 16 * 1024)
        let large = try bytesPerFrame(columns: 200, rows: 60)
        print("200×60, 256 colours: median \(large[large.count / 2]) bytes per preview frame, max \(large.last!)")
    }

    func testColourModesFollowTheTerminalAndTheOption() throws {
        XCTAssertEqual(try frontEnd(.auto).capabilities.palette, .xterm256)
        XCTAssertEqual(try frontEnd(.colors16).capabilities.palette, .ansi16)
        XCTAssertEqual(try frontEnd(.none).capabilities.palette, .monochrome)
        XCTAssertEqual(try frontEnd(.auto, term: "xterm-direct").capabilities.palette, .truecolor)
        XCTAssertEqual(try frontEnd(.auto, term: "vt100").capabilities.palette, .monochrome)
        XCTAssertEqual(try frontEnd(.auto, term: "xterm").capabilities.palette, .ansi8)
        // COLORTERM=truecolor (or --color truecolor) moves to the family's direct-colour entry.
        let direct = try frontEnd(.auto, colorTerm: "truecolor")
        XCTAssertEqual(direct.capabilities.palette, .truecolor)
        XCTAssertEqual(direct.capabilities.terminalType, "xterm-direct")
        XCTAssertEqual(try frontEnd(.truecolor).capabilities.terminalType, "xterm-direct")
        XCTAssertThrowsError(try frontEnd(.auto, term: "dumb"))
        XCTAssertThrowsError(try frontEnd(.auto, term: "no-such-terminal-type"))
        XCTAssertThrowsError(try frontEnd(.auto, term: ""))
    }

    func testPaletteLadder() {
        XCTAssertEqual(
            CursesFrontEnd.palette(
                mode: .auto, wantsDirect: false, direct: true, colors: 1 << 24,
                pairs: 65536), .truecolor)
        XCTAssertEqual(
            CursesFrontEnd.palette(
                mode: .colors256, wantsDirect: false, direct: true, colors: 1 << 24,
                pairs: 65536), .xterm256)
        XCTAssertEqual(
            CursesFrontEnd.palette(
                mode: .auto, wantsDirect: false, direct: false, colors: 256,
                pairs: 32767), .xterm256Reduced)
        XCTAssertEqual(
            CursesFrontEnd.palette(
                mode: .auto, wantsDirect: false, direct: false, colors: 256,
                pairs: 256), .ansi16)
        // The Linux console and xterm-color: 8 colours, 64 pairs.
        XCTAssertEqual(
            CursesFrontEnd.palette(
                mode: .auto, wantsDirect: false, direct: false, colors: 8,
                pairs: 64), .ansi8)
        XCTAssertEqual(
            CursesFrontEnd.palette(
                mode: .auto, wantsDirect: false, direct: false, colors: 2,
                pairs: 0), .monochrome)
        XCTAssertEqual(CursesFrontEnd.directVariant(of: "tmux-256color"), "tmux-direct")
        XCTAssertEqual(CursesFrontEnd.directVariant(of: "xterm"), "xterm-direct")
    }

    func testEveryScreenDrawsInEveryModeAndSize() throws {
        let frame = TestFrames.place(sergeyPhoto)
        for mode in [ColorMode.truecolor, .colors256, .colors16, .none] {
            let ui = try frontEnd(mode)
            for (columns, rows) in [(80, 24), (200, 60), (60, 20), (20, 6), (1, 1)] {
                ui.resize(columns: columns, rows: rows)
                for name in ScreenName.allCases {
                    let before = bytesWritten()
                    ui.renderNow(
                        ScreenSamples.model(name, help: name == .capture), preview: frame,
                        photo: ShownPhoto(frame, generation: 1))
                    // At 1×1 two screens may well look the same, and ncurses then rightly sends nothing.
                    if columns > 1 {
                        XCTAssertGreaterThan(bytesWritten(), before, "\(mode) \(name) \(columns)×\(rows)")
                    }
                }
            }
            ui.close()
            ui.close()
        }
    }

    func testPreviewFramesComeNoFasterThanTheTerminalTakesThem() throws {
        let ui = try frontEnd(.colors256)
        defer { ui.close() }
        let frame = TestFrames.place(sergeyPhoto)
        let model = ScreenSamples.model(.capture)
        // The times are given: how long the first draw takes here (under a sanitizer, on a loaded machine) is
        // not what is judged, only what the rate does with them.
        XCTAssertTrue(ui.render(model, preview: frame, photo: nil, at: 100))
        // The same screen with a newer frame a moment later waits for the next slot...
        var next = model
        next.picture = .livePreview(oval: .ready, stability: 0.5)
        XCTAssertFalse(ui.render(next, preview: frame, photo: nil, at: 100.001))
        // ...but anything the person must see is drawn at once.
        next.primary = "Hold still"
        XCTAssertTrue(ui.render(next, preview: frame, photo: nil, at: 100.002))
        // And the frame is drawn once its slot has come.
        next.picture = .livePreview(oval: .ready, stability: 0.6)
        XCTAssertTrue(ui.render(next, preview: frame, photo: nil, at: 100.002 + ui.previewInterval))
        XCTAssertTrue(PreviewPacer.differsOnlyInPreview(next, model) == false)
        XCTAssertGreaterThanOrEqual(ui.previewInterval, 1.0 / 30)
    }

    /// The preview rate follows how long the terminal takes to absorb an update, on the front end's own update
    /// clock (here each update takes what a slow link would make it take): a 30 fps camera on a link where an
    /// update takes 0.3 s is drawn less than twice a second, never queued; once updates take 5 ms again, every
    /// frame is drawn again within two seconds. Decided by the given durations, not by this machine's speed.
    func testThePreviewRateFollowsTheTerminalsUpdateTimeAndRecovers() throws {
        let ui = try frontEnd(.colors256)
        defer { ui.close() }
        ui.resize(columns: 100, rows: 32)
        let clock = UpdateClock(cost: 0.3)
        ui.updateClock = clock
        let frames = (0..<8).map { i in
            TestFrames.place(sergeyPhoto, scale: 0.8 + 0.02 * Double(i), dx: 12 * i, noise: 3, seed: UInt64(i))
        }
        var model = ScreenSamples.model(.capture)
        ui.renderNow(model, preview: frames[0], photo: nil, now: 0)
        var t = 0.0
        func offer(frames count: Int) -> Int {
            var drawn = 0
            for i in 0..<count {
                t += 1.0 / 30
                model.picture = .livePreview(oval: .ready, stability: Double(i % 30) / 30)
                if ui.render(model, preview: frames[i % frames.count], photo: nil, at: t) { drawn += 1 }
            }
            return drawn
        }
        let slow = offer(frames: 90)
        XCTAssertGreaterThanOrEqual(ui.previewInterval, 0.5, "three times the update time, up to a second")
        XCTAssertLessThanOrEqual(slow, 6, "three seconds of a 30 fps camera on the slow link: a frame in a second")
        clock.cost = 0.005
        // The interval shrinks by half an update at each frame drawn: 0.9, 0.46, 0.24 … s.
        let recovering = offer(frames: 60)
        XCTAssertEqual(ui.previewInterval, 1.0 / 30, accuracy: 1e-9, "fast again within two seconds")
        XCTAssertGreaterThan(recovering, 15)
        XCTAssertEqual(offer(frames: 30), 30, "every frame drawn")
    }

    /// A real slow link (a pipe drained at ~40 KB/s, like SSH over a poor connection) backs ncurses' writes up:
    /// the front end measures that on the monotonic clock and skips preview frames instead of queueing them.
    /// Only what a slower machine makes more so is checked here: fewer frames drawn than offered, and an
    /// interval grown past a tenth of a second (the recovery is the test above's, on given durations).
    func testARealSlowLinkMakesThePreviewSkipFrames() throws {
        var fds: [Int32] = [0, 0]
        XCTAssertEqual(pipe(&fds), 0)
        // 1031 is F_SETPIPE_SZ (Linux); Glibc hides it without _GNU_SOURCE.
        _ = fcntl(fds[1], 1031, 4096)
        let slow = try XCTUnwrap(fdopen(fds[1], "w"))
        let drain = SlowDrain(fd: fds[0])
        let reader = Thread { drain.run() }
        reader.start()
        var writerOpen = true
        defer {
            drain.stop()
            if writerOpen { fclose(slow) }
            _ = drain.finished.wait(timeout: .now() + 5)
            close(fds[0])
        }
        let ui = try CursesFrontEnd(
            colorMode: .colors256, mirror: true, environment: ["TERM": "xterm-256color"],
            output: slow, input: input)
        ui.resize(columns: 100, rows: 32)
        let frames = (0..<8).map { i in
            TestFrames.place(sergeyPhoto, scale: 0.8 + 0.02 * Double(i), dx: 12 * i, noise: 3, seed: UInt64(i))
        }
        var model = ScreenSamples.model(.capture)
        ui.renderNow(model, preview: frames[0], photo: nil)
        var offered = 0, drawn = 0
        // Frames offered as a 30 fps camera would (a slower machine offers fewer, and they back up no less).
        let end = Date().addingTimeInterval(3)
        while Date() < end {
            offered += 1
            model.picture = .livePreview(oval: .ready, stability: Double(offered % 30) / 30)
            if ui.render(model, preview: frames[offered % frames.count], photo: nil, at: nil) { drawn += 1 }
            Thread.sleep(forTimeInterval: 1.0 / 30)
        }
        XCTAssertLessThan(drawn, offered / 2, "frames skipped on the slow link, not queued")
        XCTAssertGreaterThan(ui.previewInterval, 0.1, "the preview interval grew")
        ui.close()
        fclose(slow)
        writerOpen = false
    }

    func testOneResizeIsReportedOnce() throws {
        let ui = try frontEnd(.colors256)
        defer { ui.close() }
        ui.renderNow(ScreenSamples.model(.capture), preview: nil, photo: nil)
        ui.resize(columns: 60, rows: 20)
        // ncurses queues KEY_RESIZE both from its SIGWINCH handling and from resizeterm.
        for _ in 0..<3 { ungetch(KEY_RESIZE) }
        XCTAssertEqual(ui.readInput(), [.resized(columns: 60, rows: 20)])
        XCTAssertEqual(ui.readInput(), [])
        ui.resize(columns: 90, rows: 30)
        ungetch(KEY_RESIZE)
        XCTAssertEqual(ui.readInput(), [.resized(columns: 90, rows: 30)])
        XCTAssertEqual(ui.size?.columns, 90)
        ungetch(Int32(UInt8(ascii: "q")))
        XCTAssertEqual(ui.readInput(), [.key(.character("q"))])
    }

    func testSuspendGivesTheTerminalBackAndResumeRepaintsEverything() throws {
        let ui = try frontEnd(.colors256)
        defer { ui.close() }
        let model = ScreenSamples.model(.retry)
        let photo = TestFrames.place(sergeyPhoto)
        ui.renderNow(model, preview: nil, photo: ShownPhoto(photo, generation: 1))
        let drawn = bytesWritten()
        ui.renderNow(model, preview: nil, photo: ShownPhoto(photo, generation: 1))
        XCTAssertEqual(bytesWritten(), drawn, "an unchanged screen sends nothing")
        ui.suspend()
        let suspended = bytesWritten()
        XCTAssertGreaterThan(suspended, drawn, "endwin restores the terminal")
        XCTAssertFalse(ui.render(model, preview: nil, photo: ShownPhoto(photo, generation: 1), at: nil))
        XCTAssertEqual(ui.readInput(), [])
        XCTAssertEqual(bytesWritten(), suspended, "nothing is drawn while stopped")
        ui.resume()
        // The shell drew over the screen: all of it is sent again, not only what changed.
        XCTAssertGreaterThan(bytesWritten() - suspended, (drawn * 3) / 4)
        ui.close()
        ui.close()
    }
}

/// Reads a pipe slowly (1 KB every 25 ms) until told to go fast or stop.
private final class SlowDrain: @unchecked Sendable {
    private let fd: Int32
    private let lock = NSLock()
    private var _fast = false
    private var _stopped = false

    /// Signalled when `run` returns (at end of input, once the writer closed the pipe).
    let finished = DispatchSemaphore(value: 0)

    init(fd: Int32) { self.fd = fd }

    var fast: Bool {
        get { lock.withLock { _fast } }
        set { lock.withLock { _fast = newValue } }
    }

    func stop() { lock.withLock { _stopped = true } }

    func run() {
        defer { finished.signal() }
        var buffer = [UInt8](repeating: 0, count: 65536)
        while !lock.withLock({ _stopped }) {
            let want = fast ? buffer.count : 1024
            let got = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, want) }
            if got <= 0 { return }
            if !fast { usleep(25_000) }
        }
    }
}

/// The front end's update clock as a slow link makes it: read as an update starts and as it ends, so each update
/// takes `cost` seconds; nothing here depends on this machine's speed.
private final class UpdateClock: MonotonicClock {
    var cost: Double
    private var time = 0.0
    private var starting = true

    init(cost: Double) { self.cost = cost }

    func now() -> Double {
        if !starting { time += cost }
        starting.toggle()
        return time
    }

    func sleep(_ seconds: Double) { time += max(0, seconds) }
}
