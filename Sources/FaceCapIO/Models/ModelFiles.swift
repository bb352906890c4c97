import FaceCapCore

#if canImport(Glibc)
import Glibc
#endif

/// Finds and loads the face models that `make models` fetched and verified.
///
/// Search order: `$FACECAP_MODEL_DIR` alone when it is set (an explicit choice never falls back elsewhere, and
/// a folder that does not exist is an error that names it); otherwise `<binary dir>/../share/facecap/models`
/// (where `make install` and the .deb put them), then `<binary dir>/../../models` and
/// `<binary dir>/../../../models` (the build tree: `.build/release/facecap`, symlink resolved or not), then
/// `./models`. Paths are shown with `..` resolved.
public enum ModelFiles {
    /// The BlazeFace short-range detector file name.
    public static let detector = "face_detection_short_range.tflite"
    /// The FaceMesh landmark model file name.
    public static let landmarks = "face_landmark.tflite"
    /// The MediaPipe iris landmark model file name (eye contour, brows and iris per eye).
    public static let iris = "iris_landmark.tflite"
    /// The MediaPipe hand landmark model file name (its hand flag tells a hand over the mouth).
    public static let hand = "hand_landmark_full.tflite"
    /// The MediaPipe palm detector file name (palms anywhere on the face, issue 32).
    public static let palm = "palm_detection_full.tflite"

    /// Directories searched, in order (`environment` and `executablePath` are injectable for tests).
    public static func searchDirectories(
        environment: [String: String] = currentEnvironment(),
        executablePath: String? = currentExecutablePath()
    ) -> [String] {
        if let dir = environment["FACECAP_MODEL_DIR"], !dir.isEmpty { return [dir] }
        var directories: [String] = []
        if let executablePath, let slash = executablePath.lastIndex(of: "/") {
            let binDir = String(executablePath[..<slash])
            directories.append(binDir + "/../share/facecap/models")
            directories.append(binDir + "/../../models")
            // /proc/self/exe resolves .build/release to .build/<target triple>/release.
            directories.append(binDir + "/../../../models")
        }
        directories.append("./models")
        var unique: [String] = []
        for directory in directories.map(lexicallyNormalised) where !unique.contains(directory) {
            unique.append(directory)
        }
        return unique
    }

    /// Path of model `file`, or a `ModelError` that lists where it looked and how to point facecap at the models.
    /// A `FACECAP_MODEL_DIR` (in `environment`) that is not a folder is an error before anything is searched.
    public static func locate(
        _ file: String, directories: [String] = searchDirectories(),
        environment: [String: String] = currentEnvironment()
    ) throws(ModelError) -> String {
        if let dir = environment["FACECAP_MODEL_DIR"], !dir.isEmpty, !isDirectory(dir) {
            throw ModelError(
                file: Words.modelFolder(path: dir), problem: Words.text(.modelFolderMissing),
                advice: Words.text(.modelFolderAdvice))
        }
        for directory in directories {
            let path = directory + "/" + file
            if access(path, R_OK) == 0 { return path }
        }
        throw ModelError(missing: file, searched: directories)
    }

    static func isDirectory(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
    }

    /// `path` with `.` and `..` components resolved as text ("/usr/bin/../share" is "/usr/share"; nothing goes
    /// above "/"), for the list a person reads.
    static func lexicallyNormalised(_ path: String) -> String {
        let absolute = path.hasPrefix("/")
        var parts: [Substring] = []
        for part in path.split(separator: "/") {
            if part == "." { continue }
            if part == "..", let last = parts.last, last != ".." {
                parts.removeLast()
            } else if part == "..", absolute {
                continue
            } else {
                parts.append(part)
            }
        }
        let joined = parts.joined(separator: "/")
        return absolute ? "/" + joined : (joined.isEmpty ? "." : "./" + joined)
    }

    /// Reads and parses a model file.
    public static func load(path: String) throws(ModelError) -> TFLiteModel {
        return try TFLiteModel(bytes: try readWholeFile(path), name: path)
    }

    /// Locates, reads and parses model `file`.
    public static func load(_ file: String, directories: [String] = searchDirectories()) throws(ModelError)
        -> TFLiteModel
    {
        try load(path: try locate(file, directories: directories))
    }

    /// The detector and landmark models, ready for `FaceTracker`.
    public static func loadFaceModels(directories: [String] = searchDirectories()) throws(ModelError)
        -> (detector: TFLiteModel, landmarks: TFLiteModel)
    {
        (try load(detector, directories: directories), try load(landmarks, directories: directories))
    }

    /// The detector, landmark, iris, hand and palm models, ready for `FaceTracker(detector:landmarks:iris:hand:palm:)`.
    public static func loadAllFaceModels(directories: [String] = searchDirectories()) throws(ModelError)
        -> (detector: TFLiteModel, landmarks: TFLiteModel, iris: TFLiteModel, hand: TFLiteModel, palm: TFLiteModel)
    {
        let (detector, landmarks) = try loadFaceModels(directories: directories)
        return (
            detector, landmarks, try load(iris, directories: directories),
            try load(hand, directories: directories), try load(palm, directories: directories)
        )
    }

    /// The part of the process environment model lookup reads.
    public static func currentEnvironment() -> [String: String] {
        var result: [String: String] = [:]
        if let value = getenv("FACECAP_MODEL_DIR") { result["FACECAP_MODEL_DIR"] = String(cString: value) }
        return result
    }

    /// This executable's path (from /proc/self/exe), or nil when it cannot be read.
    public static func currentExecutablePath() -> String? {
        POSIX.readLink("/proc/self/exe")
    }

    /// Larger than any face model by far: a file this big is something else, not read to the end.
    static let maxModelBytes = 64 << 20

    private static func readWholeFile(_ path: String) throws(ModelError) -> [UInt8] {
        func unreadable(_ error: Errno) -> ModelError {
            ModelError(file: path, problem: Words.modelUnreadable(reason: error.description))
        }
        let fd: Int32
        switch POSIX.retryingInterrupts({ open(path, O_RDONLY | O_CLOEXEC) }) {
        case .success(let value): fd = value
        case .failure(let error): throw unreadable(error)
        }
        defer { _ = close(fd) }
        switch POSIX.readAll(fd, expected: POSIXFile.size(fd), limit: maxModelBytes) {
        case .success(let bytes):
            return bytes
        case .failure(.tooLarge):
            throw ModelError(file: path, problem: Words.modelTooLarge(size: Words.megabytes(maxModelBytes)))
        case .failure(.system(let error)):
            throw unreadable(error)
        }
    }
}

extension ModelError {
    /// A model that is not in any searched directory: where facecap looked, and how to point it at the models.
    public init(missing file: String, searched: [String]) {
        self.init(
            file: file, problem: Words.modelNotFound(folders: Words.list(searched)),
            advice: Words.text(.modelNotFoundAdvice))
    }
}
