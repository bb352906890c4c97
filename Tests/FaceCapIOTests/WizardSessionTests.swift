import FaceCapCore
import Foundation
import Synchronization
import XCTest

@testable import FaceCapIO

/// The session's loop with fakes around it (source, front end, checker): the events it writes follow the
/// flow's order even when an effect (opening the camera, saving the photo) answers at once.
final class WizardSessionTests: XCTestCase {
    var temp: TemporaryDirectory!

    override func setUpWithError() throws {
        temp = try TemporaryDirectory()
        chmod(temp.url.path, 0o700)
    }

    override func tearDown() { temp.remove() }

    private func session(
        _ settings: WizardSettings, frontEnd: WizardFrontEnd, opener: FrameSourceOpener,
        checker: any PhotoChecker = UnreachableChecker()
    ) throws -> WizardSession {
        let models = try ModelFiles.loadFaceModels()
        let tracker = try SharedFaceTracker(detector: models.detector, landmarks: models.landmarks)
        var thresholds = AnalyzerThresholds()
        thresholds.manualAfter = settings.manualAfter
        let photos = try WizardPhotos(
            checker: checker, validator: .server,
            store: PhotoStore(directory: temp.path("out")), version: "0.1.0-test",
            models: [])
        return WizardSession(
            settings: settings, frontEnd: frontEnd, events: try EventLog(path: temp.path("events")),
            tracker: tracker, thresholds: thresholds, photos: photos, opener: opener)
    }

