import Foundation
import XCTest

/// The live preview in real terminals that draw pixels: xterm as a VT340 (sixel) and kitty (kitty graphics),
/// each on its own Xvfb display, looked at through a screenshot (xwd); xterm as a VT100 (no graphics) and
/// tmux answer no, and get cells. Nothing here is told which terminal it is: facecap asks (`--graphics auto`).
///
/// The screenshots are read for what tells pixels from cells: inside the oval, neighbouring screen pixels
/// differ often in a picture (a dithered sixel, a scaled kitty image), while cells hold one colour over each
/// half cell (6 to 10 screen pixels across).
final class RealTerminalGraphicsTests: ScratchDirectoryTestCase {
    private var server: Process?
    private var display = ""

    override func setUpWithError() throws {
        try super.setUpWithError()
        // A display number nobody holds.
        let number = (90..<200).first {
            !FileManager.default.fileExists(atPath: "/tmp/.X11-unix/X\($0)")
                && !FileManager.default.fileExists(atPath: "/tmp/.X\($0)-lock")
        }!
        display = ":\(number)"
        let xvfb = Process()
        xvfb.executableURL = URL(fileURLWithPath: "/usr/bin/Xvfb")
        xvfb.arguments = [display, "-screen", "0", "800x600x24", "-nolisten", "tcp"]
        xvfb.standardOutput = FileHandle.nullDevice
        xvfb.standardError = FileHandle.nullDevice
        try xvfb.run()
        server = xvfb
        let deadline = Date().addingTimeInterval(10)
        while !FileManager.default.fileExists(atPath: "/tmp/.X11-unix/X\(number)") && Date() < deadline {
            Thread.sleep(forTimeInterval: 0.05)
        }
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
    private func screenshot(_ terminal: [String], window: (width: Int, height: Int)?,
                            environment extra: [String: String] = [:]) throws -> (XWDImage, Int, Int) {
        let binary = try facecapBinary().path
        let script = "cd '\(directory.path)' && '\(binary)' --no-tutorial --input '\(try clip())' --loop "
            + "--output out --events events.jsonl 2> stderr.txt; echo $? > status"
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = terminal + ["sh", "-c", script]
        var environment = ProcessInfo.processInfo.environment
        environment["DISPLAY"] = display
        environment["LC_ALL"] = "C.UTF-8"
        for (key, value) in extra { environment[key] = value }
        for key in ["TMUX", "COLORTERM", "NO_COLOR", "TERM"] { environment[key] = nil }
        process.environment = environment
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle(forWritingAtPath: "/dev/null")
        try process.run()
        defer {
            if process.isRunning { process.terminate() }
            process.waitUntilExit()
        }
        let deadline = Date().addingTimeInterval(40)
        while Date() < deadline {
            if let events = try? String(contentsOfFile: path("events.jsonl"), encoding: .utf8),
               events.contains("\"capture\"") { break }
            Thread.sleep(forTimeInterval: 0.1)
        }
        Thread.sleep(forTimeInterval: 1.5)
        let shot = path("screen.xwd")
        let xwd = Process()
        xwd.executableURL = URL(fileURLWithPath: "/usr/bin/xwd")
        xwd.arguments = ["-root", "-silent", "-display", display, "-out", shot]
        try xwd.run()
        xwd.waitUntilExit()
        let image = try XWDImage(Data(contentsOf: URL(fileURLWithPath: shot)))
        // xterm's window is the white area from the top-left corner; kitty's is the size it was given.
        let size = window ?? (
            (0..<image.width).last { image[$0, 2] == (255, 255, 255) } ?? image.width,
            (0..<image.height).last { image[2, $0] == (255, 255, 255) } ?? image.height)
        return (image, size.0, size.1)
    }

    /// The share of horizontally neighbouring pixels that differ, in the middle of the preview (inside the oval).
    private func changes(_ shot: (XWDImage, Int, Int)) -> Double {
        let (image, width, height) = shot
        var changed = 0, total = 0
        for y in Int(Double(height) * 0.22)..<Int(Double(height) * 0.5) {
            for x in Int(Double(width) * 0.4)..<Int(Double(width) * 0.6) {
                total += 1
                if image[x, y] != image[x + 1, y] { changed += 1 }
            }
        }
        return Double(changed) / Double(max(1, total))
    }

    func testXtermAsAVT340GetsSixelAndAsAVT100Cells() throws {
        let font = ["-fa", "DejaVu Sans Mono", "-fs", "10", "-geometry", "80x24+0+0"]
        let sixel = changes(try screenshot(["xterm", "-ti", "vt340"] + font + ["-e"], window: nil))
        print("xterm -ti vt340: \(String(format: "%.2f", sixel)) of neighbouring pixels differ in the preview")
        XCTAssertGreaterThan(sixel, 0.25, "a sixel picture, not cells")
        try? FileManager.default.removeItem(atPath: path("events.jsonl"))
        let cells = changes(try screenshot(["xterm", "-ti", "vt100"] + font + ["-e"], window: nil))
        print("xterm -ti vt100: \(String(format: "%.2f", cells)) of neighbouring pixels differ in the preview")
        XCTAssertLessThan(cells, 0.18, "cells: one colour over each half cell")
        XCTAssertGreaterThan(cells, 0.01, "the preview is there, in cells")
    }

    func testKittyGetsTheKittyGraphicsProtocol() throws {
        let config = path("kitty")
        try FileManager.default.createDirectory(atPath: config, withIntermediateDirectories: true)
        // kitty needs OpenGL 3.3: Mesa's software renderer gives it under Xvfb.
        let pixels = changes(try screenshot(
            ["kitty", "--config", "NONE", "-o", "initial_window_width=640", "-o", "initial_window_height=420",
             "-o", "remember_window_size=no", "-o", "placement_strategy=top-left", "-o", "window_padding_width=0"],
            window: (640, 420),
            environment: ["LIBGL_ALWAYS_SOFTWARE": "1", "KITTY_CONFIG_DIRECTORY": config,
                          "XDG_CACHE_HOME": config, "XDG_RUNTIME_DIR": config]))
        print("kitty: \(String(format: "%.2f", pixels)) of neighbouring pixels differ in the preview")
        XCTAssertGreaterThan(pixels, 0.25, "a kitty image, not cells")
    }
}

/// An X window dump (xwd's format, 24-bit TrueColor, 32 bits a pixel), for the tests to read pixels from.
struct XWDImage {
    let width: Int, height: Int
    private let pixels: [UInt8]
    private let stride: Int, littleEndian: Bool

