import Foundation
import XCTest

/// A facecap process to talk to while it runs: its output is collected as it comes, lines can be sent to
/// its standard input, and the test waits for text to appear.
final class LiveFacecap: @unchecked Sendable {
    private let process = Process()
    private let input = Pipe()
    private let lock = NSLock()
    private var outText = ""
    private var errText = ""
    private let done = DispatchGroup()

    init(_ arguments: [String], environment: [String: String]? = nil) throws {
        process.executableURL = try facecapBinary()
        process.arguments = arguments
        if let environment { process.environment = environment }
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = input
        try process.run()
        collect(out.fileHandleForReading, stdout: true)
        collect(err.fileHandleForReading, stdout: false)
    }

    private func collect(_ handle: FileHandle, stdout: Bool) {
        done.enter()
        DispatchQueue.global().async {
            while true {
                let data = handle.availableData
                if data.isEmpty { break }
                self.lock.lock()
                if stdout {
                    self.outText += String(decoding: data, as: UTF8.self)
                } else {
                    self.errText += String(decoding: data, as: UTF8.self)
                }
                self.lock.unlock()
            }
            self.done.leave()
        }
    }

    var stdout: String { lock.lock(); defer { lock.unlock() }; return outText }
    var stderr: String { lock.lock(); defer { lock.unlock() }; return errText }

    /// Waits until `text` appears on standard output (or error, with `inStderr`); the time-out only bounds a hang.
    @discardableResult
    func waitFor(_ text: String, inStderr: Bool = false, timeout: TimeInterval = 120) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if (inStderr ? stderr : stdout).contains(text) { return true }
            if !process.isRunning, done.wait(timeout: .now()) == .success {
                return (inStderr ? stderr : stdout).contains(text)
            }
            Thread.sleep(forTimeInterval: 0.05)
        }
        return false
    }

    func send(_ line: String) {
        input.fileHandleForWriting.write(Data((line + "\n").utf8))
    }

    func closeInput() { try? input.fileHandleForWriting.close() }

    func signal(_ number: Int32) { kill(process.processIdentifier, number) }

    /// Waits for the end (killing the process after `timeout`) and returns its exit status.
    func finish(timeout: TimeInterval = 120) -> Int32 {
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning, Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
        if process.isRunning { process.terminate() }
        process.waitUntilExit()
        _ = done.wait(timeout: .now() + 5)
        return process.terminationStatus
    }
}

/// JSON Lines as dictionaries.
func jsonObjects(_ text: String) throws -> [[String: Any]] {
    try text.split(separator: "\n").map {
        try XCTUnwrap(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any], String($0))
    }
}
