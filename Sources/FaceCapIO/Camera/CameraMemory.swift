import FaceCapCore

#if canImport(Glibc)
import Glibc
#endif

/// The camera the person chose last with key d, remembered by its stable name under /dev/v4l (by-id, which
/// follows the camera from port to port; by-path for a camera without one), so the next run opens it although
/// /dev/videoN numbers change from boot to boot. Kept in one line of `file` (mode 0600 in a 0700 folder; a
/// device's name, nothing of a face).
public struct CameraMemory: Sendable {
    /// Where the name is kept.
    public var file: String
    /// The folders of stable names, most stable first.
    public var linkDirectories: [String]

    public init(file: String, linkDirectories: [String] = ["/dev/v4l/by-id", "/dev/v4l/by-path"]) {
        self.file = file
        self.linkDirectories = linkDirectories
    }

    /// `$XDG_STATE_HOME/facecap/camera`, or `~/.local/state/facecap/camera`; nil without either variable.
    public static func standard(environment: [String: String]) -> CameraMemory? {
        if let state = environment["XDG_STATE_HOME"], state.hasPrefix("/") {
            return CameraMemory(file: state + "/facecap/camera")
        }
        guard let home = environment["HOME"], home.hasPrefix("/") else { return nil }
        return CameraMemory(file: home + "/.local/state/facecap/camera")
    }

    /// The node the remembered camera is now (its stable name resolved), or nil: nothing remembered, or that
    /// camera is not plugged in.
    public func remembered() -> String? {
        guard let text = CameraSupport.readSmallFile(file) else { return nil }
        let name = CameraSupport.trimmedWhitespace(text)
        // "by-id/usb-…-video-index0": a folder of linkDirectories and a name, nothing that leaves it.
        guard let slash = name.firstIndex(of: "/"), !name.contains(".."), name.filter({ $0 == "/" }).count == 1,
            !name.hasSuffix("/"),
            let folder = linkDirectories.first(where: { $0.hasSuffix("/" + name[..<slash]) })
        else { return nil }
        return Self.resolve(folder + "/" + name[name.index(after: slash)...])
    }

    /// Which of `devices` the remembered camera is (matched by the node both resolve to), or nil.
    public func remembered(among devices: [CameraDevice]) -> String? {
        guard let node = remembered() else { return nil }
        return devices.first { Self.resolve($0.path) == node }?.path
    }

    /// Remembers the camera at `path` by its stable name; a node without one (no /dev/v4l link) forgets the
    /// last choice instead, so an old name never wins over the one the person just made. Failing to write is
    /// not an error a person needs to see: the camera is still used, and the next run ranks again.
    public func remember(path: String) {
        guard let target = Self.resolve(path) else { return }
        for folder in linkDirectories {
            for entry in CameraSupport.directoryEntries(folder).sorted()
            where Self.resolve(folder + "/" + entry) == target {
                let short = folder.split(separator: "/").last.map(String.init) ?? folder
                write(short + "/" + entry + "\n")
                return
            }
        }
        _ = unlink(file)
    }

    private func write(_ text: String) {
        guard let slash = file.lastIndex(of: "/"), slash != file.startIndex else { return }
        let folder = String(file[..<slash])
        // The folders missing on the way are made 0700 (as the XDG specification asks of the state home).
        var partial = ""
        for component in folder.split(separator: "/") {
            partial += "/" + component
            if mkdir(partial, 0o700) != 0 && errno != EEXIST { return }
        }
        try? AtomicFile.write(Array(text.utf8), to: file, mode: 0o600)
    }

    static func resolve(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}
