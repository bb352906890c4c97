import FaceCapCore
import Foundation
import XCTest

/// The whole wizard in `--plain` against a real HTTP server on loopback (Tests/Support/validation_server.py,
/// scripted per test): exit codes, the events a script reads, the lines a person reads, the files left
/// behind, and the requests the server received. Every run replays a clip that is auto-captured about 2 s
/// in (`TestClips.approachAndHold`); a Retry goes back to capture after 2 s and replays it from its start.
final class WizardServerTests: ScratchDirectoryTestCase {
    private var servers: [TestValidationServer] = []

    override func tearDown() {
        for server in servers { server.stop() }
        servers = []
        super.tearDown()
    }

    // MARK: Helpers

    /// The approach-and-hold clip (3 s, captured about 2 s in), written once per test.
    private func clip() throws -> String {
        let clip = path("approach.y4m")
        if !FileManager.default.fileExists(atPath: clip) {
            try Self.clipData.write(to: URL(fileURLWithPath: clip))
        }
        return clip
    }

    private static let clipData = TestClips.approachAndHold(frames: 90)

    private func startServer(_ steps: [[String: Any]], port: Int = 0, options: [String] = []) throws
        -> TestValidationServer
    {
        let server = try TestValidationServer(steps, in: directory, port: port, options: options)
        servers.append(server)
        return server
    }

    /// This process's environment with FACECAP_TOKEN set to `token`, or removed.
    private func environment(token: String? = nil) -> [String: String] {
        var environment = ProcessInfo.processInfo.environment
        environment["FACECAP_TOKEN"] = token
        return environment
    }

    private func arguments(server: String, extra: [String] = []) throws -> [String] {
        [
            "--plain", "--no-tutorial", "--input", try clip(), "--server", server, "--output", path("out"),
            "--events", path("events.jsonl"),
        ] + extra
    }

    /// Runs the wizard to its end against `server`.
    private func runWizard(
        _ server: String, extra: [String] = [], token: String? = nil,
        timeout: TimeInterval = 40
    ) throws -> WizardRun {
        let start = Date()
        let result = try runFacecap(
            try arguments(server: server, extra: extra), stdin: Data(),
            environment: environment(token: token), timeout: timeout)
        return try WizardRun(result, seconds: Date().timeIntervalSince(start), eventsPath: path("events.jsonl"))
    }

    /// The run of a `LiveFacecap` that ended with `status`.
    private func finished(_ live: LiveFacecap, status: Int32, since start: Date) throws -> WizardRun {
        try WizardRun(
            ProcessResult(status: status, stdout: live.stdout, stderr: live.stderr),
            seconds: Date().timeIntervalSince(start), eventsPath: path("events.jsonl"))
    }

    private static var pass: [String: Any] {
        ["status": 200, "json": ["result": "pass", "reasons": [String](), "message": "Selfie accepted"]]
    }

    private static func retry(_ reasons: [String]) -> [String: Any] {
        ["status": 200, "json": ["result": "retry", "reasons": reasons]]
    }

    private func mode(_ path: String) throws -> Int {
        (try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int) ?? -1
    }

