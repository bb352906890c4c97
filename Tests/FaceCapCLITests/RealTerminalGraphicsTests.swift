import Foundation
import XCTest

/// The live preview in real terminals that draw pixels: xterm as a VT340 (sixel) and kitty (kitty graphics),
/// each on its own Xvfb display, looked at through a screenshot (xwd); xterm as a VT100 (no graphics) and
/// tmux answer no, and get cells. Nothing here is told which terminal it is: facecap asks (`--graphics auto`).
///
/// The screenshots are read for what tells pixels from cells: inside the oval, cells change colour only
/// where a cell ends (one colour over each half cell, 6 to 10 screen pixels across), a picture anywhere.
final class RealTerminalGraphicsTests: ScratchDirectoryTestCase {
    private var server: Process?
    private var display = ""
    private var runs = 0

    override func setUpWithError() throws {
        try super.setUpWithError()
        // Xvfb picks a display nobody holds and writes its number once it accepts connections (-displayfd): no
        // race with another Xvfb started meanwhile (a second test run on the machine), and no time limit but a
        // bound on a hang.
        let ready = Pipe()
        let xvfb = Process()
        xvfb.executableURL = URL(fileURLWithPath: "/usr/bin/Xvfb")
        xvfb.arguments = ["-displayfd", "1", "-screen", "0", "800x600x24", "-nolisten", "tcp"]
        xvfb.standardOutput = ready
        xvfb.standardError = FileHandle.nullDevice
        try xvfb.run()
        server = xvfb
        let number = DispatchSemaphore(value: 0)
        nonisolated(unsafe) var line = ""
        DispatchQueue.global().async {
            line = String(decoding: ready.fileHandleForReading.availableData, as: UTF8.self)
            number.signal()
        }
        guard number.wait(timeout: .now() + 120) == .success,
            let display = Int(line.trimmingCharacters(in: .whitespacesAndNewlines))
        else {
            return XCTFail("Xvfb did not say which display it started on: \(line)")
        }
        self.display = ":\(display)"
    }

    override func tearDown() {
        if let server, server.isRunning {
            server.terminate()
            server.waitUntilExit()
        }
        super.tearDown()
    }

    /// A clip that stays on the capture screen: sergey too far away (the oval waits for him).
    private func clip() throws -> String {
        try write("far.y4m", TestClips.sergey(frames: 30) { _ in 0.22 })
    }

    /// Runs facecap in `terminal` (its argument list up to the command) and returns the screenshot taken
    /// a second after the capture screen appeared, with the size of the terminal's window.
    private func screenshot(
        _ terminal: [String], window: (width: Int, height: Int)?,
        environment extra: [String: String] = [:], graphics: String = "auto",
        options: String = ""
    )
        throws -> (XWDImage, Int, Int)
    {
        // Each run its own events file: a facecap still ending from the run before cannot start the clock.
        runs += 1
        let events = "events-\(runs).jsonl"
        let binary = try facecapBinary().path
        let script =
            "cd '\(directory.path)' && '\(binary)' --graphics \(graphics) \(options) --no-tutorial --input '\(try clip())' --loop "
            + "--output out --events \(events) 2> stderr.txt; echo $? > status"
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = terminal + ["sh", "-c", script]
        var environment = ProcessInfo.processInfo.environment
        environment["DISPLAY"] = display
        environment["LC_ALL"] = "C.UTF-8"
        for (key, value) in extra { environment[key] = value }
        for key in ["TMUX", "COLORTERM", "NO_COLOR", "TERM"] { environment[key] = nil }
        // A terminal drawing in software on a loaded machine can take longer than the probe's 0.25 s to answer
        // (kitty then got cells, not its protocol): the wait still ends at its answer to the last question.
        environment["FACECAP_TEST_PROBE_TIMEOUT"] = "20"
        process.environment = environment
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle(forWritingAtPath: "/dev/null")
        try process.run()
        defer {
            if process.isRunning { process.terminate() }
            process.waitUntilExit()
        }
        // Bounds that only stop a hang: the capture screen is waited for (an event), then the preview.
        let deadline = Date().addingTimeInterval(120)
        var capturing = false
        while Date() < deadline, !capturing {
            if let text = try? String(contentsOfFile: path(events), encoding: .utf8),
                text.contains("\"capture\"")
            {
                capturing = true
            }
            Thread.sleep(forTimeInterval: 0.1)
        }
        guard capturing else {
            throw NSError(
                domain: "facecap", code: 1,
                userInfo: [NSLocalizedDescriptionKey: "\(terminal[0]): no capture screen within 120 s"])
        }
        // A terminal drawing in software on a loaded machine may take a while to show the first frames: the
        // screenshot is taken again until the preview is there (up to a minute).
        var result: (XWDImage, Int, Int)?
        let previewBy = Date().addingTimeInterval(60)
        while result == nil || Date() < previewBy {
            Thread.sleep(forTimeInterval: 1.5)
            let shot = path("screen.xwd")
            let xwd = Process()
            xwd.executableURL = URL(fileURLWithPath: "/usr/bin/xwd")
            xwd.arguments = ["-root", "-silent", "-display", display, "-out", shot]
            try xwd.run()
            xwd.waitUntilExit()
            // FACECAP_TEST_SCREENSHOTS=DIR keeps each screenshot (xwd) there, to look at.
            if let keep = ProcessInfo.processInfo.environment["FACECAP_TEST_SCREENSHOTS"] {
                try? FileManager.default.copyItem(
                    atPath: shot, toPath: keep + "/\(terminal[0])-\(graphics)-\(runs).xwd")
            }
            let image = try XWDImage(Data(contentsOf: URL(fileURLWithPath: shot)))
            // xterm's window is the white area from the top-left corner; kitty's is the size it was given.
            let size =
                window ?? (
                    (0..<image.width).last { image[$0, 2] == (255, 255, 255) } ?? image.width,
                    (0..<image.height).last { image[2, $0] == (255, 255, 255) } ?? image.height
                )
            result = (image, size.0, size.1)
            if changes(result!).rate > 0.01 { break }
        }
        return result!
    }

