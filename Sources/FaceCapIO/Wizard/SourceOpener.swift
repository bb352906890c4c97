import FaceCapCore

/// Opens what the wizard reads from: the camera given with --device (or chosen with key d), the first capture
/// node, or a clip replayed at its own frame rate.
public final class SourceOpener: FrameSourceOpener {
    private let source: WizardConfiguration.Source
    private let camera: CameraConfiguration
    private let directory: String
    private let ops: CameraOps
    /// A clip opened (and so checked) before the screens started, handed out by the first `open`.
    private var prepared: FrameSource?
    /// The node --device named or key d chose; nil: the best-ranked capture node (`CameraRank`), or the one
    /// the person chose last time (`memory`).
    private var devicePath: String?
    /// Where the person's choice of camera (key d) is remembered; nil: not remembered.
    private let memory: CameraMemory?
    /// The camera controls facecap changed in this run, across every opening (written back at each close, and at
    /// `finish` for a camera that went away meanwhile).
    public let controlLedger = CameraControlLedger()

    public init(source: WizardConfiguration.Source, camera: CameraConfiguration, prepared: FrameSource? = nil,
                directory: String = "/dev", ops: CameraOps = .system, memory: CameraMemory? = nil) {
        self.memory = memory
        self.source = source
        var camera = camera
        // A live preview wants the newest frame, not the ones that queued while a frame was analysed.
        camera.skipStaleFrames = true
        self.camera = camera
        self.prepared = prepared
        self.directory = directory
        self.ops = ops
        if case .camera(let path) = source { devicePath = path }
    }

    public func open() throws(CameraProblem) -> FrameSource {
        if let prepared {
            self.prepared = nil
            return prepared
        }
        switch source {
        case .clip(let path, let loop):
            do {
                return try ClipSource(path: path, loop: loop)
            } catch let error as UserFacingError {
                throw CameraProblem(kind: .noCamera, message: error.message, exitCode: error.exitCode, recoverable: false)
            } catch {
                throw CameraProblem(kind: .noCamera, message: Words.text(.clipUnreadable, ["path": path]), exitCode: .noInput,
                                    recoverable: false)
            }
        case .camera:
            do throws(CameraError) {
                if let devicePath {
                    return try Camera(path: devicePath, configuration: camera, ops: ops, controlLedger: controlLedger)
                }
                let devices = CameraDevice.scan(directory: directory, ops: ops).devices
                guard let chosen = CameraRank.choose(devices, remembered: memory?.remembered(among: devices)) else {
                    return try Camera.openFirst(configuration: camera, directory: directory, ops: ops,
                                                controlLedger: controlLedger)
                }
                return try Camera(path: chosen.path, configuration: camera, ops: ops, controlLedger: controlLedger)
            } catch {
                throw CameraProblem(error)
            }
        }
    }

    public func cameras() -> [CameraChoice] {
        guard case .camera = source else { return [] }
        let scan = CameraDevice.scan(directory: directory, ops: ops)
        let current = devicePath
            ?? CameraRank.choose(scan.devices, remembered: memory?.remembered(among: scan.devices))?.path
        // In the order facecap would try them, each with why it comes there ("colour, 640x480 at 30 fps").
        var choices = CameraRank.ranked(scan.devices).map { device, rank in
            CameraChoice(path: device.path,
                         description: "\(device.card) (\(device.driver), \(device.bus)): "
                             + rank.reasons.joined(separator: ", "),
                         isCurrent: device.path == current)
        }
        // Nodes that could not be inspected come last, with why, as `facecap devices` lists them: one may be the
        // camera.
        let problems = scan.problems.compactMap { problem in problem.devicePath.map { (path: $0, problem: problem) } }
        for (path, problem) in problems.sorted(by: { ($0.path.count, $0.path) < ($1.path.count, $1.path) }) {
            choices.append(CameraChoice(path: path, description: problem.message, isCurrent: path == current))
        }
        return choices
    }

    /// The run ends: controls of a camera that went away while open are written back if it is there again.
    public func finish() {
        controlLedger.restorePending(ops: ops)
    }

    /// Key d chose `path`: used from now on, and remembered for the next run.
    public func choose(_ path: String) {
        devicePath = path
        memory?.remember(path: path)
    }
}

private extension CameraError {
    /// The node the error is about, when it names one.
    var devicePath: String? {
        switch self {
        case .noCamera: return nil
        case .noSuchDevice(let path), .notCaptureDevice(let path, _), .permissionDenied(let path, _), .busy(let path, _),
             .unsupportedFormat(let path, _, _), .disconnected(let path), .stalled(let path, _), .noBandwidth(let path),
             .ioError(let path, _), .system(let path, _, _), .closed(let path):
            return path
        }
    }
}
