internal import CSignals
internal import CV4L2
import FaceCapCore

#if canImport(Glibc)
import Glibc
#endif

/// Signals as data for the wizard's `poll()` loop: SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGWINCH, SIGTSTP and
/// SIGCONT each arrive as one byte on `descriptor`; the loop drains them and decides what to do (stop, resize,
/// restore the terminal and suspend, redraw). The handlers themselves only record (CSignals).
public enum Signals {
    /// Installs the handlers for all seven signals (without SA_RESTART, so a blocking call returns EINTR)
    /// and ignores SIGPIPE (a closed reader is an EPIPE to handle)
    /// and creates the self-pipe on first use. Without a pipe (out of descriptors) `descriptor` stays -1
    /// and only `StopSignals.received` reports stop requests.
    public static func install() {
        _ = csignals_install_all()
    }

    /// The self-pipe's read end to poll for POLLIN (non-blocking, close-on-exec); -1 before `install`.
    public static var descriptor: Int32 { csignals_fd() }

    /// The signals that arrived since the last drain, in order (a signal repeated while the pipe was
    /// full may appear fewer times than it was sent). Never blocks.
    public static func drain() -> [Int32] {
        let fd = descriptor
        guard fd >= 0 else { return [] }
        var numbers: [Int32] = []
        var buffer = [UInt8](repeating: 0, count: 64)
        // Until EAGAIN: the pipe is empty.
        while case .success(let count) = buffer.withUnsafeMutableBytes({ bytes in
            POSIX.retryingInterrupts { read(fd, bytes.baseAddress, bytes.count) }
        }), count > 0 {
            numbers += buffer[..<count].map { Int32($0) }
        }
        return numbers
    }

    /// Suspends the process as Ctrl-Z would (SIGTSTP with its default action) and returns once it is
    /// continued, handling SIGTSTP again. Restore the terminal before calling; redraw after.
    public static func suspendSelf() {
        csignals_suspend_self()
    }

    /// Puts all seven signals and SIGPIPE back to their default actions (before exiting or exec'ing another program).
    public static func restoreDefaults() {
        csignals_restore_defaults()
    }
}

/// SIGINT, SIGTERM, SIGHUP and SIGQUIT as a flag: a capture loop checks it between frames, so the camera is
/// released and the clip closed on whole frames, instead of the process dying mid-write.
public enum StopSignals {
    /// Installs the stop handlers only (SIGTSTP keeps its default, so Ctrl-Z still suspends `record`)
    /// and clears the flag.
    public static func install() {
        csignals_reset_stop_signal()
        _ = csignals_install_stop()
    }

    /// The first signal that asked to stop (SIGINT, SIGTERM, SIGHUP or SIGQUIT) since the last reset, or 0.
    public static var received: Int32 { csignals_stop_signal() }

    /// Clears the flag.
    public static func reset() { csignals_reset_stop_signal() }
}

/// A crash of the flow (a Swift trap, SIGSEGV, SIGBUS, SIGFPE, SIGABRT, in any thread) still leaves the camera as it
/// was found: the handler writes back the controls facecap changed (the shim's copy of the ledger,
/// `cv4l2_restore_saved_controls`: raw ioctl calls, each control read first and left alone where another program
/// changed it), puts back the terminal, lets the Swift runtime's backtracer report, and ends by the same signal.
public enum FatalSignals {
    /// Installs the handlers (once per run is enough; again is harmless).
    public static func install() {
        _ = csignals_install_fatal { _ = cv4l2_restore_saved_controls(nil, 0) }
    }

    /// The full screen is about to start on `fd`: its settings now are the ones a crash puts back. Nil once the full
    /// screen ended by itself.
    public static func keepTerminal(_ fd: Int32?) {
        csignals_fatal_terminal(fd ?? -1)
    }
}
