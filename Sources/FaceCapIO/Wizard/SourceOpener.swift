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
    /// Where sysfs is (interface names and drivers of the nodes); nil: `CameraDevice.sysfsRoot`'s choice.
    private let sysfs: String?
    /// Nodes whose frames had their chroma flat at 128 this run: infrared, ranked as such from then on.
    private var flatChroma: Set<String> = []

    /// Frames read from a YUV camera facecap chose by itself to see whether its picture has colour: the first with
    /// some contrast decides; a camera still blank after these (starting up, lens covered) is taken for colour.
    static let chromaSampleFrames = 8

    /// The camera controls facecap changed in this run, across every opening (written back at each close, and at
    /// `finish` for a camera that went away meanwhile).
    public let controlLedger = CameraControlLedger()

    public init(
        source: WizardConfiguration.Source, camera: CameraConfiguration, prepared: FrameSource? = nil,
        directory: String = "/dev", ops: CameraOps = .system, memory: CameraMemory? = nil,
        sysfs: String? = nil
    ) {
        self.memory = memory
        self.sysfs = sysfs
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
                throw CameraProblem(
                    kind: .noCamera, message: error.message, exitCode: error.exitCode, recoverable: false)
            } catch {
                throw CameraProblem(
                    kind: .noCamera, message: Words.clipUnreadable(path: path), exitCode: .noInput,
                    recoverable: false)
            }
        case .camera:
            do throws(CameraError) {
                if let devicePath {
                    return try Camera(path: devicePath, configuration: camera, ops: ops, controlLedger: controlLedger)
                }
                return try openBest()
            } catch {
                throw CameraProblem(error)
            }
        }
    }

    /// The best-ranked node (or the person's last choice). A YUV camera chosen by rank while another colour camera
    /// is there shows its first frames to `hasFlatChroma`: an infrared function that gives YUYV (its chroma flat at
    /// 128) has nothing in its formats or names to tell it by, so its picture is the only sign. That costs a few
    /// frames at start only on machines with two colour cameras, and none where the choice could not change.
    private func openBest() throws(CameraError) -> Camera {
        var devices = scannedDevices().devices
        let remembered = memory?.remembered(among: devices)
        while true {
            guard let chosen = CameraRank.choose(devices, remembered: remembered) else {
                return try Camera.openFirst(
                    configuration: camera, directory: directory, ops: ops, sysfs: sysfs,
                    controlLedger: controlLedger)
            }
            if let raw = CameraRank.rawBayerCamera(devices) { throw .rawBayerOnly(raw) }
            let opened = try Camera(path: chosen.path, configuration: camera, ops: ops, controlLedger: controlLedger)
            // Only another physical colour camera: demoting a real camera whose saturation is at 0 in favour of a
            // virtual one (OBS) would show another program's picture.
            let otherColour = devices.contains {
                let rank = CameraRank(of: $0)
                return $0.path != chosen.path && rank.kind == .colour && !rank.isVirtual
            }
            guard chosen.path != remembered, otherColour, CameraRank(of: chosen).kind == .colour,
                !opened.isConverted, opened.format == .yuyv || opened.format == .yuv420p,
                hasFlatChroma(opened)
            else { return opened }
            // Marked, it ranks as infrared: the next turn opens another node, and the loop ends once none is left.
            opened.close()
            flatChroma.insert(chosen.path)
            devices = devices.map(marked)
        }
    }

    /// True when a frame with some contrast has its chroma flat at 128 (`Frame.chromaIsFlat`); false on the first
    /// with colour, and when none decides within `chromaSampleFrames` frames or a frame does not come.
    private func hasFlatChroma(_ camera: Camera) -> Bool {
        var frame = Frame(format: camera.format, width: camera.width, height: camera.height, data: [])
        for _ in 0..<Self.chromaSampleFrames {
            // A camera that fails here fails the same way for the pipeline, which reports it.
            guard let result = try? camera.nextFrame(into: &frame, timeout: camera.configuration.stallTimeout),
                result == .frame
            else { return false }
            if let flat = frame.chromaIsFlat { return flat }
        }
        return false
    }

    private func marked(_ device: CameraDevice) -> CameraDevice {
        var device = device
        device.chromaIsFlat = flatChroma.contains(device.path)
        return device
    }

    private func scannedDevices() -> CameraScan {
        var scan = CameraDevice.scan(directory: directory, ops: ops, sysfs: sysfs, detail: .ranking(forced: nil))
        scan.devices = scan.devices.map(marked)
        return scan
    }

    public func cameras() -> [CameraChoice] {
        guard case .camera = source else { return [] }
        let scan = scannedDevices()
        let current =
            devicePath
            ?? CameraRank.choose(scan.devices, remembered: memory?.remembered(among: scan.devices))?.path
        // In the order facecap would try them, each with why it comes there ("colour, 640x480 at 30 fps").
        var choices = CameraRank.ranked(scan.devices).map { device, rank in
            CameraChoice(
                path: device.path,
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

extension CameraError {
    /// The node the error is about, when it names one.
    fileprivate var devicePath: String? {
        switch self {
        case .noCamera, .rawBayerOnly: return nil
        case .noSuchDevice(let path), .notCaptureDevice(let path, _), .permissionDenied(let path, _),
            .busy(let path, _),
            .unsupportedFormat(let path, _, _), .disconnected(let path), .stalled(let path, _), .noBandwidth(let path),
            .ioError(let path, _), .system(let path, _, _), .closed(let path):
            return path
        }
    }
}
