// The camera's failures as values: what went wrong and what to do about it, with no I/O. Screens
// render from these (a permission screen shows `DeviceAccess`, a busy screen the `DeviceHolder`s);
// FaceCapIO fills them in (stat, /proc) and maps a V4L2 failure to a case.

#if canImport(Glibc)
import Glibc
#endif

/// Why a camera could not be opened or stopped delivering frames; each case names the fix.
public enum CameraError: Error, UserFacingError, Equatable, Sendable {
    /// No video-capture node at all (only metadata nodes, or no /dev/video*).
    case noCamera(directory: String)
    /// The path does not exist.
    case noSuchDevice(path: String)
    /// The path exists but is not a V4L2 video-capture node (a file, /dev/null, a metadata node…).
    case notCaptureDevice(path: String, reason: String)
    /// open() failed with EACCES/EPERM; `access` says who owns the node and who the user is.
    case permissionDenied(path: String, access: DeviceAccess)
    /// EBUSY (at open, S_FMT, REQBUFS or STREAMON): another program streams from the camera.
    case busy(path: String, holders: [DeviceHolder])
    /// Neither YUYV nor libv4l2's RGB24 conversion is available; `offered` lists the camera's formats.
    case unsupportedFormat(path: String, offered: [String])
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
        case .noCamera, .noSuchDevice, .notCaptureDevice, .busy, .unsupportedFormat: return .noCamera
        case .permissionDenied: return .permissionDenied
        case .disconnected, .stalled, .noBandwidth, .ioError, .system, .closed: return .failure
        }
    }

    public var message: String {
        switch self {
        case .noCamera(let directory):
            // No hint about --input here: `devices` and `record` need a camera; the wizard adds it (CameraProblem).
            return "no camera found: no video-capture device in \(directory) — connect a webcam (check"
                + " `ls /dev/video*`) or pass one through to this VM or container"
        case .noSuchDevice(let path):
            return "no camera at \(path): no such file — run 'facecap devices' to list cameras"
        case .notCaptureDevice(let path, let reason):
            return "\(path) is not a video capture device (\(reason)) — run 'facecap devices' to list cameras"
        case .permissionDenied(let path, let access):
            let group = access.group.flatMap { $0 == "root" ? nil : $0 } ?? "video"
            if access.membershipPending {
                return "cannot open \(path): permission denied (\(access.summary)) — you were added to group '\(group)'"
                    + " after this login session started: log out and back in (or run 'newgrp \(group)')"
            }
            return "cannot open \(path): permission denied (\(access.summary)) — fix: sudo usermod -aG \(group) $USER,"
                + " then log out and back in (or run 'newgrp \(group)'); over SSH or in a container the device must be"
                + " passed through; also check the camera's privacy switch or shutter"
        case .busy(let path, let holders):
            if holders.isEmpty {
                return "\(path) is busy: another program is using the camera (none visible to this user; try"
                    + " 'sudo fuser \(path)') — close it and try again"
            }
            let names = holders.map { "\($0.command) (pid \($0.pid))" }.joined(separator: ", ")
            return "\(path) is busy: in use by \(names) — close \(holders.count == 1 ? "it" : "them") and try again"
        case .unsupportedFormat(let path, let offered):
            let list = offered.isEmpty ? "no formats" : offered.joined(separator: ", ")
            return "\(path) offers no picture format facecap can read (it offers \(list); facecap needs YUYV or"
                + " libv4l2's RGB24 conversion) — try another camera"
        case .disconnected(let path):
            return "camera disconnected: \(path) stopped answering (unplugged?) — reconnect it and try again"
        case .stalled(let path, let seconds):
            return "camera stalled: no frame from \(path) for \(CameraError.formatSeconds(seconds)) s — check the"
                + " privacy shutter or switch, then reconnect the camera and try again"
        case .noBandwidth(let path):
            return "\(path) cannot stream at this size and frame rate: not enough USB bandwidth — try a smaller --size"
                + " or --fps, or plug the camera (or other USB devices) into another port"
        case .ioError(let path, let attempts):
            return "camera error: \(path) failed to deliver a frame (I/O error \(attempts) times in a row) — reconnect"
                + " the camera and try again"
        case .system(let path, let operation, let code):
            return "camera error on \(path): \(operation) failed: \(errnoText(code)) — reconnect the"
                + " camera or try another one (see 'facecap devices')"
        case .closed(let path):
            return "camera \(path) was already closed — open it again"
        }
    }

    /// "5" for whole seconds, "2.5" otherwise.
    static func formatSeconds(_ seconds: Double) -> String {
        seconds == seconds.rounded() ? String(Int(seconds)) : String(seconds)
    }
}

/// Who may open a device node, and who the current user is: what a permission error must show.
public struct DeviceAccess: Equatable, Sendable {
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
            parts.append("owner \(owner), group \(group), mode \(mode)")
        }
        parts.append("you are in: " + (userGroups.isEmpty ? "no groups" : userGroups.joined(separator: ", ")))
        return parts.joined(separator: "; ")
    }
}

/// A process that has a device open, found in /proc/PID/fd.
public struct DeviceHolder: Equatable, Sendable {
    public var pid: Int
    public var command: String

    public init(pid: Int, command: String) {
        self.pid = pid
        self.command = command
    }
}
