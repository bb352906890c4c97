import FaceCapCore

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
            return "no camera found: no video-capture device in \(directory) — connect a webcam (check"
                + " `ls /dev/video*`), pass one through to this VM or container, or replay a clip with --input FILE.y4m"
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
            return "camera stalled: no frame from \(path) for \(CameraSupport.formatSeconds(seconds)) s — check the"
                + " privacy shutter or switch, then reconnect the camera and try again"
        case .noBandwidth(let path):
            return "\(path) cannot stream at this size and frame rate: not enough USB bandwidth — try a smaller --size"
                + " or --fps, or plug the camera (or other USB devices) into another port"
        case .ioError(let path, let attempts):
            return "camera error: \(path) failed to deliver a frame (I/O error \(attempts) times in a row) — reconnect"
                + " the camera and try again"
        case .system(let path, let operation, let code):
            return "camera error on \(path): \(operation) failed: \(CameraSupport.errorText(code)) — reconnect the"
                + " camera or try another one (see 'facecap devices')"
        case .closed(let path):
            return "camera \(path) was already closed — open it again"
        }
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

    /// Looks up the node's owner, group and mode (stat) and the calling user's groups.
    public static func inspect(_ path: String) -> DeviceAccess {
        var info = stat()
        var access = DeviceAccess(owner: nil, group: nil, mode: nil, userGroups: CameraSupport.currentUserGroups())
        if stat(path, &info) == 0 {
            access.owner = CameraSupport.userName(info.st_uid) ?? String(info.st_uid)
            access.group = CameraSupport.groupName(info.st_gid) ?? String(info.st_gid)
            access.mode = CameraSupport.modeString(info.st_mode)
            if let group = access.group, group != "root", !access.userGroups.contains(group) {
                access.membershipPending = CameraSupport.groupListsCurrentUser(group)
            }
        }
        return access
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

    /// Processes other than this one that hold `path` open, found by reading the /proc/PID/fd links
    /// under `procRoot`. Processes this user may not inspect are skipped.
    public static func find(path: String, procRoot: String = "/proc") -> [DeviceHolder] {
        var targets: Set<String> = [path]
        if let resolved = realpath(path, nil) {
            targets.insert(String(cString: resolved))
            free(resolved)
        }
        let ownPid = Int(getpid())
        var holders: [DeviceHolder] = []
        for entry in CameraSupport.directoryEntries(procRoot) {
            guard let pid = Int(entry), pid > 0, pid != ownPid else { continue }
            let fdDirectory = "\(procRoot)/\(entry)/fd"
            let holds = CameraSupport.directoryEntries(fdDirectory).contains { fd in
                CameraSupport.readLink("\(fdDirectory)/\(fd)").map { targets.contains($0) } ?? false
            }
            if holds {
                let command = CameraSupport.readSmallFile("\(procRoot)/\(entry)/comm")
                    .map(CameraSupport.trimmedWhitespace) ?? "?"
                holders.append(DeviceHolder(pid: pid, command: command.isEmpty ? "?" : command))
            }
        }
        return holders.sorted { $0.pid < $1.pid }
    }
}

