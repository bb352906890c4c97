import FaceCapCore

#if canImport(Glibc)
import Glibc
#endif

/// The program's version, shown by --version.
let facecapVersion = "0.1.0"

/// Writes one line to stderr prefixed with the program name.
func printError(_ message: String) {
    fputs("facecap: \(message)\n", stderr)
}

/// Writes text to stdout and flushes, so pipes see each line as it happens.
func printOut(_ text: String) {
    fputs(text + "\n", stdout)
    fflush(stdout)
}
