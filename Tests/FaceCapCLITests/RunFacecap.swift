import Foundation
import XCTest

/// What a finished facecap process left behind.
struct ProcessResult {
    var status: Int32
    var stdout: String
    var stderr: String
}

/// The release binary the Makefile builds before the tests run (`FACECAP_BIN` overrides it).
func facecapBinary() throws -> URL {
    if let path = ProcessInfo.processInfo.environment["FACECAP_BIN"] {
        return URL(fileURLWithPath: path)
    }
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    let binary = root.appendingPathComponent(".build/release/facecap")
    guard FileManager.default.isExecutableFile(atPath: binary.path) else {
        throw MissingBinary(path: binary.path)
    }
    return binary
}

struct MissingBinary: Error, CustomStringConvertible {
    var path: String
    var description: String { "\(path) is missing: run the tests with 'make test', which builds it first" }
}

/// Runs facecap with `arguments` (and optional stdin), waiting at most `timeout` seconds.
func runFacecap(
    _ arguments: [String], stdin: Data? = nil, environment: [String: String]? = nil,
    timeout: TimeInterval = 60
) throws -> ProcessResult {
    try runProgram(try facecapBinary().path, arguments, stdin: stdin, environment: environment, timeout: timeout)
}

/// The sanitizers' settings of a `make test-sanitize` run, which a test's own environment for a child keeps, so
/// that their reports go where the run reads them instead of changing the child's exit status.
var sanitizerSettings: [String: String] {
    ProcessInfo.processInfo.environment.filter {
        ["ASAN_OPTIONS", "UBSAN_OPTIONS", "LSAN_OPTIONS", "TSAN_OPTIONS"].contains($0.key)
    }
}

/// Runs the program at `path` with `arguments` (and optional stdin), waiting at most `timeout` seconds.
func runProgram(
    _ path: String, _ arguments: [String], stdin: Data? = nil, environment: [String: String]? = nil,
    timeout: TimeInterval = 60
) throws -> ProcessResult {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: path)
    process.arguments = arguments
    if let environment { process.environment = sanitizerSettings.merging(environment) { $1 } }
    let out = Pipe(), err = Pipe(), input = Pipe()
    process.standardOutput = out
    process.standardError = err
    process.standardInput = input
    try process.run()
    if let stdin { input.fileHandleForWriting.write(stdin) }
    try input.fileHandleForWriting.close()
    // Read stderr on another thread while this one reads stdout, so a chatty child never blocks on a
    // full pipe; the timeout kills a child that hangs.
    final class Box: @unchecked Sendable { var data = Data() }
    let errBox = Box()
    let errDone = DispatchSemaphore(value: 0)
    let errHandle = err.fileHandleForReading
    DispatchQueue.global().async {
        errBox.data = errHandle.readDataToEndOfFile()
        errDone.signal()
    }
    let watchdog = DispatchWorkItem { [process] in if process.isRunning { process.terminate() } }
    DispatchQueue.global().asyncAfter(deadline: .now() + timeout, execute: watchdog)
    let outData = out.fileHandleForReading.readDataToEndOfFile()
    errDone.wait()
    watchdog.cancel()
    let errData = errBox.data
    process.waitUntilExit()
    return ProcessResult(
        status: process.terminationStatus,
        stdout: String(decoding: outData, as: UTF8.self),
        stderr: String(decoding: errData, as: UTF8.self))
}
