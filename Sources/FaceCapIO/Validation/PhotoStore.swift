import FaceCapCore

#if canImport(Glibc)
import Glibc
#endif

/// Saves the kept photo and its report side by side (SPEC §7): `facecap-YYYYMMDD-HHMMSS.jpg` and `.json`
/// of the same stem in the output directory, local time, `-2`, `-3`… when that stem is taken.
///
/// Both files are written atomically (`AtomicFile`: temporary file in the same directory, fsync of the
/// file and the directory, then link/rename), mode 0600, never over an existing file. The directory
/// (and any missing parent) is created 0700; an existing one is used as it is. Nothing else is written:
/// a failure leaves neither a partial file, a temporary file nor half a pair, and is an
/// `OutputFileError` whose message says what to do. The caller keeps the photo in memory and can save
/// again once the person has fixed the cause.
public struct PhotoStore: Sendable {
    public let directory: String

    public init(directory: String) {
        self.directory = directory
    }

    /// Creates the directory and its missing parents, each 0700.
    public func prepare() throws(OutputFileError) {
        var path = directory.hasPrefix("/") ? "/" : ""
        for component in directory.split(separator: "/", omittingEmptySubsequences: true) {
            path += (path.isEmpty || path.hasSuffix("/") ? "" : "/") + component
            if mkdir(path, 0o700) == 0 {
                // The umask could have narrowed 0700 (never widened it): a folder facecap made is exactly 0700.
                _ = chmod(path, 0o700)
                continue
            }
            let code = errno
            var info = stat()
            guard stat(path, &info) == 0 else {
                throw OutputFileError(path: path, problem: OutputFileError.problem(errno: code))
            }
            guard (info.st_mode & S_IFMT) == S_IFDIR else { throw OutputFileError(path: path, problem: .notADirectory) }
        }
        try checkWritable()
    }

    /// Creates and removes an empty file in the folder: the only test that also holds for root (whom permission
    /// bits do not stop) on a read-only or special file system, so that the wizard says so before it starts.
    func checkWritable() throws(OutputFileError) {
        let probe = (directory.isEmpty ? "." : directory) + "/.facecap-write-test-\(getpid())"
        let fd = open(probe, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard fd >= 0 else {
            let code = errno
            throw OutputFileError(
                path: directory,
                problem: code == ENOENT
                    ? .system(Words.text(.outputCannotCreate))
                    : OutputFileError.problem(errno: code))
        }
        _ = close(fd)
        unlink(probe)
    }

    /// Saves `jpeg` and `report` under the next free stem for `time` (seconds since 1970, local time);
    /// returns the flow's `SavedPhoto` (the `saved` event's paths).
    public func save(jpeg: [UInt8], report: [UInt8], time: Int = Int(Glibc.time(nil))) throws(OutputFileError)
        -> SavedPhoto
    {
        try prepare()
        let stem = directory + "/" + Self.stem(time: time)
        // Bounded: a thousand photos within one second means something else is wrong.
        for index in 1...1000 {
            let base = index == 1 ? stem : "\(stem)-\(index)"
            let saved = SavedPhoto(photoPath: base + ".jpg", reportPath: base + ".json")
            // A report without its photo (or the reverse) also takes the stem: the pair stays a pair.
            if access(saved.photoPath, F_OK) == 0 || access(saved.reportPath, F_OK) == 0 { continue }
            do {
                try AtomicFile.write(jpeg, to: saved.photoPath, replace: false)
            } catch  where error.problem == .alreadyExists {
                continue
            }
            do {
                try AtomicFile.write(report, to: saved.reportPath, replace: false)
            } catch {
                unlink(saved.photoPath)
                if error.problem == .alreadyExists { continue }
                throw error
            }
            return saved
        }
        throw OutputFileError(path: stem + ".jpg", problem: .alreadyExists)
    }

    /// Rewrites a saved report (e.g. once the verdict is known), atomically.
    public func replaceReport(of saved: SavedPhoto, with report: [UInt8]) throws(OutputFileError) {
        try AtomicFile.write(report, to: saved.reportPath)
    }

    /// `facecap-YYYYMMDD-HHMMSS` in local time.
    public static func stem(time: Int) -> String {
        let t = localTime(time)
        return "facecap-" + digits(Int(t.tm_year) + 1900, 4) + digits(Int(t.tm_mon) + 1, 2) + digits(Int(t.tm_mday), 2)
            + "-" + digits(Int(t.tm_hour), 2) + digits(Int(t.tm_min), 2) + digits(Int(t.tm_sec), 2)
    }

    /// ISO 8601 local time with its UTC offset, e.g. `2026-11-29T22:30:00+01:00` (the report's `capturedAt`).
    public static func timestamp(time: Int) -> String {
        let t = localTime(time)
        let offset = Int(t.tm_gmtoff)
        let sign = offset < 0 ? "-" : "+"
        return digits(Int(t.tm_year) + 1900, 4) + "-" + digits(Int(t.tm_mon) + 1, 2) + "-" + digits(Int(t.tm_mday), 2)
            + "T" + digits(Int(t.tm_hour), 2) + ":" + digits(Int(t.tm_min), 2) + ":" + digits(Int(t.tm_sec), 2)
            + sign + digits(abs(offset) / 3600, 2) + ":" + digits(abs(offset) % 3600 / 60, 2)
    }

    private static func localTime(_ time: Int) -> tm {
        var seconds = time_t(time)
        var result = tm()
        localtime_r(&seconds, &result)
        return result
    }

    private static func digits(_ value: Int, _ count: Int) -> String {
        let text = String(value)
        return String(repeating: "0", count: max(0, count - text.count)) + text
    }
}
