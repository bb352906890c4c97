#if canImport(Glibc)
import Glibc
#endif

/// The process environment, read with getenv (no Foundation needed).
public enum Environment {
    /// The variables among `names` that are set.
    public static func values(_ names: [String]) -> [String: String] {
        var values: [String: String] = [:]
        for name in names {
            if let value = getenv(name) { values[name] = String(cString: value) }
        }
        return values
    }

    /// What the wizard reads: language and colour preferences, the terminal type, the upload token, the
    /// model folder, where the camera chosen last is remembered (`CameraMemory`), and the terminal probe's wait for
    /// tests (`FACECAP_TEST_PROBE_TIMEOUT`, docs/testing.md).
    public static let wizardNames = [
        "LANG", "LANGUAGE", "LC_ALL", "LC_MESSAGES", "LC_CTYPE", "NO_COLOR", "TERM",
        "COLORTERM", "FACECAP_TOKEN", "FACECAP_MODEL_DIR", "XDG_STATE_HOME", "HOME",
        "FACECAP_TEST_PROBE_TIMEOUT",
    ]
}
