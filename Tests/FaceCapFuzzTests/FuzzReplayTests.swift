import FaceCapFuzz
import Foundation
import XCTest

/// Every committed fuzz input, through the same entry points `make fuzz` fuzzes: the seed corpora
/// (Tests/Fuzz/corpus/TARGET) and the inputs that once crashed a target (Tests/Fuzz/regressions/TARGET).
/// No fuzzer runtime: an input that traps now fails the whole test run, as a crash should.
final class FuzzReplayTests: XCTestCase {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Fuzz")

    private func files(_ kind: String, _ target: String) -> [URL] {
        let folder = Self.root.appendingPathComponent(kind).appendingPathComponent(target)
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.filter { !$0.hasPrefix(".") }.sorted().map { folder.appendingPathComponent($0) }
    }

    func testEveryTargetHasASeedCorpus() {
        for target in FuzzTargets.all {
            XCTAssertGreaterThanOrEqual(files("corpus", target.name).count, 3, "Tests/Fuzz/corpus/\(target.name)")
        }
        let names = Set(FuzzTargets.all.map(\.name))
        for kind in ["corpus", "regressions"] {
            let folders =
                (try? FileManager.default.contentsOfDirectory(
                    atPath: Self.root.appendingPathComponent(kind).path)) ?? []
            for folder in folders where !folder.hasPrefix(".") {
                XCTAssertTrue(names.contains(folder), "Tests/Fuzz/\(kind)/\(folder) names no fuzz target")
            }
        }
    }

    func testCorporaAndRegressionInputsReplayCleanly() throws {
        var replayed = 0
        for target in FuzzTargets.all {
            for file in files("corpus", target.name) + files("regressions", target.name) {
                target.run(try [UInt8](Data(contentsOf: file)))
                replayed += 1
            }
        }
        XCTAssertGreaterThan(replayed, 30)
    }
}