    /// How the preview's colour changes along its rows, in the middle of the preview (the face): the share
    /// of neighbouring pixels that differ, and the share of those changes that fall on one column of a
    /// repeating grid of 5 to 12 pixels (the best such grid). Cells change colour only where a cell ends,
    /// so nearly all their changes fall on the cell grid; a picture's fall anywhere.
    private func changes(_ shot: (XWDImage, Int, Int)) -> (rate: Double, onGrid: Double) {
        let (image, width, height) = shot
        var positions: [Int] = []
        var total = 0
        for y in Int(Double(height) * 0.3)..<Int(Double(height) * 0.5) {
            for x in Int(Double(width) * 0.4)..<Int(Double(width) * 0.6) {
                total += 1
                if image[x, y] != image[x + 1, y] { positions.append(x) }
            }
        }
        guard !positions.isEmpty else { return (0, 0) }
        var best = 0.0
        for period in 5...12 {
            var counts = [Int](repeating: 0, count: period)
            for x in positions { counts[x % period] += 1 }
            best = max(best, Double(counts.max()!) / Double(positions.count))
        }
        return (Double(positions.count) / Double(max(1, total)), best)
    }

    private func describe(_ c: (rate: Double, onGrid: Double)) -> String {
        String(format: "%.2f of neighbouring pixels differ, %.2f of the changes on a cell grid", c.rate, c.onGrid)
    }

    func testXtermAsAVT340GetsSixelAndAsAVT100Cells() throws {
        let font = ["-fa", "DejaVu Sans Mono", "-fs", "10", "-geometry", "80x24+0+0"]
        let sixel = changes(try screenshot(["xterm", "-ti", "vt340"] + font + ["-e"], window: nil))
        print("xterm -ti vt340: " + describe(sixel))
        XCTAssertGreaterThan(sixel.rate, 0.05, "the preview is there")
        XCTAssertLessThan(sixel.onGrid, 0.7, "a sixel picture, not cells")
        // In truecolor: half blocks only, one colour over each half cell. (In 256 colours and in 8 the preview
        // also draws shade glyphs, whose pattern is finer than a cell's: checked below.)
        let cells = changes(
            try screenshot(
                ["xterm", "-ti", "vt100", "-tn", "xterm-256color"] + font + ["-e"],
                window: nil, options: "--color truecolor"))
        print("xterm -ti vt100 --color truecolor: " + describe(cells))
        XCTAssertGreaterThan(cells.rate, 0.01, "the preview is there, in cells")
        XCTAssertGreaterThan(cells.onGrid, 0.9, "cells: one colour over each half cell")
        // As xterm-256color: cells with the 256-colour shade mixes (░ ▒ ▓) where a cell's two pixels are close.
        let mixes = changes(
            try screenshot(
                ["xterm", "-ti", "vt100", "-tn", "xterm-256color"] + font + ["-e"],
                window: nil))
        print("xterm -ti vt100: " + describe(mixes))
        XCTAssertGreaterThan(mixes.rate, 0.01, "the preview is there, in 256 colours")
        XCTAssertLessThan(mixes.onGrid, 0.9, "shade mixes drawn: a pattern finer than a cell (0.29 measured)")
        // As TERM=xterm (8 colours): the preview is there, drawn by the terminal in half blocks and shade glyphs.
        let eight = changes(try screenshot(["xterm", "-ti", "vt100", "-tn", "xterm"] + font + ["-e"], window: nil))
        print("xterm -ti vt100 -tn xterm: " + describe(eight))
        XCTAssertGreaterThan(eight.rate, 0.01, "the preview is there, in 8 colours")
        XCTAssertLessThan(eight.onGrid, 0.9, "shade glyphs drawn: a pattern finer than a cell (0.20 measured)")
    }

