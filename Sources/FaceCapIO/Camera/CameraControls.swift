internal import CV4L2
import FaceCapCore

#if canImport(Glibc)
import Glibc
#endif

/// A control's value as facecap reads and writes it: a number (integer, boolean, menu) or a rectangle (the UVC
/// region of interest).
public enum CameraControlValue: Equatable, Sendable {
    case integer(Int32)
    case rect(x: Int32, y: Int32, width: UInt32, height: UInt32)
}

/// What the camera says of one control (VIDIOC_QUERY_EXT_CTRL).
public struct CameraControlInfo: Equatable, Sendable {
    public var minimum: Int
    public var maximum: Int
    public var step: Int
    public var flags: UInt32

    /// The control can be written now: not read-only, disabled, inactive (another control drives it) or grabbed.
    public var isWritable: Bool {
        flags
            & (CV4L2_CTRL_FLAG_READ_ONLY | CV4L2_CTRL_FLAG_DISABLED | CV4L2_CTRL_FLAG_INACTIVE
                | CV4L2_CTRL_FLAG_GRABBED) == 0
    }
}

/// The controls facecap changed, per camera, each with the value it had before and the value facecap last wrote.
/// Every control is written back when its camera closes, whichever way the run ends (success, error, q, a stop
/// signal, the flow failing), and a control another program changed since facecap wrote it is left alone. A camera
/// that went away (unplugged) keeps its entries: they are written back when it opens again, or at the end of the run
/// (`restorePending`). One ledger serves every opening of the cameras of one run.
public final class CameraControlLedger {
    struct Entry {
        var path: String
        var id: UInt32
        var original: CameraControlValue
        var written: CameraControlValue
    }

    /// What happened to one control at a restore.
    public enum Outcome: Equatable, Sendable {
        /// Written back to the value it had before facecap changed it.
        case restored(CameraControlValue)
        /// Another program changed it after facecap: left as it is.
        case leftAlone(CameraControlValue)
        /// The camera could not be reached (unplugged): kept for later.
        case pending
        /// Reading or writing failed otherwise (the errno): nothing more can be done.
        case failed(Int32)
    }

    private(set) var entries: [Entry] = [] {
        didSet { publish() }
    }
    /// Every restore so far, in order: (path, control id, outcome).
    public private(set) var outcomes: [(path: String, id: UInt32, outcome: Outcome)] = []
    /// The cameras open now, by path: their entries are also kept where a fatal signal can write them back.
    private var devices: [String: OpaquePointer] = [:] {
        didSet { publish() }
    }

    public init() {}

    /// The controls changed and not yet written back, as (path, control id).
    public var changed: [(path: String, id: UInt32)] { entries.map { ($0.path, $0.id) } }

    /// Notes that facecap wrote `written` to a control whose value before was `original` (kept from its first change).
    func record(path: String, id: UInt32, original: CameraControlValue, written: CameraControlValue) {
        if let index = entries.firstIndex(where: { $0.path == path && $0.id == id }) {
            entries[index].written = written
        } else {
            entries.append(Entry(path: path, id: id, original: original, written: written))
        }
    }

    /// The value a control had before facecap first changed it, if it did.
    func original(path: String, id: UInt32) -> CameraControlValue? {
        entries.first { $0.path == path && $0.id == id }?.original
    }

    /// The value facecap last wrote to a control, if it changed it.
    func written(path: String, id: UInt32) -> CameraControlValue? {
        entries.first { $0.path == path && $0.id == id }?.written
    }

    /// Another program changed a control (it reads `current`): dropped, so it is never written back.
    func leaveAlone(path: String, id: UInt32, current: CameraControlValue) {
        entries.removeAll { $0.path == path && $0.id == id }
        outcomes.append((path, id, .leftAlone(current)))
    }

    /// `path` is open as `device`: its controls can be written back from a fatal-signal handler until `closed`.
    func opened(path: String, device: OpaquePointer) { devices[path] = device }

    /// `path`'s device is about to be closed (its descriptor may be reused): no longer written back on a crash.
    func closed(path: String) { devices[path] = nil }

    /// Copies the changed controls of the open cameras into the shim's fixed table (`cv4l2_saved_controls_publish`),
    /// which the fatal-signal path reads: a Swift trap, SIGSEGV… in any thread still leaves the camera as it was
    /// found (`FatalSignals`). The table holds the ledger that changed last: one per run.
    private func publish() {
        var saved: [cv4l2_saved_control] = []
        for entry in entries {
            guard let device = devices[entry.path] else { continue }
            var control = cv4l2_saved_control()
            cv4l2_saved_control_device(device, &control)
            control.id = entry.id
            switch (entry.original, entry.written) {
            case (.integer(let original), .integer(let written)):
                control.original = original
                control.written = written
            case (.rect(let x, let y, let width, let height), .rect(let wx, let wy, let wwidth, let wheight)):
                control.is_rect = 1
                control.original_rect = v4l2_rect(left: x, top: y, width: width, height: height)
                control.written_rect = v4l2_rect(left: wx, top: wy, width: wwidth, height: wheight)
            default:
                continue
            }
            saved.append(control)
        }
        _ = cv4l2_saved_controls_publish(saved, Int32(saved.count))
    }