    private func events() throws -> [[String: Any]] {
        let text = String(decoding: FileManager.default.contents(atPath: temp.path("events")) ?? Data(), as: UTF8.self)
        return try text.split(separator: "\n").map {
            try XCTUnwrap(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
    }

    private func checkOrder(
        _ log: [[String: Any]], exit code: Int, file: StaticString = #filePath,
        line: UInt = #line
    ) {
        XCTAssertEqual(log.last?["event"] as? String, "exit", "exit is the last event: \(log)", file: file, line: line)
        XCTAssertEqual(log.last?["code"] as? Int, code, file: file, line: line)
        let times = log.compactMap { $0["t"] as? Double }
        XCTAssertEqual(times, times.sorted(), "t never goes back: \(log)", file: file, line: line)
    }

    func testACameraThatCannotOpenEndsWithExitAsTheLastEvent() throws {
        var settings = WizardSettings()
        settings.plain = true
        settings.showTutorial = false
        let problem = CameraProblem(kind: .noCamera, message: "no camera at /dev/video99", exitCode: .noCamera)
        let session = try session(settings, frontEnd: ScriptedFrontEnd(), opener: FakeOpener(failure: problem))
        XCTAssertEqual(session.run(), .noCamera)
        let log = try events()
        XCTAssertEqual(log.map { $0["event"] as? String }, ["screen", "exit"], "\(log)")
        XCTAssertEqual(log.first?["screen"] as? String, "capture")
        checkOrder(log, exit: 69)
    }

    func testAFailedOpenOnTheFullScreenIsAnnouncedAfterTheCaptureScreen() throws {
        var settings = WizardSettings()
        settings.showTutorial = false
        let problem = CameraProblem(kind: .busy, message: "/dev/video0 is busy", exitCode: .noCamera)
        let frontEnd = ScriptedFrontEnd(size: (80, 24), keys: [.cameraBusy: .character("q")])
        let session = try session(settings, frontEnd: frontEnd, opener: FakeOpener(failure: problem))
        XCTAssertEqual(session.run(), .noCamera)
        let log = try events()
        XCTAssertEqual(
            log.compactMap { $0["screen"] as? String }, ["capture", "cameraBusy"],
            "the last screen announced is the one shown")
        checkOrder(log, exit: 69)
    }

    func testQuittingWhileTheServerIsUnreachableSavesThePhotoAndExitIsTheLastEvent() throws {
        var settings = WizardSettings()
        settings.plain = true
        settings.showTutorial = false
        settings.usesServer = true
        settings.manualAfter = 0
        let frontEnd = ScriptedFrontEnd(keys: [.manualCapture: .space, .connectionError: .character("q")])
        let session = try session(settings, frontEnd: frontEnd, opener: FakeOpener(failure: nil))
        XCTAssertEqual(session.run(), .serverUnreachable)
        let log = try events()
        let screens = log.compactMap { $0["screen"] as? String }
        XCTAssertEqual(
            Array(screens.prefix(4)), ["capture", "manualCapture", "uploading", "connectionError"], "\(log)")
        let names = log.map { $0["event"] as? String ?? "?" }
        XCTAssertEqual(Array(names.suffix(2)), ["saved", "exit"], "\(log)")
        checkOrder(log, exit: 75)
        let saved = try XCTUnwrap(log.first { $0["event"] as? String == "saved" })
        XCTAssertTrue(FileManager.default.fileExists(atPath: try XCTUnwrap(saved["photo"] as? String)))
    }

    func testACameraThatPausesShowsItWaitsAndTheGuidanceComesBack() throws {
        var settings = WizardSettings()
        settings.showTutorial = false
        let frontEnd = PrimaryRecorder()
        let opener = FakeOpener(failure: nil, pause: (afterFrames: 12, seconds: 1.6))
        let session = try session(settings, frontEnd: frontEnd, opener: opener)
        XCTAssertEqual(session.run(), .cancelled)
        let primaries = frontEnd.primaries.reduce(into: [String]()) { if $0.last != $1 { $0.append($1) } }
        let waiting = try XCTUnwrap(primaries.firstIndex(of: "Waiting for the camera…"), "\(primaries)")
        XCTAssertGreaterThan(waiting, 0, "live guidance came first: \(primaries)")
        XCTAssertLessThan(waiting, primaries.count - 1, "and came back after the pause: \(primaries)")
        XCTAssertTrue(frontEnd.countdowns.contains("No new picture for 1 s"), "\(frontEnd.countdowns)")
        XCTAssertFalse(
            try events().contains { $0["screen"] as? String == "connectionError" },
            "a pause shorter than the camera's 5 s limit is not a lost camera")
    }

    /// One gate, end to end: a still face just over the light limit (face luma ~64 against 60) is captured and
    /// refused for `tooDark` by the checker; back in capture, the same still face must clear 60 by the margin
    /// (68) first, so it is never captured again — before the fix it was, a second after the retry. The run ends
    /// 150 frames (5 s of the camera's time) after the capture screen came back, however slowly they are analysed:
    /// decided by frames, not by the wall clock (it had quit after 7 s, too soon for a slow or sanitized run).
    func testAPhotoRefusedForTooDarkIsNotCapturedAgainUntilTheLightClears() throws {
        var settings = WizardSettings()
        settings.plain = true
        settings.showTutorial = false
        settings.plainRetryDelay = 0.5
        let checker = RefuseOnce(reasons: ["tooDark"])
        let quit = QuitAfterFrames(frames: 150)
        let frontEnd = QuitWhenCounted(quit)
        let session = try session(
            settings, frontEnd: frontEnd,
            opener: StillOpener(frame: try Self.dimSergey(gain: 0.57), counting: quit),
            checker: checker)
        XCTAssertEqual(session.run(), .cancelled)
        XCTAssertTrue(quit.reached, "the run ended on its count of frames, not on the watchdog")
        let log = try events()
        let captures = log.filter { $0["event"] as? String == "captured" }
        XCTAssertEqual(captures.count, 1, "refused, then never captured again with the same fault: \(log)")
        XCTAssertEqual(checker.checks, 1)
        let afterRetry = log.drop { $0["event"] as? String != "validation" }
        let guidance = afterRetry.compactMap { $0["event"] as? String == "guidance" ? $0["primary"] as? String : nil }
        XCTAssertEqual(guidance.last, "tooDark", "the capture screen keeps saying what to change: \(log)")
    }

    /// sergey.png as a 640×480 webcam frame (the face 0.38 of the width, centred), every sample × `gain`.
    static func dimSergey(gain: Double) throws -> Frame {
        let photo = try ImageFile.read(path: fixturePath("sergey.png"))
        XCTAssertEqual(photo.format, .rgb24)
        let width = 640, height = 480
        // sergey's face is 343 of the photo's 600 pixels wide.
        let scale = 0.38 * Double(width) / 343
        var data = [UInt8](repeating: 128, count: width * height * 3)
        for y in 0..<height {
            for x in 0..<width {
                let sx = Int((Double(x - width / 2) / scale + 300).rounded())
                let sy = Int((Double(y - height / 2) / scale + 300).rounded())
                guard sx >= 0, sy >= 0, sx < photo.width, sy < photo.height else { continue }
                for c in 0..<3 {
                    let v = Double(photo.data[(sy * photo.width + sx) * 3 + c]) * gain
                    data[(y * width + x) * 3 + c] = UInt8(min(255, v.rounded()))
                }
            }
        }
        return Frame(format: .rgb24, width: width, height: height, colorRange: .full, timestamp: 0, data: data)
    }

    /// FACECAP_FRAME_STATS while the wizard runs: rewritten whole (renamed over, no temporary left), each time
    /// with the histogram's buckets adding up to the frames counted so far.
    func testFrameStatsAreWrittenWhileItRunsWithTheirBuckets() throws {
        var settings = WizardSettings()
        settings.plain = true
        settings.showTutorial = false
        settings.manualAfter = 0.5
        let frontEnd = ScriptedFrontEnd(keys: [.manualCapture: .character("q")])
        let session = try session(settings, frontEnd: frontEnd, opener: FakeOpener(failure: nil))
        let path = temp.path("frames.json")
        session.frameStatsPath = path
        session.frameStatsInterval = 0.1
        _ = session.run()
        func stats() throws -> [String: Any] {
            let data = try XCTUnwrap(FileManager.default.contents(atPath: path), "written while it ran")
            return try XCTUnwrap(JSONSerialization.jsonObject(with: data) as? [String: Any])
        }
        let during = try stats()
        let frames = try XCTUnwrap(during["frames"] as? Int)
        XCTAssertGreaterThan(frames, 0)
        XCTAssertLessThanOrEqual(frames, session.framesAnalysed)
        let buckets = try XCTUnwrap(during["buckets"] as? [[Int]])
        XCTAssertEqual(buckets.map { $0[1] }.reduce(0, +), frames, "\(during)")
        XCTAssertEqual(during["bucket_ms"] as? Double, 0.1)
        XCTAssertFalse(FileManager.default.fileExists(atPath: path + ".tmp"))
        XCTAssertGreaterThan(
            try XCTUnwrap(during["frames_read"] as? Int), frames, "every frame read, every other analysed")
        try session.writeFrameStats(to: path)
        XCTAssertEqual(try stats()["frames"] as? Int, session.framesAnalysed)
        XCTAssertEqual(try stats()["frames_read"] as? Int, session.framesRead)
        // The grey source sends 30 frames a second; the cadence analyses every other one.
        XCTAssertEqual(Double(session.framesAnalysed), Double(session.framesRead) / 2, accuracy: 1)
    }
}

/// Opens a grey 160×120 source at 30 fps (with no frames for `pause.seconds` once `pause.afterFrames` were
/// read), or fails with `failure`.
private final class FakeOpener: FrameSourceOpener {
    let failure: CameraProblem?
    let pause: (afterFrames: Int, seconds: Double)?

    init(failure: CameraProblem?, pause: (afterFrames: Int, seconds: Double)? = nil) {
        self.failure = failure
        self.pause = pause
    }

    func open() throws(CameraProblem) -> FrameSource {
        if let failure { throw failure }
        return GreySource(pause: pause)
    }

    func cameras() -> [CameraChoice] { [] }
    func choose(_ path: String) {}
}

private final class GreySource: FrameSource {
    let width = 160, height = 120
    let format = PixelFormat.gray
    let frameRate = 30.0
    let label = "grey"
    var pollDescriptor: Int32? { nil }
    private var start = Date()
    private var delivered = 0
    /// No frame for `seconds` once `afterFrames` were read (a camera that stops sending for a while), counted
    /// from the moment the last frame before it was read, however slowly the reader went.
    private let pause: (afterFrames: Int, seconds: Double)?
    private var pausedAt: Date?
    private var paused = false

    init(pause: (afterFrames: Int, seconds: Double)? = nil) { self.pause = pause }

    private var due: Double { Double(delivered) / frameRate - Date().timeIntervalSince(start) }

    var secondsUntilNextFrame: Double? {
        if let pausedAt, let pause { return max(0, pause.seconds - Date().timeIntervalSince(pausedAt)) }
        return max(0, due)
    }

    func nextFrame(into frame: inout Frame, timeout: Double) throws(FrameSourceError) -> FrameReadResult {
        if let pause, !paused, delivered == pause.afterFrames {
            paused = true
            pausedAt = Date()
        }
        if let pausedAt, let pause {
            let waited = Date().timeIntervalSince(pausedAt)
            guard waited >= pause.seconds else { return .noFrameYet }
            start = start.addingTimeInterval(waited)
            self.pausedAt = nil
        }
        guard due <= 0 else { return .noFrameYet }
        frame = Frame(
            format: .gray, width: width, height: height, colorRange: .full,
            timestamp: Double(delivered) / frameRate, data: [UInt8](repeating: 120, count: width * height))
        delivered += 1
        return .frame
    }

    func close() {}
}

/// A front end that draws nothing and presses a key when a screen first shows (through a pipe, so the
/// session's poll wakes up for it).
private final class ScriptedFrontEnd: WizardFrontEnd {
    let size: (columns: Int, rows: Int)?
    private var keys: [ScreenName: Key]
    private var pending: [Key] = []
    private let pipeEnds: [Int32]

    init(size: (columns: Int, rows: Int)? = nil, keys: [ScreenName: Key] = [:]) {
        self.size = size
        self.keys = keys
        var ends: [Int32] = [-1, -1]
        _ = pipe(&ends)
        pipeEnds = ends
    }

    deinit {
        for end in pipeEnds where end >= 0 { Glibc.close(end) }
    }

    var inputDescriptor: Int32? { pipeEnds[0] }

    func readInput() -> [FrontEndInput] {
        var byte: UInt8 = 0
        for _ in pending { _ = read(pipeEnds[0], &byte, 1) }
        defer { pending = [] }
        return pending.map(FrontEndInput.key)
    }

    func render(_ model: ScreenModel, preview: Frame?, photo: ShownPhoto?) {
        guard let key = keys.removeValue(forKey: model.name) else { return }
        pending.append(key)
        var byte: UInt8 = 1
        _ = write(pipeEnds[1], &byte, 1)
    }

    func resize() -> (columns: Int, rows: Int)? { size }
    func suspend() {}
    func resume() {}
    func close() {}
}

/// A front end that keeps every primary message and countdown it is given and quits (q) as soon as the capture
/// screen's guidance came back from "Waiting for the camera…" (an event, not a time: it had waited a second more,
/// and a 15-s watchdog could end a slow run first).
private final class PrimaryRecorder: WizardFrontEnd, @unchecked Sendable {  // the watchdog thread only writes the pipe
    private(set) var primaries: [String] = []
    private(set) var countdowns: [String] = []
    private var quitSent = false
    private let pipeEnds: [Int32]

    init() {
        var ends: [Int32] = [-1, -1]
        _ = pipe(&ends)
        pipeEnds = ends
        // A watchdog: q after 300 s whatever happened, so a broken pause fails the assertions, never hangs.
        DispatchQueue.global().asyncAfter(deadline: .now() + 300) { [self] in pressQ() }
    }

    deinit {
        for end in pipeEnds where end >= 0 { Glibc.close(end) }
    }

    private func pressQ() {
        var byte: UInt8 = 1
        _ = write(pipeEnds[1], &byte, 1)
    }

    var size: (columns: Int, rows: Int)? { (80, 24) }
    var inputDescriptor: Int32? { pipeEnds[0] }

    func readInput() -> [FrontEndInput] {
        var byte: UInt8 = 0
        _ = read(pipeEnds[0], &byte, 1)
        return [.key(.character("q"))]
    }

    func render(_ model: ScreenModel, preview: Frame?, photo: ShownPhoto?) {
        guard model.name == .capture, let primary = model.primary else { return }
        primaries.append(primary)
        if let countdown = model.countdown { countdowns.append(countdown) }
        if !quitSent, primary != "Waiting for the camera…", primaries.contains("Waiting for the camera…") {
            quitSent = true
            pressQ()
        }
    }

    func resize() -> (columns: Int, rows: Int)? { size }
    func suspend() {}
    func resume() {}
    func close() {}
}

/// A server that is never reachable.
private final class UnreachableChecker: PhotoChecker {
    func check(
        _ photo: CapturedPhoto, request: ValidationRequest, cancellation: Cancellation,
        progress: (Double) -> Void
    ) -> ValidationOutcome {
        .unreachable(reason: .refused(place: "127.0.0.1:9"), retryAfter: nil)
    }
}

/// A source of one still frame at 30 fps, as a camera pointed at a person holding still; each frame it gives is
/// counted by `counting`.
private final class StillOpener: FrameSourceOpener {
    let frame: Frame
    let counting: QuitAfterFrames?
    init(frame: Frame, counting: QuitAfterFrames? = nil) {
        self.frame = frame
        self.counting = counting
    }
    func open() throws(CameraProblem) -> FrameSource { StillSource(still: frame, counting: counting) }
    func cameras() -> [CameraChoice] { [] }
    func choose(_ path: String) {}
}

private final class StillSource: FrameSource {
    let still: Frame
    var width: Int { still.width }
    var height: Int { still.height }
    var format: PixelFormat { still.format }
    let frameRate = 30.0
    let label = "still"
    var pollDescriptor: Int32? { nil }
    private let start = Date()
    private var delivered = 0
    private let counting: QuitAfterFrames?

    init(still: Frame, counting: QuitAfterFrames?) {
        self.still = still
        self.counting = counting
    }

    private var due: Double { Double(delivered) / frameRate - Date().timeIntervalSince(start) }
    var secondsUntilNextFrame: Double? { max(0, due) }

    func nextFrame(into frame: inout Frame, timeout: Double) throws(FrameSourceError) -> FrameReadResult {
        guard due <= 0 else { return .noFrameYet }
        frame = still
        frame.timestamp = Double(delivered) / frameRate
        delivered += 1
        counting?.frameGiven()
        return .frame
    }

    func close() {}
}

/// Counts the frames a source gives once the capture screen is back after a retry, and presses q (through a pipe
/// the session polls) when `frames` were given; a watchdog presses it after 300 s whatever happened, so a broken
/// run fails the assertions instead of hanging. The session's thread does the counting; the watchdog only writes
/// the pipe, and holds the object (so both ends of the pipe) until it has: never a write into a pipe without a
/// reader (SIGPIPE), nor into a descriptor number reused meanwhile.
private final class QuitAfterFrames: @unchecked Sendable {
    let frames: Int
    private var counted: Int?
    private(set) var reached = false
    private var retried = false
    let pipeEnds: [Int32]

    init(frames: Int) {
        self.frames = frames
        var ends: [Int32] = [-1, -1]
        _ = pipe(&ends)
        pipeEnds = ends
        DispatchQueue.global().asyncAfter(deadline: .now() + 300) { [self] in
            var byte: UInt8 = 1
            _ = write(pipeEnds[1], &byte, 1)
        }
    }

    deinit {
        for end in pipeEnds where end >= 0 { Glibc.close(end) }
    }

    /// A screen was shown: the count starts when capture shows again after the retry screen.
    func shown(_ name: ScreenName) {
        if name == .retry { retried = true }
        if retried, name == .capture, counted == nil { counted = 0 }
    }

    func frameGiven() {
        guard let count = counted, !reached else { return }
        counted = count + 1
        if count + 1 >= frames {
            reached = true
            var byte: UInt8 = 1
            _ = write(pipeEnds[1], &byte, 1)
        }
    }
}

/// A front end that draws nothing, tells `quit` which screens it is shown, and quits (q) when `quit` writes its pipe.
private final class QuitWhenCounted: WizardFrontEnd {
    private let quit: QuitAfterFrames
    init(_ quit: QuitAfterFrames) { self.quit = quit }

    var size: (columns: Int, rows: Int)? { nil }
    var inputDescriptor: Int32? { quit.pipeEnds[0] }

    func readInput() -> [FrontEndInput] {
        var byte: UInt8 = 0
        _ = read(quit.pipeEnds[0], &byte, 1)
        return [.key(.character("q"))]
    }

    func render(_ model: ScreenModel, preview: Frame?, photo: ShownPhoto?) { quit.shown(model.name) }
    func resize() -> (columns: Int, rows: Int)? { size }
    func suspend() {}
    func resume() {}
    func close() {}
}

/// A checker that refuses the first photo with `reasons` and passes the rest.
private final class RefuseOnce: PhotoChecker {
    let reasons: [String]
    private let count = Mutex(0)
    init(reasons: [String]) { self.reasons = reasons }
    var checks: Int { count.withLock { $0 } }

    func check(
        _ photo: CapturedPhoto, request: ValidationRequest, cancellation: Cancellation,
        progress: (Double) -> Void
    ) -> ValidationOutcome {
        let n = count.withLock { n -> Int in
            n += 1
            return n
        }
        return .verdict(n == 1 ? ValidationVerdict(result: .retry, reasons: reasons) : ValidationVerdict(result: .pass))
    }
}