    init(_ data: Data) throws {
        let bytes = [UInt8](data)
        func field(_ i: Int) -> Int {
            Int(bytes[i * 4]) << 24 | Int(bytes[i * 4 + 1]) << 16 | Int(bytes[i * 4 + 2]) << 8 | Int(bytes[i * 4 + 3])
        }
        guard bytes.count >= 100 else { throw NSError(domain: "xwd", code: 1) }
        let headerSize = field(0)
        guard field(11) == 32 else { throw NSError(domain: "xwd", code: 2, userInfo: [NSLocalizedDescriptionKey: "not 32 bpp"]) }
        width = field(4)
        height = field(5)
        littleEndian = field(7) == 0
        stride = field(12)
        let colours = field(19)
        let start = headerSize + colours * 12
        guard bytes.count >= start + stride * height else { throw NSError(domain: "xwd", code: 3) }
        pixels = Array(bytes[start...])
    }

    subscript(x: Int, y: Int) -> (Int, Int, Int) {
        let p = y * stride + x * 4
        if littleEndian { return (Int(pixels[p + 2]), Int(pixels[p + 1]), Int(pixels[p])) }
        return (Int(pixels[p + 1]), Int(pixels[p + 2]), Int(pixels[p + 3]))
    }
}

/// tmux 3.3 answers the device attributes itself, without sixel, and drops kitty's query: `--graphics auto`
/// gets cells there, promptly, and none of the replies shows on the screen or reaches the keys.
final class TmuxGraphicsFallbackTests: ScratchDirectoryTestCase {
    func testAutoInTmuxDrawsCellsAndLeavesNoReplyBehind() throws {
        let binary = try facecapBinary().path
        let clip = try write("far.y4m", TestClips.sergey(frames: 30) { _ in 0.22 })
        let command = "cd '\(directory.path)' && env -u NO_COLOR -u COLORTERM LC_ALL=C.UTF-8 TERM=tmux-256color "
            + "'\(binary)' --graphics auto --no-tutorial --input '\(clip)' --loop --output out; exec sleep 600"
        let start = Date()
        let tmux = try TmuxSession(command, columns: 80, rows: 24)
        XCTAssertTrue(tmux.waitFor("▀", timeout: 20), "the preview in half blocks: " + tmux.screen())
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