    /// The files of the one `saved` event: both 0600, alone in the 0700 output folder; the JPEG's bytes and
    /// the report.
    private func savedFiles(_ run: WizardRun, file: StaticString = #filePath, line: UInt = #line) throws
        -> (photo: String, jpeg: [UInt8], report: [String: Any])
    {
        let saved = run.events("saved")
        XCTAssertEqual(saved.count, 1, "one photo saved: \(run)", file: file, line: line)
        let photo = try XCTUnwrap(saved.first?["photo"] as? String, file: file, line: line)
        let report = try XCTUnwrap(saved.first?["report"] as? String, file: file, line: line)
        XCTAssertTrue(
            (photo as NSString).lastPathComponent.hasPrefix("facecap-") && photo.hasSuffix(".jpg"), photo,
            file: file, line: line)
        XCTAssertEqual(
            String(report.dropLast(5)), String(photo.dropLast(4)), "the report has the photo's stem",
            file: file, line: line)
        XCTAssertEqual(try mode(photo), 0o600, file: file, line: line)
        XCTAssertEqual(try mode(report), 0o600, file: file, line: line)
        XCTAssertEqual(try mode(path("out")), 0o700, file: file, line: line)
        XCTAssertEqual(
            Set(try FileManager.default.contentsOfDirectory(atPath: path("out"))),
            [(photo as NSString).lastPathComponent, (report as NSString).lastPathComponent],
            "the photo and its report only", file: file, line: line)
        let jpeg = [UInt8](try Data(contentsOf: URL(fileURLWithPath: photo)))
        XCTAssertEqual(Array(jpeg.prefix(2)), [0xFF, 0xD8], "a JPEG", file: file, line: line)
        let json = try XCTUnwrap(
            JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: report)))
                as? [String: Any], file: file, line: line)
        return (photo, jpeg, json)
    }

    /// Every run ends with one `exit` event carrying the exit status, and event times never go back.
    private func checkEnding(_ run: WizardRun, _ code: Int32, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(run.status, code, "\(run)", file: file, line: line)
        XCTAssertEqual(run.events("exit").count, 1, "\(run)", file: file, line: line)
        XCTAssertEqual(
            run.events.last?["event"] as? String, "exit", "exit is the last event: \(run)",
            file: file, line: line)
        XCTAssertEqual(run.events.last?["code"] as? Int, Int(code), file: file, line: line)
        let times = run.events.compactMap { $0["t"] as? Double }
        XCTAssertEqual(times.count, run.events.count, file: file, line: line)
        XCTAssertEqual(times, times.sorted(), "t never goes back: \(run)", file: file, line: line)
    }

    /// What each `validation` event said: result, reasons, attempts left.
    private func verdicts(_ run: WizardRun) -> [String] {
        run.events("validation").map {
            "\($0["result"] as? String ?? "?") \(($0["reasons"] as? [String] ?? []).joined(separator: ",")) "
                + "\($0["attemptsLeft"] as? Int ?? -1)"
        }
    }

    private func capturedAttempts(_ run: WizardRun) -> [Int] {
        run.events("captured").map { $0["attempt"] as? Int ?? -1 }
    }

    private func validation(_ report: [String: Any]) -> [String: Any]? { report["validation"] as? [String: Any] }

    private func capture(_ report: [String: Any]) -> [String: Any]? { report["capture"] as? [String: Any] }

    // MARK: Verdicts

    func testAPassIsSavedWithTheVerdictAndExitsZero() throws {
        let server = try startServer([Self.pass])
        let run = try runWizard(server.url)
        checkEnding(run, 0)
        XCTAssertEqual(run.screens, ["capture", "uploading", "success"])
        XCTAssertEqual(capturedAttempts(run), [1])
        let captured = try XCTUnwrap(run.events("captured").first)
        XCTAssertEqual(captured["mode"] as? String, "auto")
        XCTAssertEqual(captured["width"] as? Int, 640)
        XCTAssertEqual(captured["height"] as? Int, 480)
        XCTAssertEqual(verdicts(run), ["pass  3"])
        XCTAssertTrue(
            run.lines.contains(
                "[uploading] Sending your photo: Attempt 1 of 3; Ctrl-C cancels: the photo is then saved"
                    + " without a check."), run.stdout)
        XCTAssertTrue(run.lines.last?.hasPrefix("[success] Selfie accepted: Saved to ") ?? false, run.stdout)

        let (photo, jpeg, report) = try savedFiles(run)
        XCTAssertTrue(run.stderr.contains("photo saved: \(photo)"), run.stderr)
        XCTAssertEqual(validation(report)?["validator"] as? String, "server")
        XCTAssertEqual(validation(report)?["result"] as? String, "pass")
        XCTAssertEqual(validation(report)?["message"] as? String, "Selfie accepted")
        XCTAssertEqual(capture(report)?["attempt"] as? Int, 1)

        let requests = try server.requests()
        XCTAssertEqual(requests.count, 1)
        let request = try XCTUnwrap(requests.first)
        XCTAssertEqual(request["method"] as? String, "POST")
        XCTAssertEqual(request["path"] as? String, "/validate")
        XCTAssertEqual(request.header("x-facecap-attempt"), "1")
        XCTAssertNil(request.header("x-facecap-final"), "1 of 3 is not the last attempt")
        XCTAssertNil(request.header("authorization"), "no FACECAP_TOKEN, no Authorization")
        XCTAssertTrue(request.header("user-agent")?.hasPrefix("facecap/") ?? false, "\(request)")
        XCTAssertNotNil(
            request.header("idempotency-key")?.range(
                of: "^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$", options: .regularExpression
            ))
        XCTAssertEqual(request.parts.map { $0["name"] as? String }, ["photo", "report"])
        XCTAssertEqual(request.parts.first?["contentType"] as? String, "image/jpeg")
        XCTAssertEqual(request.parts.first?["sha256"] as? String, SHA256.hex(jpeg), "the photo saved is the photo sent")
        let sent = try XCTUnwrap(request.parts.last?["text"] as? String)
        let sentReport = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(sent.utf8)) as? [String: Any])
        XCTAssertNil(sentReport["validation"], "the report sent has no verdict yet")
        XCTAssertEqual(capture(sentReport)?["attempt"] as? Int, 1)
    }

    func testRetryRetryPassTakesThreePhotosEachWithItsKeyAndTheLastIsFinal() throws {
        let server = try startServer([Self.retry(["tooDark"]), Self.retry(["blurry"]), Self.pass])
        let run = try runWizard(server.url)
        checkEnding(run, 0)
        XCTAssertEqual(
            run.screens,
            [
                "capture", "uploading", "retry", "capture", "uploading", "retry", "capture",
                "uploading", "success",
            ])
        // Attempts count verdicts: the third photo is attempt 3 of 3, and the pass resets the count.
        XCTAssertEqual(capturedAttempts(run), [1, 2, 3])
        XCTAssertEqual(verdicts(run), ["retry tooDark 2", "retry blurry 1", "pass  3"])
        XCTAssertTrue(
            run.lines.contains {
                $0.hasPrefix("[retry] Let's take another photo: 2 attempts left: Too dark")
            },
            run.stdout)
        XCTAssertTrue(
            run.lines.contains { $0.hasPrefix("[retry] Let's take another photo: 1 attempt left: ") },
            run.stdout)
        XCTAssertTrue(
            run.lines.contains { $0.hasPrefix("[uploading] Sending your photo: Attempt 3 of 3") },
            run.stdout)
        // Plain mode goes back to capture by itself, 2 s after each Retry: never sooner (a timer never fires
        // early); how much later a loaded machine gets to it is not judged here (WizardTests pins the 2 s at given
        // times).
        let screens = run.events("screen")
        for (index, screen) in screens.enumerated() where screen["screen"] as? String == "retry" {
            XCTAssertEqual(screens[index + 1]["screen"] as? String, "capture", "\(run)")
            let wait = (screens[index + 1]["t"] as? Double ?? 0) - (screen["t"] as? Double ?? 0)
            XCTAssertGreaterThanOrEqual(wait, 1.9, "\(run)")
        }

        let requests = try server.requests()
        XCTAssertEqual(requests.map { $0.header("x-facecap-attempt") }, ["1", "2", "3"])
        XCTAssertEqual(requests.map { $0.header("x-facecap-final") }, [nil, nil, "true"])
        XCTAssertEqual(requests.map { $0.header("authorization") }, [nil, nil, nil])
        let keys = requests.compactMap { $0.header("idempotency-key") }
        XCTAssertEqual(Set(keys).count, 3, "one key per photo: \(keys)")

        // Only the accepted photo is kept.
        let (_, jpeg, report) = try savedFiles(run)
        XCTAssertEqual(requests.last?.parts.first?["sha256"] as? String, SHA256.hex(jpeg))
        XCTAssertEqual(validation(report)?["result"] as? String, "pass")
        XCTAssertEqual(capture(report)?["attempt"] as? Int, 3)
        XCTAssertEqual(capture(report)?["final"] as? Bool, true)
    }

    func testAlwaysRetryWithTwoAttemptsEndsInManualReviewMarkedFinalOnTheLastRequestOnly() throws {
        let server = try startServer([Self.retry(["eyesClosed"])])
        let run = try runWizard(server.url, extra: ["--attempts", "2"])
        checkEnding(run, 3)
        XCTAssertEqual(run.screens, ["capture", "uploading", "retry", "capture", "uploading", "finalError"])
        XCTAssertEqual(capturedAttempts(run), [1, 2])
        // The server said retry on the last attempt: the photo goes to manual review.
        XCTAssertEqual(verdicts(run), ["retry eyesClosed 1", "manualReview eyesClosed 0"])
        XCTAssertTrue(run.lines.contains { $0.hasPrefix("[uploading] Sending your photo: Attempt 2 of 2") }, run.stdout)
        XCTAssertTrue(run.lines.last?.hasPrefix("[finalError] Sent for manual review") ?? false, run.stdout)

        let requests = try server.requests()
        XCTAssertEqual(requests.map { $0.header("x-facecap-attempt") }, ["1", "2"])
        XCTAssertEqual(requests.map { $0.header("x-facecap-final") }, [nil, "true"])
        XCTAssertEqual(Set(requests.compactMap { $0.header("idempotency-key") }).count, 2)

        let (photo, jpeg, report) = try savedFiles(run)
        XCTAssertTrue(run.stderr.contains("photo submitted for manual review, saved: \(photo)"), run.stderr)
        XCTAssertEqual(requests.last?.parts.first?["sha256"] as? String, SHA256.hex(jpeg))
        XCTAssertEqual(validation(report)?["result"] as? String, "manualReview")
        XCTAssertEqual(validation(report)?["reasons"] as? [String], ["eyesClosed"])
        XCTAssertEqual(capture(report)?["attempt"] as? Int, 2)
        XCTAssertEqual(capture(report)?["final"] as? Bool, true)
    }

    // MARK: Connection errors: the same photo is re-sent, no attempt used

    /// One photo sent `count` times: one key, attempt 1, never final, the same bytes as the photo saved.
    private func checkResent(
        _ requests: [[String: Any]], count: Int, jpeg: [UInt8],
        file: StaticString = #filePath, line: UInt = #line
    ) {
        XCTAssertEqual(
            requests.count, count, "\(requests.map { $0.header("x-facecap-attempt") })",
            file: file, line: line)
        XCTAssertEqual(
            Set(requests.map { $0.header("idempotency-key") ?? "-" }).count, 1, "one key",
            file: file, line: line)
        XCTAssertEqual(
            requests.map { $0.header("x-facecap-attempt") }, Array(repeating: "1", count: count),
            file: file, line: line)
        XCTAssertEqual(
            requests.map { $0.header("x-facecap-final") }, Array(repeating: nil, count: count),
            file: file, line: line)
        XCTAssertEqual(
            requests.map { $0.header("authorization") }, Array(repeating: nil, count: count),
            "no FACECAP_TOKEN, no Authorization", file: file, line: line)
        XCTAssertEqual(
            requests.map { $0.parts.first?["sha256"] as? String },
            Array(
                repeating: SHA256.hex(jpeg),
                count: count),
            "the same photo each time", file: file, line: line)
    }

    /// Seconds between the server receiving request `index - 1` and `index`.
    private func gap(_ requests: [[String: Any]], _ index: Int) -> Double {
        guard requests.indices.contains(index), index > 0 else { return -1 }
        return (requests[index]["t"] as? Double ?? 0) - (requests[index - 1]["t"] as? Double ?? 0)
    }

    /// After a connection error the photo is sent again and passes: one photo, no attempt used.
    /// `preflightFailed`: the server could not be reached before the camera opened either (plain mode went on).
    private func checkRecovered(
        _ run: WizardRun, preflightFailed: Bool = false, file: StaticString = #filePath,
        line: UInt = #line
    ) {
        checkEnding(run, 0, file: file, line: line)
        XCTAssertEqual(
            run.screens,
            (preflightFailed ? ["capture", "connectionError"] : [])
                + ["capture", "uploading", "connectionError", "uploading", "success"], "\(run)",
            file: file, line: line)
        XCTAssertEqual(capturedAttempts(run), [1], "never re-captured", file: file, line: line)
        XCTAssertEqual(verdicts(run), ["pass  3"], "a connection error is no verdict", file: file, line: line)
        XCTAssertTrue(
            run.lines.last?.hasPrefix("[success] Selfie accepted") ?? false, run.stdout,
            file: file, line: line)
    }

    func testServerDownThenBackReSendsTheSamePhotoWhenItAnswers() throws {
        let port = try freeLoopbackPort()
        let url = "http://127.0.0.1:\(port)/validate"
        let start = Date()
        let live = try LiveFacecap(try arguments(server: url), environment: environment())
        defer { _ = live.finish(timeout: 0) }  // never left running, whatever fails
        // The pre-flight is refused first (plain mode takes the photo anyway), then the upload.
        XCTAssertTrue(
            live.waitFor(
                "[connectionError] Cannot reach the server: connection refused by 127.0.0.1:\(port); Check the address"),
            live.stdout + live.stderr)
        XCTAssertTrue(live.waitFor("will be sent again as attempt 1"), live.stdout + live.stderr)
        let down = Date()
        // Let the first automatic re-send (1 s later) be refused too, then come up.
        Thread.sleep(forTimeInterval: 1.3)
        let server = try startServer([Self.pass], port: port)
        let status = live.finish(timeout: 120)
        let run = try finished(live, status: status, since: start)
        checkRecovered(run, preflightFailed: true)
        XCTAssertTrue(run.stdout.contains("Your photo is kept and will be sent again as attempt 1"), run.stdout)
        let (_, jpeg, report) = try savedFiles(run)
        checkResent(try server.requests(), count: 1, jpeg: jpeg)
        XCTAssertEqual(validation(report)?["result"] as? String, "pass")
        // Backoff 1 s, then 2 s: the server up 1.3 s after the first refusal gets the re-send about 3 s after it.
        let arrived = try XCTUnwrap(try server.requests().first?["t"] as? Double)
        XCTAssertGreaterThanOrEqual(arrived - down.timeIntervalSince1970, 1.3, "\(run)")
    }

    func test503ThenPassReSendsTheSamePhotoAfterOneSecond() throws {
        let server = try startServer([["status": 503, "body": "maintenance"], Self.pass])
        let run = try runWizard(server.url)
        checkRecovered(run)
        XCTAssertTrue(
            run.lines.contains {
                $0.hasPrefix(
                    "[connectionError] The server answered with an error: the server failed (HTTP 503): maintenance")
            },
            run.stdout)
        let (_, jpeg, _) = try savedFiles(run)
        let requests = try server.requests()
        checkResent(requests, count: 2, jpeg: jpeg)
        // Not sooner than the first backoff step; the steps themselves are WizardTests' (testBackoffGrowsToThirtySeconds).
        XCTAssertGreaterThanOrEqual(gap(requests, 1), 0.95, "backoff 1 s")
    }

    func test429WithRetryAfterWaitsAsLongAsTheServerAsks() throws {
        let server = try startServer([["status": 429, "headers": ["Retry-After": "2"], "body": ""], Self.pass])
        let run = try runWizard(server.url)
        checkRecovered(run)
        XCTAssertTrue(
            run.lines.contains {
                $0.hasPrefix("[connectionError] The server answered with an error: the server is busy")
            },
            run.stdout)
        let (_, jpeg, _) = try savedFiles(run)
        let requests = try server.requests()
        checkResent(requests, count: 2, jpeg: jpeg)
        XCTAssertGreaterThanOrEqual(gap(requests, 1), 2, "Retry-After: 2 wins over the 1 s backoff")
    }

    func testAGarbageReplyIsAConnectionErrorAndThePhotoIsSentAgain() throws {
        let server = try startServer([["status": 200, "body": "<html>oops</html>"], Self.pass])
        let run = try runWizard(server.url)
        checkRecovered(run)
        XCTAssertTrue(
            run.lines.contains {
                $0.hasPrefix(
                    "[connectionError] The server answered with an error: the server's reply is not the JSON the contract "
                        + "asks for")
            },
            run.stdout)
        let (_, jpeg, _) = try savedFiles(run)
        checkResent(try server.requests(), count: 2, jpeg: jpeg)
    }

    func testAConnectionResetMidUploadIsAConnectionErrorAndThePhotoIsSentAgain() throws {
        let server = try startServer([["action": "reset", "after": 4096], Self.pass])
        let run = try runWizard(server.url)
        checkRecovered(run)
        let (_, jpeg, _) = try savedFiles(run)
        // The server saw only the start of the first body: the same key and attempt, and the whole photo once.
        let requests = try server.requests()
        XCTAssertEqual(requests.count, 2)
        XCTAssertEqual(Set(requests.map { $0.header("idempotency-key") ?? "-" }).count, 1, "one key")
        XCTAssertEqual(requests.map { $0.header("x-facecap-attempt") }, ["1", "1"])
        XCTAssertEqual(requests.last?.parts.first?["sha256"] as? String, SHA256.hex(jpeg))
    }

    func testAnOversizedReplyIsCutOffAsAConnectionErrorAndThePhotoIsSentAgain() throws {
        let server = try startServer([["action": "oversize", "bytes": 4 * 1024 * 1024, "chunked": true], Self.pass])
        let run = try runWizard(server.url)
        checkRecovered(run)
        let (_, jpeg, _) = try savedFiles(run)
        checkResent(try server.requests(), count: 2, jpeg: jpeg)
    }

    func testAConnectionClosedWithoutAReplyIsAConnectionErrorAndThePhotoIsSentAgain() throws {
        let server = try startServer([["action": "close"], Self.pass])
        let run = try runWizard(server.url)
        checkRecovered(run)
        let (_, jpeg, _) = try savedFiles(run)
        checkResent(try server.requests(), count: 2, jpeg: jpeg)
    }

    // MARK: Endings without a verdict

    func testARefusalExitsOneWithTheServersMessageAndThePhotoSavedLocally() throws {
        let server = try startServer([["status": 401, "json": ["message": "bad token"]]])
        let run = try runWizard(server.url)
        checkEnding(run, 1)
        XCTAssertEqual(try server.requests().count, 1, "a refusal is not retried")
        XCTAssertEqual(capturedAttempts(run), [1])
        XCTAssertEqual(verdicts(run), [], "a refusal is no verdict")
        XCTAssertFalse(run.screens.contains("success") || run.screens.contains("finalError"), "\(run.screens)")
        let (photo, jpeg, report) = try savedFiles(run)
        XCTAssertTrue(
            run.stderr.contains(
                "facecap: the server refused the photo (HTTP 401): bad token; the photo was not "
                    + "validated and is saved in \(photo)\n"), run.stderr)
        XCTAssertEqual(try server.requests().first?.parts.first?["sha256"] as? String, SHA256.hex(jpeg))
        XCTAssertNil(validation(report), "no verdict in the report")
    }

    func testInterruptingWhileTheServerIsUnreachableSavesThePhotoAndExits75() throws {
        let port = try freeLoopbackPort()
        let start = Date()
        let live = try LiveFacecap(
            try arguments(server: "http://127.0.0.1:\(port)/validate"),
            environment: environment())
        defer { _ = live.finish(timeout: 0) }
        XCTAssertTrue(
            live.waitFor("will be sent again as attempt"),
            "the upload's, not the pre-flight's: "
                + live.stdout + live.stderr)
        live.signal(SIGINT)
        let status = live.finish(timeout: 120)
        let run = try finished(live, status: status, since: start)
        checkEnding(run, 75)
        XCTAssertEqual(
            Array(run.screens.prefix(5)), ["capture", "connectionError", "capture", "uploading", "connectionError"],
            "the pre-flight's connection error, then the upload's")
        XCTAssertEqual(capturedAttempts(run), [1])
        XCTAssertEqual(verdicts(run), [])
        let (photo, _, report) = try savedFiles(run)
        XCTAssertTrue(run.stderr.contains("the photo was not validated and is saved in \(photo)"), run.stderr)
        XCTAssertNil(validation(report))
    }

    // MARK: The token and the transport

    func testTheTokenIsSentAndAppearsInNoOutputEventOrFile() throws {
        let token = "tok-\(UUID().uuidString)"
        let server = try startServer([Self.retry(["tooDark"]), Self.pass])
        let run = try runWizard(server.url, token: token)
        checkEnding(run, 0)
        XCTAssertEqual(
            try server.requests().map { $0.header("authorization") }, ["Bearer \(token)", "Bearer \(token)"])
        XCTAssertFalse(run.stdout.contains(token), run.stdout)
        XCTAssertFalse(run.stderr.contains(token), run.stderr)
        XCTAssertFalse(run.eventsText.contains(token), run.eventsText)
        _ = try savedFiles(run)
        for name in try FileManager.default.contentsOfDirectory(atPath: path("out")) {
            let bytes = try Data(contentsOf: URL(fileURLWithPath: path("out/" + name)))
            XCTAssertNil(bytes.range(of: Data(token.utf8)), name)
        }
        for part in try server.requests().flatMap(\.parts) {
            XCTAssertFalse((part["text"] as? String ?? "").contains(token), "the report sent has no token")
        }
    }

    func testPlainHTTPToARemoteHostExits64BeforeAnythingElse() throws {
        let token = "tok-\(UUID().uuidString)"
        let result = try runFacecap(
            try arguments(server: "http://example.org/x"), stdin: Data(),
            environment: environment(token: token), timeout: 120)
        XCTAssertEqual(result.status, 64, result.stderr)
        XCTAssertTrue(
            result.stderr.hasPrefix(
                "facecap: --server must use https:// for a host that is not this machine"),
            result.stderr)
        XCTAssertFalse(result.stderr.contains(token))
        XCTAssertEqual(result.stdout, "", "no screen was shown")
        // Refused while reading the command line, before the wizard starts (where the models are loaded and the
        // server's name looked up): no events file, no output folder. (It was also timed, under 1 s: a bound a
        // loaded machine could miss, and the files tell the same.)
        XCTAssertFalse(FileManager.default.fileExists(atPath: path("events.jsonl")))
        XCTAssertFalse(FileManager.default.fileExists(atPath: path("out")))
    }

    func testARedirectIsNotFollowedTheServerErrorIsShownAndThePhotoKept() throws {
        let elsewhere = try startServer([Self.pass])
        let target = "http://127.0.0.1:\(elsewhere.port)/validate"
        let server = try startServer([["status": 307, "headers": ["Location": target], "body": ""]])
        let token = "tok-\(UUID().uuidString)"
        let run = try runWizard(server.url, token: token)
        checkEnding(run, 1)
        XCTAssertEqual(try server.requests().count, 1, "sent once, not re-sent")
        XCTAssertEqual(try elsewhere.requests().count, 0, "the redirect was followed")
        XCTAssertEqual(capturedAttempts(run), [1])
        XCTAssertEqual(verdicts(run), [], "no verdict: no attempt was used on it")
        let (photo, _, report) = try savedFiles(run)
        XCTAssertNil(validation(report))
        XCTAssertTrue(run.stderr.contains("(HTTP 307)") && run.stderr.contains(target), run.stderr)
        XCTAssertTrue(run.stderr.contains("the photo was not validated and is saved in \(photo)"), run.stderr)
        XCTAssertFalse(run.stderr.contains(token) || run.stdout.contains(token))
    }

    func testTheTokenIsNeverSentInClearTextToAnotherMachineEvenWithInsecureHTTP() throws {
        // 0.0.0.0 is not loopback by the rule, and a connection to it could only reach this machine.
        let token = "tok-\(UUID().uuidString)"
        let result = try runFacecap(
            try arguments(server: "http://0.0.0.0:9/x", extra: ["--insecure-http"]),
            stdin: Data(), environment: environment(token: token), timeout: 120)
        XCTAssertEqual(result.status, 64, result.stderr)
        XCTAssertTrue(
            result.stderr.hasPrefix(
                "facecap: FACECAP_TOKEN is never sent over plain http:// to another machine (0.0.0.0)"), result.stderr)
        XCTAssertFalse(result.stderr.contains(token))
        XCTAssertFalse(FileManager.default.fileExists(atPath: path("out")), "refused before anything was kept")
    }

    func testTheServersTextReachesTheScreenWithoutItsControlCharacters() throws {
        let message = "Too \u{1b}[2J\u{1b}]0;owned\u{7}dark\r\nhere\u{9b}31m"
        let server = try startServer([
            [
                "status": 200,
                "json": [
                    "result": "retry", "reasons": ["tooDark\u{1b}[5m"],
                    "message": message,
                ],
            ], Self.pass,
        ])
        let run = try runWizard(server.url)
        checkEnding(run, 0)
        XCTAssertTrue(run.stdout.contains("Too dark here"), run.stdout)
        for control in ["\u{1b}", "\u{7}", "\u{9b}", "\r"] {
            XCTAssertFalse(
                run.stdout.contains(control) || run.stderr.contains(control),
                "\(control.unicodeScalars.first!.value) reached the terminal")
            XCTAssertFalse(run.eventsText.contains(control))
        }
        XCTAssertEqual(verdicts(run).first, "retry tooDark 2", "the reason code cleaned too")
    }

    // MARK: The server checked before the camera opens

    func testAPortOutOfRangeIsAUsageErrorBeforeAnythingStarts() throws {
        for url in ["http://127.0.0.1:99999/x", "http://127.0.0.1:0/x", "http://127.0.0.1:80a/x", "http://[::1]:/x"] {
            let result = try runFacecap(["--plain", "--input", try clip(), "--server", url], stdin: Data())
            XCTAssertEqual(result.status, 64, url)
            XCTAssertEqual(result.stdout, "", "nothing started: \(url)")
            XCTAssertTrue(
                result.stderr.hasPrefix(
                    "facecap: --server URL has no valid port: '\(url)' (a port is a number "
                        + "from 1 to 65535)\n"), result.stderr)
        }
    }

    func testAWrongTokenIsFoundBeforeTheCameraOpensAndTheRightOnePasses() throws {
        let server = try startServer([Self.pass], options: ["--token", "the-right-token"])
        let wrong = try runWizard(server.url, token: "another-token")
        XCTAssertEqual(wrong.status, 1, "\(wrong)")
        XCTAssertEqual(wrong.events("captured").count, 0, "no selfie was taken: \(wrong)")
        XCTAssertTrue(
            wrong.stderr.contains(
                "facecap: the server was checked before the camera opened: HTTP 401: this "
                    + "token is not accepted\n"), wrong.stderr)
        XCTAssertEqual(try server.requests().count, 0, "no photo was sent")
        XCTAssertEqual(try server.preflights().map { $0.header("authorization") }, ["Bearer another-token"])
        let right = try runWizard(server.url, token: "the-right-token")
        checkEnding(right, 0)
        XCTAssertEqual(try server.preflights().count, 2)
        XCTAssertEqual(try server.requests().count, 1)
    }

    func testANotFoundAddressIsNamedAsSuchBeforeTheCameraOpens() throws {
        let server = try startServer([Self.pass], options: ["--preflight", #"{"status": 404, "body": ""}"#])
        let run = try runWizard(server.url)
        XCTAssertEqual(run.status, 1, "\(run)")
        XCTAssertEqual(run.events("captured").count, 0)
        XCTAssertTrue(
            run.stderr.hasSuffix(
                "facecap: the server was checked before the camera opened: the server answered "
                    + "HTTP 404\n"), run.stderr)
        XCTAssertFalse(run.stderr.contains("FACECAP_TOKEN"), run.stderr)
    }

    /// The full screen in a real terminal (tmux): a 503 to the pre-flight is named as the server's error, the
    /// camera stays off, and q ends with 75 and the line on standard error.
    func testTheFullScreenNamesAServerErrorBeforeTheCameraAndQuitSaysItOnStandardError() throws {
        let server = try startServer(
            [Self.pass], options: ["--preflight", #"{"status": 503, "body": "down for maintenance"}"#])
        let arguments = [
            try facecapBinary().path, "--no-tutorial", "--input", try clip(), "--server", server.url,
            "--output", path("out"),
        ].map { "'" + $0 + "'" }.joined(separator: " ")
        let tmux = try TmuxSession(
            "cd '\(directory.path)' && env -u NO_COLOR LC_ALL=C.UTF-8 TERM=xterm-256color "
                + arguments + "; echo \"status $?\"; exec sleep 600", columns: 200, rows: 30)
        XCTAssertTrue(tmux.waitFor("The server answered with an error"), tmux.screen())
        // The screen checks again by itself a second later (its key bar changes while it does): each text is
        // waited for rather than read from one capture.
        XCTAssertTrue(tmux.waitFor("the server failed (HTTP 503): down for maintenance"), tmux.screen())
        XCTAssertTrue(tmux.waitFor("take the photo anyway"), tmux.screen())
        let screen = tmux.screen()
        XCTAssertFalse(screen.contains("Cannot reach the server"), "the server answered: " + screen)
        XCTAssertFalse(screen.contains("Position your face"), "the camera stays off: " + screen)
        tmux.send("q")
        XCTAssertTrue(tmux.waitFor("status 75"), tmux.screen())
        XCTAssertTrue(
            tmux.screen().contains(
                "facecap: the server was checked before the camera opened: the server failed "
                    + "(HTTP 503): down for maintenance"), tmux.screen())
        XCTAssertEqual(try server.requests().count, 0, "no photo")
        XCTAssertGreaterThanOrEqual(try server.preflights().count, 1, "checked again by itself on a slow machine")
    }

    func testTheTokenIsNotAnOption() throws {
        let result = try runFacecap(
            ["--plain", "--token", "abc", "--server", "http://127.0.0.1:9/x"], stdin: Data(),
            environment: environment(), timeout: 120)
        XCTAssertEqual(result.status, 64)
        XCTAssertTrue(result.stderr.hasPrefix("facecap: unknown option '--token'"), result.stderr)
        let help = try runFacecap(["--help"])
        XCTAssertFalse(help.stdout.contains("--token"))
        XCTAssertTrue(help.stdout.contains("FACECAP_TOKEN"), "the help says where the token comes from")
    }
}

/// A finished wizard run: status, output, and its events file.
private struct WizardRun: CustomStringConvertible {
    var status: Int32
    var stdout: String
    var stderr: String
    var seconds: Double
    var eventsText: String
    var events: [[String: Any]]

    init(_ result: ProcessResult, seconds: Double, eventsPath: String) throws {
        status = result.status
        stdout = result.stdout
        stderr = result.stderr
        self.seconds = seconds
        eventsText = String(decoding: FileManager.default.contents(atPath: eventsPath) ?? Data(), as: UTF8.self)
        events = try jsonObjects(eventsText)
    }

    var lines: [String] { stdout.split(separator: "\n").map(String.init) }

    func events(_ name: String) -> [[String: Any]] { events.filter { $0["event"] as? String == name } }

    var screens: [String] { events("screen").compactMap { $0["screen"] as? String } }

    var description: String {
        let log = eventsText.split(separator: "\n").filter { !$0.contains("\"guidance\"") }.joined(separator: "\n")
        return "exit \(status) after \(String(format: "%.1f", seconds)) s\nstdout:\n\(stdout)stderr:\n\(stderr)"
            + "events:\n\(log)"
    }
}

/// Tests/Support/validation_server.py as a child process for one test, stopped (by its pid) at the end.
private final class TestValidationServer {
    static let script = TestClips.fixtures.deletingLastPathComponent().appendingPathComponent("Support")
        .appendingPathComponent("validation_server.py").path

    private let process = Process()
    let port: Int
    private let recordPath: String

    /// Starts the server with `steps` (see the script's docstring) on `port` (0: a free one).
    init(_ steps: [[String: Any]], in directory: URL, port: Int = 0, options: [String] = []) throws {
        let name = UUID().uuidString
        let scriptPath = directory.appendingPathComponent("script-\(name).json").path
        try JSONSerialization.data(withJSONObject: steps).write(to: URL(fileURLWithPath: scriptPath))
        recordPath = directory.appendingPathComponent("requests-\(name).jsonl").path
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments =
            [
                "python3", Self.script, "--script", scriptPath, "--record", recordPath,
                "--port", String(port),
            ] + options
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
            if process.isRunning { process.terminate() }
            throw ServerSetupFailure(description: "the test server did not start (said '\(text)')")
        }
        self.port = number
    }

    var url: String { "http://127.0.0.1:\(port)/validate" }

    /// Every upload the server received, in order (the pre-flight's OPTIONS requests left out).
    func requests() throws -> [[String: Any]] {
        try everything().filter { $0["method"] as? String != "OPTIONS" }
    }

    /// The pre-flight requests (OPTIONS), in order.
    func preflights() throws -> [[String: Any]] {
        try everything().filter { $0["method"] as? String == "OPTIONS" }
    }

    private func everything() throws -> [[String: Any]] {
        guard let data = FileManager.default.contents(atPath: recordPath) else { return [] }
        return try jsonObjects(String(decoding: data, as: UTF8.self))
    }

    func stop() {
        guard process.isRunning else { return }
        kill(process.processIdentifier, SIGTERM)
        process.waitUntilExit()
    }

    deinit { stop() }
}

private struct ServerSetupFailure: Error, CustomStringConvertible {
    var description: String
}

/// A port on 127.0.0.1 that nothing listens on (the kernel's pick, released again).
private func freeLoopbackPort() throws -> Int {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard fd >= 0 else { throw ServerSetupFailure(description: "socket() failed") }
    defer { close(fd) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = 0
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &address) { pointer in
        pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { address -> Bool in
            bind(fd, address, length) == 0 && getsockname(fd, address, &length) == 0
        }
    }
    guard bound else { throw ServerSetupFailure(description: "no free port on 127.0.0.1") }
    return Int(UInt16(bigEndian: address.sin_port))
}

extension Dictionary where Key == String, Value == Any {
    /// The recorded request's header `name` (lower-case).
    fileprivate func header(_ name: String) -> String? { (self["headers"] as? [String: String])?[name] }
    fileprivate var parts: [[String: Any]] { (self["parts"] as? [[String: Any]]) ?? [] }
}
