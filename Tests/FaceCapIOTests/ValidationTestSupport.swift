import FaceCapCore
import Foundation
import XCTest

@testable import FaceCapIO

/// Tests/Support/validation_server.py, a scripted HTTP server on 127.0.0.1, run as a child process for
/// one test and stopped (by its pid) at the end.
final class ValidationServer {
    static let script = fixturesDirectory.deletingLastPathComponent().appendingPathComponent("Support")
        .appendingPathComponent("validation_server.py").path

    let process = Process()
    let port: Int
    let recordPath: String
    let scheme: String

    /// Starts the server with `steps` (see the script's docstring); `port` 0 picks a free one. `options`: more
    /// of the script's options (`--token`, `--preflight`).
    init(
        _ steps: [[String: Any]], in directory: TemporaryDirectory, port: Int = 0,
        tls: (cert: String, key: String)? = nil, options: [String] = []
    ) throws {
        let scriptPath = directory.path("script-\(UUID().uuidString).json")
        try JSONSerialization.data(withJSONObject: steps).write(to: URL(fileURLWithPath: scriptPath))
        recordPath = directory.path("requests-\(UUID().uuidString).jsonl")
        scheme = tls == nil ? "http" : "https"
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments =
            [
                "python3", Self.script, "--script", scriptPath, "--record", recordPath,
                "--port", String(port),
            ] + (tls.map { ["--tls", $0.cert, $0.key] } ?? []) + options
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        // "PORT n" once it listens; bounded, so a server that cannot start fails the test, never hangs it.
        let fd = output.fileHandleForReading.fileDescriptor
        var line = [UInt8]()
        let deadline = Date().addingTimeInterval(15)
        while !line.contains(0x0A), Date() < deadline {
            var pfd = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&pfd, 1, 200) > 0 else { continue }
            var byte: UInt8 = 0
            guard read(fd, &byte, 1) == 1 else { break }
            line.append(byte)
        }
        let text = String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard text.hasPrefix("PORT "), let number = Int(text.dropFirst(5)) else {
            process.terminate()
            throw SetupFailure("the test server did not start (said '\(text)')")
        }
        self.port = number
    }

    var url: String { "\(scheme)://127.0.0.1:\(port)/validate" }

    /// Every request the server saw, in order.
    func requests() throws -> [[String: Any]] {
        guard let data = FileManager.default.contents(atPath: recordPath) else { return [] }
        return try String(decoding: data, as: UTF8.self).split(separator: "\n").map {
            try XCTUnwrap(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
    }

    /// The body bytes the server had written of each chunked oversized reply when the client stopped reading
    /// (or all of them), in order.
    func bytesSent() -> [Int] {
        guard let data = FileManager.default.contents(atPath: recordPath + ".sent") else { return [] }
        return String(decoding: data, as: UTF8.self).split(separator: "\n").compactMap { Int($0) }
    }

    func stop() {
        guard process.isRunning else { return }
        kill(process.processIdentifier, SIGTERM)
        process.waitUntilExit()
    }

    deinit { stop() }
}

/// A setup problem reported as a test failure (the tests must fail, not skip, when they cannot run).
struct SetupFailure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

extension Dictionary where Key == String, Value == Any {
    /// The recorded request's header `name` (lower-case).
    func header(_ name: String) -> String? { (self["headers"] as? [String: String])?[name] }
    var parts: [[String: Any]] { (self["parts"] as? [[String: Any]]) ?? [] }
}

enum ValidationFixtures {
    /// A photo of `width`×`height` (smooth gradient, or noise that JPEG cannot shrink) with a report
    /// measured on it; attempt and final flag as given.
    static func photo(
        width: Int = 64, height: Int = 48, noise: Bool = false, attempt: Int = 1,
        isFinal: Bool = false, key: String? = nil
    ) throws -> CapturedPhoto {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        let data = (0..<(width * height * 3)).map { i -> UInt8 in
            guard noise else { return UInt8((i / 3 % width) * 255 / max(width - 1, 1)) }
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return UInt8(truncatingIfNeeded: state >> 56)
        }
        let frame = Frame(format: .rgb24, width: width, height: height, colorRange: .full, data: data)
        let report = PhotoReport(
            version: "0.1.0-test", capturedAt: PhotoStore.timestamp(time: 1_796_000_000), captureMode: .manual,
            attempt: attempt, isFinal: isFinal,
            source: .camera(device: "/dev/video0", width: width, height: height, frameRate: 30, pixelFormat: "yuyv"),
            photoWidth: width, photoHeight: height,
            metrics: FaceMeasures.measure(frame: frame, faces: [], thresholds: AnalyzerThresholds()),
            guidance: [.noFace], face: nil,
            models: [.init(file: "face_landmark.tflite", sha256: String(repeating: "0", count: 64))])
        if let key { return try CapturedPhoto(frame: frame, report: report, idempotencyKey: key) }
        return try CapturedPhoto(frame: frame, report: report)
    }

    /// Runs one check through `worker`, polling its descriptor as the run loop does, until the final
    /// outcome or `timeout` seconds.
    static func run(
        _ worker: ValidationWorker, _ photo: CapturedPhoto, _ request: ValidationRequest,
        timeout: Double = 20
    ) -> (outcome: ValidationOutcome?, progress: [Double], seconds: Double) {
        let start = Date()
        XCTAssertTrue(worker.start(photo: photo, request: request))
        var progress: [Double] = []
        while Date().timeIntervalSince(start) < timeout {
            var pfd = pollfd(fd: worker.descriptor, events: Int16(POLLIN), revents: 0)
            _ = poll(&pfd, 1, 100)
            for outcome in worker.drain() {
                if case .progress(let fraction) = outcome {
                    progress.append(fraction)
                } else {
                    return (outcome, progress, Date().timeIntervalSince(start))
                }
            }
        }
        return (nil, progress, Date().timeIntervalSince(start))
    }
}