    func testKittyGetsTheKittyGraphicsProtocol() throws {
        let config = path("kitty")
        try FileManager.default.createDirectory(atPath: config, withIntermediateDirectories: true)
        // kitty needs OpenGL 3.3: Mesa's software renderer gives it under Xvfb.
        let kitty = [
            "kitty", "--config", "NONE", "-o", "initial_window_width=640", "-o", "initial_window_height=420",
            "-o", "remember_window_size=no", "-o", "placement_strategy=top-left", "-o", "window_padding_width=0",
        ]
        let environment = [
            "LIBGL_ALWAYS_SOFTWARE": "1", "KITTY_CONFIG_DIRECTORY": config, "XDG_CACHE_HOME": config,
            "XDG_RUNTIME_DIR": config,
        ]
        let pixels = changes(try screenshot(kitty, window: (640, 420), environment: environment))
        // The same in cells (truecolor in kitty): one colour over each half cell.
        let cells = changes(try screenshot(kitty, window: (640, 420), environment: environment, graphics: "cells"))
        print("kitty: " + describe(pixels) + "; with --graphics cells: " + describe(cells))
        XCTAssertGreaterThan(pixels.rate, 0.01, "the preview is there")
        XCTAssertLessThan(pixels.onGrid, 0.7, "a kitty image, not cells")
        XCTAssertGreaterThan(cells.rate, 0.01, "the preview is there, in cells")
        XCTAssertGreaterThan(cells.onGrid, 0.9, "cells: one colour over each half cell")
    }
}

/// An X window dump (xwd's format, 24-bit TrueColor in 3- or 4-byte pixels), for the tests to read pixels from.
struct XWDImage {
    let width: Int, height: Int
    private let pixels: [UInt8]
    private let stride: Int, bytesPerPixel: Int, littleEndian: Bool

    init(_ data: Data) throws {
        let bytes = [UInt8](data)
        func field(_ i: Int) -> Int {
            Int(bytes[i * 4]) << 24 | Int(bytes[i * 4 + 1]) << 16 | Int(bytes[i * 4 + 2]) << 8 | Int(bytes[i * 4 + 3])
        }
        guard bytes.count >= 100 else { throw NSError(domain: "xwd", code: 1) }
        let headerSize = field(0)
        width = field(4)
        height = field(5)
        littleEndian = field(7) == 0
        stride = field(12)
        // 4 bytes a pixel, or 3 (what xwd writes once a GL client such as kitty is on the display).
        bytesPerPixel = field(11) / 8
        guard field(3) == 24, [3, 4].contains(bytesPerPixel), stride >= width * bytesPerPixel else {
            throw NSError(domain: "xwd", code: 2, userInfo: [NSLocalizedDescriptionKey: "not 24-bit TrueColor pixels"])
        }
        let colours = field(19)
        let start = headerSize + colours * 12
        guard bytes.count >= start + stride * height else { throw NSError(domain: "xwd", code: 3) }
        pixels = Array(bytes[start...])
    }

    subscript(x: Int, y: Int) -> (Int, Int, Int) {
        let p = y * stride + x * bytesPerPixel
        if littleEndian { return (Int(pixels[p + 2]), Int(pixels[p + 1]), Int(pixels[p])) }
        let q = p + bytesPerPixel - 3
        return (Int(pixels[q]), Int(pixels[q + 1]), Int(pixels[q + 2]))
    }
}

/// tmux 3.3 answers the device attributes itself, without sixel, and drops kitty's query: `--graphics auto`
/// gets cells there, promptly, and none of the replies shows on the screen or reaches the keys.
final class TmuxGraphicsFallbackTests: ScratchDirectoryTestCase {
    func testAutoInTmuxDrawsCellsAndLeavesNoReplyBehind() throws {
        let binary = try facecapBinary().path
        let clip = try write("far.y4m", TestClips.sergey(frames: 30) { _ in 0.22 })
        let command =
            "cd '\(directory.path)' && env -u NO_COLOR -u COLORTERM LC_ALL=C.UTF-8 TERM=tmux-256color "
            + "'\(binary)' --graphics auto --no-tutorial --input '\(clip)' --loop --output out; exec sleep 600"
        let start = Date()
        let tmux = try TmuxSession(command, columns: 80, rows: 24)
        XCTAssertTrue(tmux.waitFor("▀", timeout: 120), "the preview in half blocks: " + tmux.screen())
        let seconds = Date().timeIntervalSince(start)
        print("tmux: first preview cells after \(String(format: "%.2f", seconds)) s (models loaded, probe answered)")
        let screen = tmux.screen()
        for leak in ["?1;2c", "Gi=31", "[?2;", ";OK"] {
            XCTAssertFalse(screen.contains(leak), "a reply '\(leak)' on the screen: " + screen)
        }
        XCTAssertTrue(screen.contains("Taking your selfie"), screen)
        // Still capturing: no reply bytes were read as a key that ends or changes the screen.
        Thread.sleep(forTimeInterval: 1)
        XCTAssertTrue(tmux.screen().contains("Taking your selfie"), tmux.screen())
        tmux.send("q")
    }
}
