import Foundation
import XCTest

/// A real terminal for the full-screen wizard: a tmux server on its own socket, one pane of a given size
/// running a shell command, read with capture-pane and typed into with send-keys.
final class TmuxSession {
    let socket = "facecap-test-\(UUID().uuidString.prefix(8))"
    let name = "wizard"

    /// Starts `command` (run by sh) in a `columns`×`rows` pane.
    init(_ command: String, columns: Int = 100, rows: Int = 32) throws {
        try tmux(["new-session", "-d", "-s", name, "-x", String(columns), "-y", String(rows), command])
        // Keep the pane after the command ends, so its last screen and exit can still be read.
        try tmux(["set-option", "-t", name, "remain-on-exit", "on"])
    }

    deinit { _ = try? tmux(["kill-server"]) }

    /// Runs a tmux command and returns what it printed. Output goes through a file, not a pipe: the server
    /// that `new-session` starts inherits the descriptor and would hold a pipe open for as long as it runs.
    /// Started with posix_spawn and reaped with waitpid on its own pid: Foundation's Process lost the exit of
    /// the tmux client whose server had just daemonised, and waited for ever.
    @discardableResult
    func tmux(_ arguments: [String]) throws -> String {
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("tmux-\(UUID().uuidString)").path
        defer { unlink(output) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, output, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        let argv = ["tmux", "-u", "-L", socket, "-f", "/dev/null"] + arguments
        var cArguments: [UnsafeMutablePointer<CChar>?] = argv.map { strdup($0) } + [nil]
        defer { for pointer in cArguments { free(pointer) } }
        var pid: pid_t = 0
        let spawned = posix_spawnp(&pid, "tmux", &actions, nil, &cArguments, environ)
        guard spawned == 0 else {
            throw NSError(
                domain: "TmuxSession", code: Int(spawned),
                userInfo: [NSLocalizedDescriptionKey: "cannot start tmux: \(String(cString: strerror(spawned)))"])
        }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        return (try? String(contentsOfFile: output, encoding: .utf8)) ?? ""
    }

    /// The pane's text now (`colours`: with SGR escape sequences).
    func screen(colours: Bool = false) -> String {
        (try? tmux(["capture-pane", "-p", "-t", name] + (colours ? ["-e"] : []))) ?? ""
    }

    /// The pane's words in reading order, whitespace (line ends included) collapsed to single spaces: for
    /// phrases that may wrap.
    var text: String { screen().split(whereSeparator: { $0 == " " || $0 == "\n" }).joined(separator: " ") }

    /// Waits until `text` is on the screen. The time-out only bounds a hang: a loaded machine plays a clip slower
    /// than real time, and a test must not fail for that.
    @discardableResult
    func waitFor(_ text: String, timeout: TimeInterval = 120) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if screen().contains(text) { return true }
            Thread.sleep(forTimeInterval: 0.1)
        }
        return false
    }

    func send(_ keys: String...) { _ = try? tmux(["send-keys", "-t", name] + keys) }

    func resize(columns: Int, rows: Int) {
        _ = try? tmux(["resize-window", "-t", name, "-x", String(columns), "-y", String(rows)])
    }

    /// Whether the pane is in the alternate screen (a full-screen program that did not restore it).
    var alternateScreen: Bool {
        ((try? tmux(["display-message", "-p", "-t", name, "#{alternate_on}"])) ?? "").hasPrefix("1")
    }

    /// The exit status of the pane's command once it ended, or nil on timeout.
    func exitStatus(timeout: TimeInterval = 120) -> Int? {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            let text = (try? tmux(["display-message", "-p", "-t", name, "#{pane_dead} #{pane_dead_status}"])) ?? ""
            let parts = text.split(separator: " ")
            if parts.first == "1", parts.count > 1,
                let status = Int(parts[1].trimmingCharacters(in: .whitespacesAndNewlines))
            {
                return status
            }
            Thread.sleep(forTimeInterval: 0.1)
        }
        return nil
    }
}
