import FaceCapCore

#if canImport(Glibc)
import Glibc
#endif

/// Small POSIX helpers of the camera code, in one namespace so they cannot clash with other parts of FaceCapIO.
enum CameraSupport {
    static func directoryEntries(_ path: String) -> [String] {
        guard let directory = opendir(path) else { return [] }
        defer { closedir(directory) }
        var names: [String] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { bytes in
                String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }

    /// The first 256 bytes of a sysfs or /proc file (a driver's name, a device's index), or nil when it is empty
    /// or cannot be read.
    static func readSmallFile(_ path: String) -> String? {
        guard case .success(let fd) = POSIX.retryingInterrupts({ open(path, O_RDONLY | O_CLOEXEC) }) else { return nil }
        defer { Glibc.close(fd) }
        var buffer = [UInt8](repeating: 0, count: 256)
        guard case .success(let count) = buffer.withUnsafeMutableBytes({ POSIX.readFully(fd, into: $0) }), count > 0
        else { return nil }
        return String(decoding: buffer[..<count], as: UTF8.self)
    }

    static func userName(_ uid: uid_t) -> String? {
        guard let entry = getpwuid(uid), let name = entry.pointee.pw_name else { return nil }
        return String(cString: name)
    }

    static func groupName(_ gid: gid_t) -> String? {
        guard let entry = getgrgid(gid), let name = entry.pointee.gr_name else { return nil }
        return String(cString: name)
    }

    static func currentUserGroups() -> [String] {
        let count = getgroups(0, nil)
        var ids = [gid_t](repeating: 0, count: Int(max(count, 0)))
        if count > 0 { _ = getgroups(count, &ids) }
        var names: [String] = []
        for id in [getgid()] + ids {
            let name = groupName(id) ?? String(id)
            if !names.contains(name) { names.append(name) }
        }
        return names
    }

    static func modeString(_ mode: mode_t) -> String {
        let kind: Character
        switch mode & S_IFMT {
        case S_IFCHR: kind = "c"
        case S_IFBLK: kind = "b"
        case S_IFDIR: kind = "d"
        case S_IFLNK: kind = "l"
        default: kind = "-"
        }
        let letters: [Character] = ["r", "w", "x"]
        var text = String(kind)
        for bit in 0..<9 {
            text.append(mode & (mode_t(1) << mode_t(8 - bit)) != 0 ? letters[bit % 3] : "-")
        }
        return text
    }

    /// `text` without leading and trailing whitespace (Foundation-free, for /proc text).
    static func trimmedWhitespace(_ text: String) -> String {
        var rest = Substring(text)
        while let first = rest.first, first.isWhitespace { rest = rest.dropFirst() }
        while let last = rest.last, last.isWhitespace { rest = rest.dropLast() }
        return String(rest)
    }

    /// Whether /etc/group (or NSS) names the calling user as a member of `group`.
    static func groupListsCurrentUser(_ group: String) -> Bool {
        guard let user = userName(getuid()), let entry = getgrnam(group) else { return false }
        var member = entry.pointee.gr_mem
        while let name = member?.pointee {
            if String(cString: name) == user { return true }
            member = member?.advanced(by: 1)
        }
        return false
    }

    /// "YUYV" from its little-endian code; trailing spaces trimmed.
    static func fourccString(_ code: UInt32) -> String {
        let bytes = (0..<4).map { UInt8(truncatingIfNeeded: code >> (8 * $0)) }
        let text = String(decoding: bytes.map { (32...126).contains($0) ? $0 : UInt8(ascii: "?") }, as: UTF8.self)
        return trimmedWhitespace(text)
    }

    /// The little-endian code of a four-character format ("YUYV"; shorter names padded with spaces, as "Y10 ").
    static func fourccCode(_ text: String) -> UInt32 {
        let bytes = Array(text.utf8.prefix(4)) + Array(repeating: UInt8(ascii: " "), count: max(0, 4 - text.utf8.count))
        return bytes.enumerated().reduce(0) { $0 | UInt32($1.element) << (8 * UInt32($1.offset)) }
    }

    /// A NUL-terminated string stored in a fixed-size C array (imported as a tuple).
    static func cString<T>(_ tuple: T) -> String {
        withUnsafeBytes(of: tuple) { bytes in String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self) }
    }
}
