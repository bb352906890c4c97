import CV4L2
import FaceCapCore
import XCTest

@testable import FaceCapIO

#if canImport(Glibc)
import Glibc
#endif

/// The controls facecap changed, written back when the flow crashes: the shim's table follows the ledger (only the
/// cameras open now), its restore reads each control first and leaves alone one another program changed, and a real
/// fatal signal in a child process runs it and still ends the child by that signal.
final class CameraCrashRestoreTests: XCTestCase {
    let path = "/dev/fake-video0"
    var fakes: [FakeV4L2Device] = []

    override func tearDown() {
        // Nothing of this test left for the next one's fatal path.
        _ = cv4l2_saved_controls_publish(nil, 0)
    }

    func makeFake() -> FakeV4L2Device {
        let fake = FakeV4L2Device(nodes: [path: .webcam])
        fake.controls = [
            CV4L2_CID_GAIN: .init(minimum: 0, maximum: 255, value: 32),
            CV4L2_CID_BRIGHTNESS: .init(minimum: -64, maximum: 64, value: 0),
            CV4L2_CID_UVC_ROI_RECT: .init(
                minimum: 0, maximum: 0, value: 0,
                rect: v4l2_rect(left: 0, top: 0, width: 640, height: 480)),
        ]
        fakes.append(fake)
        return fake
    }

    func testTheFatalPathsTableFollowsTheLedgerAndLeavesAloneWhatAnotherProgramChanged() throws {
        let fake = makeFake()
        let camera = try Camera(path: path, ops: fake.ops)
        XCTAssertEqual(cv4l2_saved_controls_count(), 0, "nothing changed yet")
        XCTAssertTrue(camera.setControl(CV4L2_CID_GAIN, .integer(90)))
        XCTAssertTrue(camera.setControl(CV4L2_CID_BRIGHTNESS, .integer(20)))
        XCTAssertTrue(camera.setControl(CV4L2_CID_GAIN, .integer(120)))
        XCTAssertTrue(camera.setControl(CV4L2_CID_UVC_ROI_RECT, .rect(x: 200, y: 100, width: 240, height: 280)))
        XCTAssertEqual(cv4l2_saved_controls_count(), 3, "one entry per control, the newest value written")
        fake.controls[CV4L2_CID_BRIGHTNESS]?.value = 5  // another program, after facecap's change
        let writesBefore = fake.controlWrites.count

        // What the fatal-signal handler calls (here on the test's thread, the fake's ioctl).
        var outcomes = [Int32](repeating: 0, count: 4)
        XCTAssertEqual(cv4l2_restore_saved_controls(&outcomes, 4), 3)
        XCTAssertEqual(
            Array(outcomes.prefix(3)),
            [Int32(CV4L2_SAVED_RESTORED), Int32(CV4L2_SAVED_LEFT_ALONE), Int32(CV4L2_SAVED_RESTORED)])
        XCTAssertEqual(fake.control(CV4L2_CID_GAIN), 32, "the value before the first change")
        XCTAssertEqual(fake.control(CV4L2_CID_BRIGHTNESS), 5, "another program's value stays")
        let rect = try XCTUnwrap(fake.controls[CV4L2_CID_UVC_ROI_RECT]?.rect)
        XCTAssertEqual([rect.left, rect.top, Int32(rect.width), Int32(rect.height)], [0, 0, 640, 480])
        XCTAssertEqual(fake.controlWrites.count, writesBefore + 2, "two writes: gain and region, not brightness")
        XCTAssertEqual(cv4l2_restore_saved_controls(nil, 0), 0, "a second fatal signal writes nothing again")

        camera.close()
        XCTAssertEqual(cv4l2_saved_controls_count(), 0, "a closed camera's descriptor is never written to")
        XCTAssertEqual(fake.control(CV4L2_CID_GAIN), 32)
    }

    func testAControlWrittenBackByTheLedgerLeavesTheTable() throws {
        let fake = makeFake()
        let camera = try Camera(path: path, ops: fake.ops)
        XCTAssertTrue(camera.setControl(CV4L2_CID_GAIN, .integer(90)))
        XCTAssertEqual(cv4l2_saved_controls_count(), 1)
        camera.giveBackControls()
        XCTAssertEqual(fake.control(CV4L2_CID_GAIN), 32)
        XCTAssertEqual(cv4l2_saved_controls_count(), 0, "given back: nothing left for a crash to write")
        XCTAssertEqual(cv4l2_restore_saved_controls(nil, 0), 0)
        camera.close()
    }

