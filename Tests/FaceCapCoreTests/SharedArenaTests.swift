import XCTest

@testable import FaceCapCore

/// One activation arena for the models a tracker runs one after another on its thread (issue 32, palms in the
/// wizard: the palm model's memory): the same outputs, bit for bit, as each model on its own arena, whatever ran
/// between; the memory of the largest plan, not of all; and never shared with the iris model, whose second eye runs
/// on another thread at the same time.
final class SharedArenaTests: XCTestCase {
    private func bits(_ values: UnsafeBufferPointer<Float>) -> [UInt32] { values.map(\.bitPattern) }

    /// A fixed input that is not the model's golden one (the hand and palm models' inputs in 0…1).
    private func fill(_ buffer: UnsafeMutableBufferPointer<Float>, seed: UInt32) {
        var state = seed
        for i in buffer.indices {
            state = state &* 1_664_525 &+ 1_013_904_223
            buffer[i] = Float(state >> 8) / Float(1 << 24)
        }
    }

    func testModelsSharingAnArenaGiveTheirOwnArenasOutputsWhateverRanBetween() throws {
        let files = [try TestData.detector, try TestData.landmarks, try TestData.hand, try TestData.palm]
        let alone = try files.map { try Interpreter(model: $0) }
        let arena = ActivationArena()
        // Detector, landmarks, hand, palm: the first three grow the arena (the palm's plan is smaller than the
        // hand's), and the earlier ones bind to the new memory.
        let shared = try files.map { try Interpreter(model: $0, arena: arena) }
        XCTAssertEqual(arena.floats, alone.map(\.arenaSize).max())
        XCTAssertLessThan(arena.floats, alone.map(\.arenaSize).reduce(0, +) / 2)
        var expected: [[[UInt32]]] = []
        for (index, interpreter) in alone.enumerated() {
            fill(interpreter.input(), seed: UInt32(index + 1))
            interpreter.run()
            expected.append((0..<interpreter.outputShapes.count).map { bits(interpreter.output($0)) })
        }
        // Every model after every other (each ordered pair, and each one twice in a row), the outputs read at once.
        let order = [0, 1, 2, 3, 0, 2, 1, 3, 2, 0, 3, 1, 1, 0, 0, 3, 3, 2, 2]
        for index in order {
            let interpreter = shared[index]
            fill(interpreter.input(), seed: UInt32(index + 1))
            interpreter.run()
            for output in 0..<interpreter.outputShapes.count {
                XCTAssertEqual(
                    bits(interpreter.output(output)), expected[index][output],
                    "\(files[index].name) output \(output)")
            }
        }
    }

    func testTheTrackersThreadSharesOneArenaAndTheEyesKeepTheirOwn() throws {
        let tracker = try FaceTracker(
            detector: try TestData.detector, landmarks: try TestData.landmarks,
            iris: try TestData.iris, hand: try TestData.hand, palm: try TestData.palm,
            parallelEyes: true)
        let hand = try XCTUnwrap(tracker.hand), palm = try XCTUnwrap(tracker.palm), iris = try XCTUnwrap(tracker.iris)
        let worker = try XCTUnwrap(iris.worker, "parallel eyes: a worker thread with its own interpreter")
        for interpreter in [
            tracker.detector.interpreter, tracker.landmarker.interpreter, hand.interpreter,
            palm.interpreter,
        ] {
            XCTAssertTrue(interpreter.arena === tracker.arena, interpreter.name)
        }
        // The eyes run on the tracker's thread and the worker's at once: each its own arena, neither the tracker's.
        XCTAssertFalse(iris.interpreter.arena === tracker.arena)
        XCTAssertFalse(worker.interpreter.arena === tracker.arena)
        XCTAssertFalse(worker.interpreter.arena === iris.interpreter.arena)
        let plans = [tracker.detector.interpreter, tracker.landmarker.interpreter, hand.interpreter, palm.interpreter]
        XCTAssertEqual(tracker.arena.floats, plans.map(\.arenaSize).max())
    }
}
