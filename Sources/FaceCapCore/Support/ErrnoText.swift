#if canImport(Glibc)
import Glibc
#endif

/// The C library's sentence for an `errno` value ("Permission denied"): what a message shows instead of
/// a bare number. The one strerror call of the package.
package func errnoText(_ code: Int32) -> String {
    guard let text = strerror(code) else { return "error \(code)" }
    return String(cString: text)
}