    /// A child process with two controls in the table, one still as facecap wrote it and one another program
    /// changed, traps (an integer overflow: a Swift trap, SIGILL). Its ioctl is a C function on memory shared with
    /// this process, so what the handler wrote is seen here after the child died.
    func testATrapWritesTheControlsBackAndStillEndsByItsSignal() throws {
        let size = 4096
        let memory = mmap(nil, size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0)
        XCTAssertNotEqual(memory, MAP_FAILED)
        guard let memory, memory != MAP_FAILED else { return }
        defer { munmap(memory, size) }
        // [0]: the gain, [1]: the brightness, [2]: writes made, [3]: the child's sum that traps.
        let shared = memory.bindMemory(to: Int32.self, capacity: 4)
        shared[0] = 90
        shared[1] = 5
        shared[2] = 0
        let ioctl: @convention(c) (UnsafeMutableRawPointer?, Int32, UInt, UnsafeMutableRawPointer?) -> Int32 = {
            context, _, request, argument in
            let values = context!.assumingMemoryBound(to: Int32.self)
            let control = argument!.assumingMemoryBound(to: v4l2_control.self)
            let slot = control.pointee.id == CV4L2_CID_GAIN ? 0 : 1
            if request == CV4L2_VIDIOC_G_CTRL {
                control.pointee.value = values[slot]
            } else if request == CV4L2_VIDIOC_S_CTRL {
                values[slot] = control.pointee.value
                values[2] += 1
            }
            return 0
        }
        func saved(_ id: UInt32, original: Int32, written: Int32) -> cv4l2_saved_control {
            var control = cv4l2_saved_control()
            control.fd = 7
            control.ioctl = ioctl
            control.context = memory
            control.id = id
            control.original = original
            control.written = written
            return control
        }
        let table = [
            saved(CV4L2_CID_GAIN, original: 32, written: 90),
            saved(CV4L2_CID_BRIGHTNESS, original: 0, written: 20),
        ]
        XCTAssertEqual(cv4l2_saved_controls_publish(table, 2), 2)

        // The child of this many-threaded process may only make calls that take no lock another thread could have
        // held at fork (no allocation): what it needs is made here, before fork.
        let fatal = [SIGILL, SIGTRAP, SIGSEGV, SIGBUS, SIGFPE, SIGABRT]
        var noCore = rlimit(rlim_cur: 0, rlim_max: 0)
        let one = Int(getpid() > 0 ? 1 : 0)
        let child = fork()
        if child == 0 {
            // No backtracer in the child (it would start another program): only facecap's handler, then the default.
            for number in fatal { signal(number, SIG_DFL) }
            setrlimit(Int32(RLIMIT_CORE.rawValue), &noCore)
            FatalSignals.install()
            shared[3] = Int32(truncatingIfNeeded: Int.max + one)  // traps: the overflow check, used
            _exit(99)
        }
        XCTAssertGreaterThan(child, 0)
        // A bound on a hang, not a timing: a child stuck for a minute is killed and the test fails (it ends in
        // milliseconds).
        var status: Int32 = 0
        var waited: pid_t = 0
        for _ in 0..<6000 where waited == 0 {
            waited = waitpid(child, &status, WNOHANG)
            if waited < 0 && errno == EINTR { waited = 0 }
            if waited == 0 { usleep(10_000) }
        }
        if waited == 0 {
            kill(child, SIGKILL)
            _ = waitpid(child, &status, 0)
            XCTFail("the child did not end within a minute")
            return
        }
        XCTAssertEqual(waited, child, "the child's end is seen (errno \(errno))")
        let signalled = status & 0x7f != 0 && status & 0x7f != 0x7f
        XCTAssertTrue(signalled, "ended by a signal, not exit \((status >> 8) & 0xff)")
        XCTAssertEqual(status & 0x7f, SIGILL, "the exit status still says which signal")
        XCTAssertEqual(shared[0], 32, "the gain written back")
        XCTAssertEqual(shared[1], 5, "the brightness another program set is left alone")
        XCTAssertEqual(shared[2], 1, "one write")
    }
}
