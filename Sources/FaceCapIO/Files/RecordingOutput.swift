#if canImport(Glibc)
import Glibc
#endif

/// Where `facecap record` writes while it records, and how the clip takes its final name.
///
/// Frames go to a hidden file beside the output that replaces it only once it holds a frame, so a
/// recording that gets nothing (or fails at once) leaves an existing file of that name as it was.
public enum RecordingOutput {
    /// ".NAME.partial" in the output's directory, so the final rename stays on one file system.
    public static func partialPath(for output: String) -> String {
        guard let slash = output.lastIndex(of: "/") else { return ".\(output).partial" }
        return output[...slash] + "." + output[output.index(after: slash)...] + ".partial"
    }

    /// Renames the finished recording onto `output` when `keep`, or removes it.
    public static func publish(_ partial: String, as output: String, keep: Bool) throws(OutputFileError) {
        guard keep else {
            unlink(partial)  // a header without frames is no use to anyone
            return
        }
        if rename(partial, output) != 0 {
            let code = errno
            unlink(partial)
            throw OutputFileError(path: output, problem: OutputFileError.problem(errno: code))
        }
    }
}
