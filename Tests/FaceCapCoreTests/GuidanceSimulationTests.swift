import Foundation
import XCTest

@testable import FaceCapCore

/// A person who only follows the words converges on the oval (issue 35, SPEC §4): a simulated person in the loop
/// (`GuidanceSimulation`) from each start state, at several speeds and reaction times, reading the screen or
/// hearing `--plain`. Every figure comes from the frames' own clock: none depends on the machine.
///
/// The suite runs a representative part of the matrix; `make simulate` runs all of it
/// (`FACECAP_SIMULATION=full`) and prints the table. `FACECAP_SIMULATION_THRESHOLDS` may name a thresholds file
/// (`AnalyzerThresholds(json:)`) to try other limits with the same people.
final class GuidanceSimulationTests: XCTestCase {
    private static let speeds = [100.0, 150, 200]
    private static let reactions = [0.25, 0.4, 0.6]

    /// Time to the accepted photo, and the acceptance: the first attempt within `limit` seconds, at most
    /// one reversal per axis, never told a direction that points away from the target.
    private func check(
        _ start: GuidanceSimulation.Start, _ person: GuidanceSimulation.Person, limit: Double,
        table: inout [String]
    ) {
        let result = GuidanceSimulation.run(start, person, limit: limit, thresholds: Self.thresholds)
        let label = "\(start.name), \(Int(person.speed)) px/s, \(person.reaction) s, \(person.listener.rawValue)"
        let time = result.captureTime.map { String(format: "%.2f", $0) } ?? "none"
        table.append(
            Self.row([
                start.name, "\(Int(person.speed))", "\(person.reaction)", person.listener.rawValue, time,
                "\(result.attempts)", "\(result.reversals.x)", "\(result.reversals.y)",
                String(format: "%.2f", result.wrongDirectionTime),
            ]))
        let words = result.words.joined(separator: " → ")
        XCTAssertNotNil(result.captureTime, "\(label): no photo in \(limit) s: \(words)")
        XCTAssertEqual(result.attempts, 1, "\(label): \(words)")
        XCTAssertLessThanOrEqual(result.reversals.x, 1, "\(label): \(words)")
        XCTAssertLessThanOrEqual(result.reversals.y, 1, "\(label): \(words)")
        XCTAssertEqual(result.wrongDirectionTime, 0, "\(label): \(words)")
    }

    private func runMatrix(starts: [GuidanceSimulation.Start], people: [GuidanceSimulation.Person]) {
        var table = [Self.row(["start", "px/s", "react", "words", "photo s", "attempts", "revX", "revY", "wrong s"])]
        for start in starts {
            for person in people {
                check(start, person, limit: person.listener == .plain ? 15 : 10, table: &table)
            }
        }
        print(table.joined(separator: "\n"))
    }

    /// One row of the printed table: the start state left-aligned, the figures right-aligned.
    private static func row(_ cells: [String]) -> String {
        let widths = [22, 5, 6, 7, 8, 9, 5, 5, 8]
        return zip(cells, widths).enumerated().map { index, cell in
            let pad = String(repeating: " ", count: max(0, cell.1 - cell.0.count))
            return index == 0 ? cell.0 + pad : pad + cell.0
        }.joined()
    }

    private static let thresholds: AnalyzerThresholds = {
        guard let path = ProcessInfo.processInfo.environment["FACECAP_SIMULATION_THRESHOLDS"] else {
            return AnalyzerThresholds()
        }
        return try! AnalyzerThresholds(json: String(contentsOfFile: path, encoding: .utf8))
    }()

    private static var full: Bool { ProcessInfo.processInfo.environment["FACECAP_SIMULATION"] == "full" }

    private static func people(_ listener: GuidanceSimulation.Listener) -> [GuidanceSimulation.Person] {
        speeds.flatMap { speed in
            reactions.map { GuidanceSimulation.Person(speed: speed, reaction: $0, listener: listener) }
        }
    }

    /// Every start state at the issue's own person (150 px/s, 0.4 s) and at the hardest corner (200 px/s, 0.6 s);
    /// with FACECAP_SIMULATION=full, every speed × every reaction.
    func testAPersonReadingTheScreenConvergesFromEveryStart() {
        let people =
            Self.full
            ? Self.people(.screen)
            : [
                GuidanceSimulation.Person(speed: 150, reaction: 0.4),
                GuidanceSimulation.Person(speed: 200, reaction: 0.6),
            ]
        runMatrix(starts: GuidanceSimulation.starts, people: people)
    }

    /// The screen-reader user hears `--plain`'s lines only: within 15 s, the same acceptance.
    func testAScreenReaderUserConvergesFromEveryStart() {
        let people =
            Self.full
            ? Self.people(.plain)
            : [
                GuidanceSimulation.Person(speed: 150, reaction: 0.4, listener: .plain),
                GuidanceSimulation.Person(speed: 200, reaction: 0.6, listener: .plain),
            ]
        let starts =
            Self.full
            ? GuidanceSimulation.starts
            : GuidanceSimulation.starts.filter { ["off left 1/4", "too high 1/5", "far+off+dark"].contains($0.name) }
        runMatrix(starts: starts, people: people)
    }

    /// The graded words are what lets the fast, slow-reacting person stop in time: told "Move down" all the way, at
    /// full speed, they go on for 120 px after the word goes and overshoot the oval (so the simulation tells good
    /// guidance from bad).
    func testWithoutTheGradedWordsAFastPersonOvershoots() {
        let start = GuidanceSimulation.starts.first { $0.name == "too high 1/5" }!
        var person = GuidanceSimulation.Person(speed: 200, reaction: 0.6)
        person.gentle = 1
        let result = GuidanceSimulation.run(start, person, limit: 10)
        XCTAssertGreaterThan(result.reversals.y, 0, result.words.joined(separator: " → "))
    }
}