    /// Writes back `path`'s controls through its open `device`, the last changed first.
    func restore(path: String, device: OpaquePointer) {
        var kept: [Entry] = []
        for entry in entries.reversed() {
            guard entry.path == path else {
                kept.insert(entry, at: 0)
                continue
            }
            let outcome = Self.restore(entry, device: device)
            outcomes.append((path, entry.id, outcome))
            if outcome == .pending { kept.insert(entry, at: 0) }
        }
        entries = kept
    }

    /// Opens each camera whose controls are still waiting (it went away while open) and writes them back.
    public func restorePending(ops: CameraOps) {
        var paths: [String] = []
        for entry in entries where !paths.contains(entry.path) { paths.append(entry.path) }
        for path in paths {
            var table = ops.table
            var error: Int32 = 0
            guard let device = cv4l2_open_controls(&table, path, &error) else { continue }
            restore(path: path, device: device)
            cv4l2_stop(device)
        }
    }

    private static func restore(_ entry: Entry, device: OpaquePointer) -> Outcome {
        let current: CameraControlValue
        switch CameraControlIO.read(device, id: entry.id, like: entry.original) {
        case .success(let value): current = value
        case .failure(let failure): return failure.code == ENODEV ? .pending : .failed(failure.code)
        }
        guard current == entry.written else { return .leftAlone(current) }
        let code = CameraControlIO.write(device, id: entry.id, entry.original)
        if code == 0 { return .restored(entry.original) }
        return code == ENODEV ? .pending : .failed(code)
    }
}

/// The shim's control calls on an open device.
enum CameraControlIO {
    struct Failure: Error { var code: Int32 }

    static func query(_ device: OpaquePointer, id: UInt32) -> CameraControlInfo? {
        var info = cv4l2_control_info()
        guard cv4l2_query_control(device, id, &info) == 0,
            info.flags & CV4L2_CTRL_FLAG_DISABLED == 0
        else { return nil }
        return CameraControlInfo(
            minimum: Int(clamping: info.minimum), maximum: Int(clamping: info.maximum),
            step: Int(clamping: info.step), flags: info.flags)
    }

    /// Reads a control as the same kind of value as `like`.
    static func read(
        _ device: OpaquePointer, id: UInt32,
        like: CameraControlValue
    ) -> Result<CameraControlValue, Failure> {
        switch like {
        case .integer:
            var value: Int32 = 0
            let code = cv4l2_get_control(device, id, &value)
            return code == 0 ? .success(.integer(value)) : .failure(Failure(code: code))
        case .rect:
            var rect = v4l2_rect()
            let code = cv4l2_get_rect_control(device, id, &rect)
            return code == 0
                ? .success(.rect(x: rect.left, y: rect.top, width: rect.width, height: rect.height))
                : .failure(Failure(code: code))
        }
    }

    /// Writes a control; returns 0 or the errno.
    static func write(_ device: OpaquePointer, id: UInt32, _ value: CameraControlValue) -> Int32 {
        switch value {
        case .integer(let number):
            return cv4l2_set_control(device, id, number)
        case .rect(let x, let y, let width, let height):
            var rect = v4l2_rect(left: x, top: y, width: width, height: height)
            return cv4l2_set_rect_control(device, id, &rect)
        }
    }
}

extension Camera {
    /// What the camera says of control `id`; nil when it has no such control (or it is disabled, or the camera is
    /// closed).
    public func controlInfo(_ id: UInt32) -> CameraControlInfo? {
        guard let device else { return nil }
        return CameraControlIO.query(device, id: id)
    }

    /// The current value of integer control `id`.
    public func controlValue(_ id: UInt32) -> Int32? {
        guard let device, case .success(.integer(let value)) = CameraControlIO.read(device, id: id, like: .integer(0))
        else { return nil }
        return value
    }

    /// Sets control `id`, first noting its value before (the first time) in the ledger so it is written back when
    /// the camera closes; the value the driver kept (it may round) is what is noted as written. The control is read
    /// first: where it is no longer what facecap last wrote (or, not yet written, not `expected`, the value the
    /// caller learned), another program changed it while facecap ran, and it is left alone: not written, dropped
    /// from the ledger so it is never written back. False when it was left alone or the camera refused.
    @discardableResult
    public func setControl(_ id: UInt32, _ value: CameraControlValue, expected: CameraControlValue? = nil) -> Bool {
        guard let device,
            case .success(let current) = CameraControlIO.read(device, id: id, like: value)
        else { return false }
        let original: CameraControlValue
        if let known = controlLedger.original(path: path, id: id) {
            guard current == controlLedger.written(path: path, id: id) else {
                controlLedger.leaveAlone(path: path, id: id, current: current)
                return false
            }
            original = known
        } else {
            if let expected, current != expected {
                controlLedger.leaveAlone(path: path, id: id, current: current)
                return false
            }
            original = current
        }
        guard CameraControlIO.write(device, id: id, value) == 0 else { return false }
        let kept = (try? CameraControlIO.read(device, id: id, like: value).get()) ?? value
        controlLedger.record(path: path, id: id, original: original, written: kept)
        return true
    }
}
