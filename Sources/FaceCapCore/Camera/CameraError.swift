// The camera's failures as values: what went wrong and what to do about it, with no I/O. Screens
// render from these (a permission screen shows `DeviceAccess`, a busy screen the `DeviceHolder`s);
// FaceCapIO fills them in (stat, /proc) and maps a V4L2 failure to a case.

#if canImport(Glibc)
import Glibc
#endif

/// Why a path that exists is no V4L2 video-capture node, as `CameraError.notCaptureDevice` says it.
public enum NotCaptureReason: Hashable, Sendable {
    /// A regular file or another kind of file than a character device.
    case notDeviceNode
    /// A directory.
    case directory
    /// A device node no driver answers for (ENXIO, ENODEV at open).
    case noDriver
    /// A device that is not V4L2 (ENOTTY, EINVAL at open or VIDIOC_QUERYCAP), such as /dev/null.
    case noV4L2
    /// A V4L2 node without video capture, e.g. a camera's metadata node.
    case noVideoCapture

    /// The reason in the current language: a phrase for inside `cameraErrorNotCapture`'s brackets.
    public var text: String {
        switch self {
        case .notDeviceNode: return Words.text(.cameraNotCaptureNotDevice)
        case .directory: return Words.text(.cameraNotCaptureDirectory)
        case .noDriver: return Words.text(.cameraNotCaptureNoDriver)
        case .noV4L2: return Words.text(.cameraNotCaptureNoV4L2)
        case .noVideoCapture: return Words.text(.cameraNotCaptureNoVideo)
        }
    }
}

/// Why a camera could not be opened or stopped delivering frames; each case names the fix.
public enum CameraError: Error, UserFacingError, Hashable, Sendable {
    /// No video-capture node at all (only metadata nodes, or no /dev/video*).
    case noCamera(directory: String)
    /// The path does not exist.
    case noSuchDevice(path: String)
    /// The path exists but is not a V4L2 video-capture node (a file, /dev/null, a metadata node…).
    case notCaptureDevice(path: String, reason: NotCaptureReason)
    /// open() failed with EACCES/EPERM; `access` says who owns the node and who the user is.
    case permissionDenied(path: String, access: DeviceAccess)
    /// EBUSY (at open, S_FMT, REQBUFS or STREAMON): another program streams from the camera.
    case busy(path: String, holders: [DeviceHolder])
    /// No format facecap reads (YUYV, NV12, YU12, YV12, RGB) nor libv4l2's RGB24 conversion is available, or the
    /// one `asked` for (--format) is not offered; `offered` lists the camera's formats.
    case unsupportedFormat(path: String, offered: [String], asked: String? = nil)
    /// Every capture node gives raw Bayer data only: a MIPI camera (Intel IPU6/IPU7, Qualcomm CAMSS), whose picture
    /// an image processor makes (libcamera's); facecap reads ready pictures only.
    case rawBayerOnly(RawBayerCamera)
    /// The device went away (ENODEV, or POLLERR/POLLHUP while streaming): unplugged.
    case disconnected(path: String)
    /// No frame arrived for `seconds`.
    case stalled(path: String, seconds: Double)
    /// STREAMON failed with ENOSPC: the USB bus cannot carry this size and rate (uvcvideo's answer).
    case noBandwidth(path: String)
    /// DQBUF failed with EIO `attempts` times in a row.
    case ioError(path: String, attempts: Int)
    /// Any other failure of a device call, with the call's name and errno.
    case system(path: String, operation: String, errno: Int32)
    /// The camera was already closed.
    case closed(path: String)

    /// True for a camera that was streaming and stopped (unplugged, stalled, failing): the wizard's
    /// "connection error" with recovery, as opposed to a camera that could not be opened at all.
    public var isStreamLoss: Bool {
        switch self {
        case .disconnected, .stalled, .ioError: return true
        default: return false
        }
    }

    public var exitCode: ExitCode {
        switch self {
        // A camera facecap cannot read is no camera to it: 69, as SPEC's table has no code of its own for it.
        case .noCamera, .noSuchDevice, .notCaptureDevice, .busy, .unsupportedFormat, .rawBayerOnly: return .noCamera
        case .permissionDenied: return .permissionDenied
        case .disconnected, .stalled, .noBandwidth, .ioError, .system, .closed: return .failure
        }
    }

    public var message: String {
        switch self {
        case .noCamera(let directory):
            // No hint about --input here: `devices` and `record` need a camera; the wizard adds it (CameraProblem).
            return Words.cameraErrorNoCamera(directory: directory)
        case .noSuchDevice(let path):
            return Words.cameraErrorNoSuchDevice(path: path)
        case .notCaptureDevice(let path, let reason):
            return Words.cameraErrorNotCapture(path: path, reason: reason.text)
        case .permissionDenied(let path, let access):
            return access.membershipPending
                ? Words.cameraErrorDeniedPending(path: path, access: access.summary, group: access.fixGroup)
                : Words.cameraErrorDenied(path: path, access: access.summary, group: access.fixGroup)
        case .busy(let path, let holders):
            if holders.isEmpty { return Words.cameraErrorBusyNoneVisible(path: path) }
            let names = holders.map { "\($0.command) (pid \($0.pid))" }.joined(separator: ", ")
            return Words.cameraErrorBusy(count: holders.count, path: path, holders: names)
        case .unsupportedFormat(let path, let offered, let asked):
            let list = offered.isEmpty ? Words.text(.cameraErrorNoFormats) : offered.joined(separator: ", ")
            if let asked { return Words.cameraErrorFormatNotOffered(path: path, format: asked, formats: list) }
            return Words.cameraErrorUnsupported(path: path, formats: list)
        case .rawBayerOnly(let camera):
            return Words.cameraErrorRawBayerOnly(driver: camera.driver, nodes: camera.nodeSpan)
        case .disconnected(let path):
            return Words.cameraErrorDisconnected(path: path)
        case .stalled(let path, let seconds):
            return Words.cameraErrorStalled(path: path, seconds: CameraError.formatSeconds(seconds))
        case .noBandwidth(let path):
            return Words.cameraErrorNoBandwidth(path: path)
        case .ioError(let path, let attempts):
            return Words.cameraErrorIO(count: attempts, path: path)
        case .system(let path, let operation, let code):
            return Words.cameraErrorSystem(path: path, operation: operation, reason: Errno(code).description)
        case .closed(let path):
            return Words.cameraErrorClosed(path: path)
        }
    }

