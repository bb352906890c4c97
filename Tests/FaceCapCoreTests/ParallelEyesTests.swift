import Foundation
import XCTest

@testable import FaceCapCore

/// The two eyes of a frame on two threads (`IrisLandmarker(parallel: true)`, `EyeWorker`): the same points, bit
/// for bit, as the two eyes one after the other on one thread; one thread per landmarker, ended with it.
final class ParallelEyesTests: XCTestCase {
    /// A 640×480 YUYV frame whose content depends on `seed` (smooth gradients and a pseudo-random speckle, so
    /// every crop differs from frame to frame).
    private func frame(seed: UInt32) -> Frame {
        let width = 640, height = 480
        var data = [UInt8](repeating: 0, count: width * height * 2)
        var state = seed &* 2_654_435_761 | 1
        for y in 0..<height {
            for x in 0..<width {
                state = state &* 1_664_525 &+ 1_013_904_223
                let noise = Int(state >> 28)
                let luma = 16 + (x * 3 + y * Int(seed % 7 + 1) + noise) % 220
                data[(y * width + x) * 2] = UInt8(truncatingIfNeeded: luma)
                data[(y * width + x) * 2 + 1] = UInt8(truncatingIfNeeded: 128 + (x - y + Int(seed)) % 64)
            }
        }
        return Frame(format: .yuyv, width: width, height: height, data: data)
    }

    /// 468 points of which only the four eye corners matter to the iris model: two eyes about `spread` apart
    /// around (cx, cy), tilted by `tilt`.
    private func landmarks(cx: Float, cy: Float, spread: Float, tilt: Float) -> [SIMD3<Float>] {
        var points = [SIMD3<Float>](repeating: .zero, count: FaceLandmarker.count)
        let c = cosf(tilt), s = sinf(tilt)
        func at(_ dx: Float) -> SIMD3<Float> { SIMD3(cx + c * dx, cy + s * dx, 0) }
        points[33] = at(-spread)  // the subject's right eye, outer corner
        points[133] = at(-0.35 * spread)  // inner corner
        points[362] = at(0.35 * spread)
        points[263] = at(spread)
        return points
    }

    /// Two eyes at once equal two eyes one after the other, bit for bit, over many frames (the eyes at many
    /// places, sizes and tilts, some partly outside the frame), with the landmarker's own interpreter used in
    /// between (`eye`), and against a landmarker that never had a worker.
    func testParallelEyesAreBitIdenticalToSequentialOnes() throws {
        let model = try TestData.iris
        let parallel = try IrisLandmarker(model: model, parallel: true)
        let sequential = try IrisLandmarker(model: model, parallel: false)
        XCTAssertTrue(parallel.isParallel)
        XCTAssertFalse(sequential.isParallel)
        let worker = try XCTUnwrap(parallel.worker)
        // Every left eye on the worker's thread: `finish` waits for it instead of taking it back.
        worker.takesBack = false
        for round in 0..<3 {
            for index in 0..<16 {
                let seed = UInt32(round * 16 + index)
                let frame = frame(seed: seed % 5)
                let f = Float(index)
                let points = landmarks(
                    cx: 40 + 37 * f, cy: 30 + 27 * f, spread: 20 + 4 * f,
                    tilt: 0.05 * (f - 8) + 0.1 * Float(round))
                let both = try XCTUnwrap(parallel.eyes(in: frame, landmarks: points), "frame \(seed)")
                let rightROI = IrisLandmarker.roi(from: points[33], to: points[133])
                let leftROI = IrisLandmarker.roi(from: points[362], to: points[263])
                let right = try XCTUnwrap(sequential.eye(in: frame, roi: rightROI, flipped: false))
                let left = try XCTUnwrap(sequential.eye(in: frame, roi: leftROI, flipped: true))
                XCTAssertEqual(both, FaceEyes(right: right, left: left), "frame \(seed)")
                XCTAssertTrue(bitsEqual(both.left.contour + both.left.iris, left.contour + left.iris), "frame \(seed)")
                XCTAssertTrue(
                    bitsEqual(both.right.contour + both.right.iris, right.contour + right.iris),
                    "frame \(seed)")
                XCTAssertEqual(sequential.eyes(in: frame, landmarks: points), both, "frame \(seed)")
                if index % 4 == 0 {
                    // The parallel landmarker's own interpreter on the left eye too: the worker's is no different.
                    let own = parallel.eye(
                        in: frame, roi: IrisLandmarker.roi(from: points[362], to: points[263]),
                        flipped: true)
                    XCTAssertEqual(own, left, "frame \(seed)")
                }
            }
        }
        XCTAssertEqual(worker.counts.ran, 48)
        XCTAssertEqual(worker.counts.takenBack, 0)
    }

