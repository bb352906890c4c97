import FaceCapCore

extension ModelFiles {
    /// The SHA-256 of the model files facecap loads (the detector, landmark, iris, hand and palm models: the
    /// report's `facecap.models`), found where `locate` finds them.
    public static func digests(directories: [String] = searchDirectories()) throws(ModelError)
        -> [PhotoReport.ModelDigest]
    {
        var digests: [PhotoReport.ModelDigest] = []
        for file in [detector, landmarks, iris, hand, palm] {
            let path = try locate(file, directories: directories)
            let bytes: [UInt8]
            do {
                bytes = try POSIXFile.readAll(path, limit: maxModelBytes)
            } catch {
                throw ModelError(file: path, problem: error.message)
            }
            digests.append(PhotoReport.ModelDigest(file: file, sha256: SHA256.hex(bytes)))
        }
        return digests
    }
}
