// swift-format-ignore-file
// Generated from MessageID+Server.swift by TypedWordsTests (FACECAP_WRITE_WORDS=1): do not edit.

/// The typed constructors of the messages of MessageID+Server.swift that have placeholders: an argument
/// for each, so a missing or misspelt one fails to compile.
extension Words {
    /// --server URL has no valid port: '{url}' (a port is a number from 1 to 65535)
    public static func usageServerPort(url: String) -> String { Self.text(.usageServerPort, ["url": url]) }

    /// Asking {server} whether it takes photos…
    public static func serverCheckingPrimary(server: String) -> String {
        Self.text(.serverCheckingPrimary, ["server": server])
    }

    /// The server answered HTTP {status}.
    public static func serverCheckAnswered(status: String) -> String {
        Self.text(.serverCheckAnswered, ["status": status])
    }

    /// Check the address given with --server ({server}), then start facecap again.
    public static func serverCheckFixAddress(server: String) -> String {
        Self.text(.serverCheckFixAddress, ["server": server])
    }

    /// Checking again in {seconds} s
    public static func countdownCheckingAgainIn(seconds: String) -> String {
        Self.text(.countdownCheckingAgainIn, ["seconds": seconds])
    }

    /// the server was checked before the camera opened: {problem}
    public static func reportServerCheck(problem: String) -> String {
        Self.text(.reportServerCheck, ["problem": problem])
    }

    /// the server answered HTTP {status}
    public static func reportServerAnswered(status: String) -> String {
        Self.text(.reportServerAnswered, ["status": status])
    }

    /// Device: {path} (owner {owner}, group {group}, mode {mode})
    public static func cameraDeviceOwned(path: String, owner: String, group: String, mode: String) -> String {
        Self.text(.cameraDeviceOwned, ["path": path, "owner": owner, "group": group, "mode": mode])
    }

    /// Over SSH or in a container, pass the camera through (e.g. docker run --device {path}); also check the camera's
    /// privacy switch or shutter.
    public static func cameraElsewhere(path: String) -> String { Self.text(.cameraElsewhere, ["path": path]) }

    /// No video-capture device in {directory}: connect a webcam (check `ls /dev/video*`) or pass one through to this VM
    /// or container.
    public static func cameraNoneDetail(directory: String) -> String {
        Self.text(.cameraNoneDetail, ["directory": directory])
    }

    /// {camera} (tried last)
    public static func pickerCurrent(camera: String) -> String { Self.text(.pickerCurrent, ["camera": camera]) }

    /// No other camera was found: {path} is the only one. Connect another and press r.
    public static func pickerNoOther(path: String) -> String { Self.text(.pickerNoOther, ["path": path]) }
}