    /// An eye the worker has not begun by the time the calling thread is done with the other (its core busy: here
    /// held) is taken back and read on the calling thread: the same points, and no wait for the worker; once let
    /// go, the worker reads its eyes again.
    func testAnEyeTheWorkerHasNotBegunIsReadByTheCaller() throws {
        let model = try TestData.iris
        let parallel = try IrisLandmarker(model: model, parallel: true)
        let sequential = try IrisLandmarker(model: model, parallel: false)
        let worker = try XCTUnwrap(parallel.worker)
        worker.isHolding = true
        for index in 0..<6 {
            let image = frame(seed: UInt32(index))
            let points = landmarks(cx: 200 + 30 * Float(index), cy: 240, spread: 50, tilt: 0.1 * Float(index))
            XCTAssertEqual(parallel.eyes(in: image, landmarks: points), sequential.eyes(in: image, landmarks: points))
        }
        XCTAssertEqual(worker.counts.ran, 0)
        XCTAssertEqual(worker.counts.takenBack, 6)
        worker.isHolding = false
        worker.takesBack = false
        let image = frame(seed: 9)
        let points = landmarks(cx: 320, cy: 200, spread: 70, tilt: -0.2)
        XCTAssertEqual(parallel.eyes(in: image, landmarks: points), sequential.eyes(in: image, landmarks: points))
        XCTAssertEqual(worker.counts.ran, 1)
        XCTAssertEqual(worker.counts.takenBack, 6)
    }

    /// A frame too short for its format gives no eyes, on either path, and the worker is ready for the next one.
    func testATruncatedFrameGivesNoEyesAndTheWorkerCarriesOn() throws {
        let model = try TestData.iris
        let parallel = try IrisLandmarker(model: model, parallel: true)
        let sequential = try IrisLandmarker(model: model, parallel: false)
        let good = frame(seed: 3)
        let short = Frame(format: .yuyv, width: 640, height: 480, data: Array(good.data.prefix(1000)))
        let points = landmarks(cx: 320, cy: 240, spread: 60, tilt: 0.1)
        XCTAssertNil(parallel.eyes(in: short, landmarks: points))
        XCTAssertNil(sequential.eyes(in: short, landmarks: points))
        XCTAssertNil(parallel.eyes(in: good, landmarks: Array(points.prefix(100))))
        let after = try XCTUnwrap(parallel.eyes(in: good, landmarks: points))
        XCTAssertEqual(after, sequential.eyes(in: good, landmarks: points))
    }

    /// The worker's interpreter is a second one of the model that stores no weights of its own (or the other way
    /// round): the packed weights are held once.
    func testTheWorkersInterpreterSharesTheWeights() throws {
        let parallel = try IrisLandmarker(model: try TestData.iris, parallel: true)
        let worker = try XCTUnwrap(parallel.worker)
        XCTAssertFalse(worker.interpreter === parallel.interpreter)
        let mine = parallel.interpreter.constantBuffers, theirs = worker.interpreter.constantBuffers
        XCTAssertEqual(mine.owned, 0)  // built after the worker's: borrows every buffer
        XCTAssertGreaterThan(mine.borrowed, 10)
        XCTAssertEqual(mine.borrowed, theirs.owned + theirs.borrowed)
    }

