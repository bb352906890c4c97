import FaceCapCore

#if canImport(Glibc)
import Glibc
#endif

// The I/O halves of the camera error values in FaceCapCore: who owns a node (stat) and who holds it
// open (/proc).

extension DeviceAccess {
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
}

extension DeviceHolder {
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
                POSIX.readLink("\(fdDirectory)/\(fd)").map { targets.contains($0) } ?? false
            }
            if holds {
                let command =
                    CameraSupport.readSmallFile("\(procRoot)/\(entry)/comm")
                    .map(CameraSupport.trimmedWhitespace) ?? "?"
                holders.append(DeviceHolder(pid: pid, command: command.isEmpty ? "?" : command))
            }
        }
        return holders.sorted { $0.pid < $1.pid }
    }
}
