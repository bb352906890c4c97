import FaceCapCore

/// Opens what the wizard reads from: the camera given with --device, the first capture node (and the next
/// one on key d), or a clip replayed at its own frame rate.
public final class SourceOpener: FrameSourceOpener {
    private let source: WizardConfiguration.Source
    private let camera: CameraConfiguration
    private let directory: String
    private let ops: CameraOps
    /// A clip opened (and so checked) before the screens started, handed out by the first `open`.
    private var prepared: FrameSource?
    /// Which capture node `open` uses when no --device was given, or after key d.
    private var deviceIndex = 0
    private var devicePath: String?

    public init(source: WizardConfiguration.Source, camera: CameraConfiguration, prepared: FrameSource? = nil,
                directory: String = "/dev", ops: CameraOps = .system) {
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
                if let devicePath { return try Camera(path: devicePath, configuration: camera, ops: ops) }
                let devices = CameraDevice.scan(directory: directory, ops: ops).devices
                guard !devices.isEmpty else { return try Camera.openFirst(configuration: camera, directory: directory,
                                                                           ops: ops) }
                let device = devices[deviceIndex % devices.count]
                return try Camera(path: device.path, configuration: camera, ops: ops)
            } catch {
                throw CameraProblem(error)
            }
        }
    }

    public func nextDevice() {
        guard case .camera = source else { return }
        let devices = CameraDevice.scan(directory: directory, ops: ops).devices
        guard !devices.isEmpty else { return }
        if let current = devicePath, let index = devices.firstIndex(where: { $0.path == current }) {
            deviceIndex = index + 1
        } else {
            deviceIndex += 1
        }
        // After d the choice is the scan's, even when --device named one.
        devicePath = nil
    }
}