    /// One thread per parallel landmarker, none for a sequential one, and every one joined when its landmarker
    /// goes: each worker's own thread state (`EyeWorker.threadState`, held by its thread until the thread ends and
    /// by the worker until it has joined it), kept here only weakly, is there while its landmarker lives and gone
    /// once it is dropped. (Not a count of the process's threads: other threads of the test runner, Dispatch or a
    /// sanitizer come and go at any moment.)
    func testEachParallelLandmarkerHasOneThreadEndedWithIt() throws {
        let model = try TestData.iris
        var landmarkers: [IrisLandmarker] = []
        for _ in 0..<5 { landmarkers.append(try IrisLandmarker(model: model, parallel: true)) }
        let threads = try landmarkers.map { WeakThread(try XCTUnwrap($0.worker, "a parallel landmarker").threadState) }
        XCTAssertEqual(Set(threads.compactMap { $0.state.map(ObjectIdentifier.init) }).count, 5, "a thread each")
        let sequential = try IrisLandmarker(model: model, parallel: false)
        XCTAssertNil(sequential.worker, "no thread for a sequential landmarker")
        let points = landmarks(cx: 320, cy: 240, spread: 60, tilt: 0)
        let image = frame(seed: 1)
        let expected = sequential.eyes(in: image, landmarks: points)
        for landmarker in landmarkers {
            for _ in 0..<3 { XCTAssertEqual(landmarker.eyes(in: image, landmarks: points), expected) }
        }
        XCTAssertTrue(threads.allSatisfy { $0.state != nil }, "each thread there while its landmarker lives")
        landmarkers.removeAll()
        XCTAssertTrue(threads.allSatisfy { $0.state == nil }, "every worker's thread joined when its landmarker went")
        // Many made and dropped in turn: each one's thread is joined before the next is made.
        var previous: WeakThread?
        for _ in 0..<20 {
            XCTAssertNil(previous?.state, "the last landmarker's thread joined")
            let landmarker = try IrisLandmarker(model: model, parallel: true)
            previous = WeakThread(try XCTUnwrap(landmarker.worker).threadState)
            XCTAssertEqual(landmarker.eyes(in: image, landmarks: points), expected)
        }
        XCTAssertNil(previous?.state)
    }

    /// The worker thread blocks the signals the wizard handles (it starts with every signal blocked), so they reach
    /// the thread whose poll they must interrupt. The thread notes its own mask when it begins: no search among
    /// the process's threads, whose list follows the kernel's reaping and the test runner's threads.
    func testTheWorkerThreadBlocksSignals() throws {
        let landmarker = try IrisLandmarker(model: try TestData.iris, parallel: true)
        let worker = try XCTUnwrap(landmarker.worker)
        // One eye on the worker's thread (`finish` waits for it): the thread has begun, and noted its mask, by then.
        worker.takesBack = false
        _ = landmarker.eyes(in: frame(seed: 1), landmarks: landmarks(cx: 320, cy: 240, spread: 60, tilt: 0))
        XCTAssertEqual(worker.counts.ran, 1)
        var mask = try XCTUnwrap(worker.blockedSignals, "the thread has begun")
        for signal in [SIGINT, SIGTERM, SIGHUP, SIGTSTP, SIGCONT, SIGWINCH, SIGQUIT] {
            XCTAssertEqual(sigismember(&mask, signal), 1, "signal \(signal) blocked on the worker thread")
        }
    }

    /// The default: two threads on a machine with more than one core, one with `FACECAP_ONE_THREAD` set.
    func testParallelByDefaultOnlyWithMoreThanOneCoreAndNotOneThreadAsked() {
        XCTAssertTrue(IrisLandmarker.runsInParallel(oneThread: false, cores: 2))
        XCTAssertTrue(IrisLandmarker.runsInParallel(oneThread: false, cores: 16))
        XCTAssertFalse(IrisLandmarker.runsInParallel(oneThread: false, cores: 1))
        XCTAssertFalse(IrisLandmarker.runsInParallel(oneThread: true, cores: 2))
        XCTAssertEqual(
            IrisLandmarker.parallelByDefault,
            ProcessInfo.processInfo.environment["FACECAP_ONE_THREAD"] == nil
                && IrisLandmarker.usableCores > 1)
    }

    private func bitsEqual(_ a: [SIMD3<Float>], _ b: [SIMD3<Float>]) -> Bool {
        a.count == b.count
            && zip(a, b).allSatisfy { p, q in
                (0..<3).allSatisfy { p[$0].bitPattern == q[$0].bitPattern }
            }
    }
}

/// A weak reference to a worker's thread state (`EyeWorker.threadState`): nil once the thread has been joined.
struct WeakThread {
    weak var state: AnyObject?
    init(_ state: AnyObject) { self.state = state }
}
