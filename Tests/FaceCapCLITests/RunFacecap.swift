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
func runFacecap(_ arguments: [String], stdin: Data? = nil, environment: [String: String]? = nil,
                timeout: TimeInterval = 60) throws -> ProcessResult {
    let process = Process()
    process.executableURL = try facecapBinary()
    process.arguments = arguments
    if let environment { process.environment = environment }
    let out = Pipe(), err = Pipe(), input = Pipe()
    process.standardOutput = out
    process.standardError = err
    process.standardInput = input
    try process.run()
    if let stdin { input.fileHandleForWriting.write(stdin) }
    try input.fileHandleForWriting.close()
    // Read both pipes concurrently so a chatty child never blocks on a full pipe.
    var outData = Data(), errData = Data()
    let group = DispatchGroup()
    DispatchQueue.global().async(group: group) { outData = out.fileHandleForReading.readDataToEndOfFile() }
    DispatchQueue.global().async(group: group) { errData = err.fileHandleForReading.readDataToEndOfFile() }
    if group.wait(timeout: .now() + timeout) == .timedOut {
        process.terminate()
        XCTFail("facecap \(arguments) did not finish within \(timeout) s")
    }
    process.waitUntilExit()
    return ProcessResult(status: process.terminationStatus,
                         stdout: String(decoding: outData, as: UTF8.self),
                         stderr: String(decoding: errData, as: UTF8.self))
}