    /// "5" for whole seconds, "2.5" otherwise.
    static func formatSeconds(_ seconds: Double) -> String {
        seconds == seconds.rounded() ? String(Int(seconds)) : String(seconds)
    }
}

/// Who may open a device node, and who the current user is: what a permission error must show.
public struct DeviceAccess: Hashable, Sendable {
    public var owner: String?
    public var group: String?
    /// `ls -l` style, e.g. "crw-rw----".
    public var mode: String?
    public var userGroups: [String]
    /// The group database lists the user in the device's group, but this process does not have it yet:
    /// the login session started before the user was added.
    public var membershipPending: Bool

    public init(owner: String?, group: String?, mode: String?, userGroups: [String], membershipPending: Bool = false) {
        self.owner = owner
        self.group = group
        self.mode = mode
        self.userGroups = userGroups
        self.membershipPending = membershipPending
    }

    /// "owner root, group video, mode crw-rw----; you are in: alice, sudo".
    public var summary: String {
        var parts: [String] = []
        if let owner, let group, let mode {
            parts.append(Words.accessOwner(owner: owner, group: group, mode: mode))
        }
        let groups = userGroups.isEmpty ? Words.text(.accessNoGroups) : Words.list(userGroups)
        parts.append(Words.accessYouAreIn(groups: groups))
        return Words.clauses(parts)
    }

    /// The group the fix adds the user to: the device's, unless that is root (then "video").
    public var fixGroup: String { group.flatMap { $0 == "root" ? nil : $0 } ?? "video" }
}

/// A process that has a device open, found in /proc/PID/fd.
public struct DeviceHolder: Hashable, Sendable {
    public var pid: Int
    public var command: String

    public init(pid: Int, command: String) {
        self.pid = pid
        self.command = command
    }
}

/// A MIPI camera as V4L2 shows it without libcamera: capture nodes that give raw Bayer data only.
public struct RawBayerCamera: Hashable, Sendable {
    /// The hardware's driver (sysfs), else the V4L2 one: "intel_ipu6_isys", "ipu7", "qcom-camss"…
    public var driver: String
    /// The first raw node's V4L2 name, e.g. "Intel IPU6 ISYS Capture 0".
    public var card: String
    /// Its raw-Bayer nodes, in number order.
    public var nodes: [String]
    /// facecap runs under libcamera's V4L2 adapter (libcamerify) and still sees these nodes: libcamera found no
    /// camera, so running libcamerify again is no fix.
    public var underLibcameraAdapter: Bool

    public init(driver: String, card: String, nodes: [String], underLibcameraAdapter: Bool = false) {
        self.driver = driver
        self.card = card
        self.nodes = nodes
        self.underLibcameraAdapter = underLibcameraAdapter
    }

    /// "/dev/video0", "/dev/video0, /dev/video1", or "/dev/video0 … /dev/video31" (an IPU6 has 32 of them).
    public var nodeSpan: String {
        guard nodes.count > 2, let first = nodes.first, let last = nodes.last else {
            return nodes.joined(separator: ", ")
        }
        return "\(first) … \(last)"
    }

    /// Intel's IPU7 (Lunar Lake on), which no libcamera release supports yet.
    public var isIPU7: Bool { driver.lowercased().contains("ipu7") || card.lowercased().contains("ipu7") }

    /// Intel's IPU6, the one Ubuntu 24.04's relay packages are for.
    public var isIPU6: Bool {
        let driver = driver.lowercased(), card = card.lowercased()
        return !isIPU7 && (driver.contains("ipu6") || driver.contains("isys") || card.contains("ipu6"))
    }

    /// What the camera is and what can be done about it on each distribution where that applies to its driver, in the
    /// person's language; lines starting "$ " are commands. The screen, `--plain` and `facecap devices` say these
    /// same lines.
    public var advice: [String] {
        var lines = [Words.mipiWhat(nodes: nodeSpan, driver: driver, card: card)]
        // IPU7: no distribution's libcamera can help, so no commands that would not.
        if isIPU7 { return lines + [Words.text(.mipiIPU7)] }
        if underLibcameraAdapter {
            // libcamerify is already there: what libcamera itself finds is the next thing to look at.
            lines += [Words.text(.mipiUnderAdapter), "$ cam -l"]
        } else {
            // Two install commands, so that each fits a 60-column screen whole (libcamera-ipa holds the software
            // ISP's module, which neither of the others pulls in).
            lines += [
                Words.text(.mipiDebian12), Words.text(.mipiDebian13),
                "$ sudo apt install libcamera-tools libcamera-v4l2", "$ sudo apt install libcamera-ipa",
                "$ libcamerify facecap",
            ]
        }
        if isIPU6 { lines.append(Words.text(.mipiUbuntu2404)) }
        return lines
    }
}
