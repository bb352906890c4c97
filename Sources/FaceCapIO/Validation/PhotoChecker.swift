import FaceCapCore
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// Whatever decides on a kept photo: the built-in validator (`BuiltInChecker`) or a server
/// (`HTTPValidator`). `ValidationWorker` calls it on its own thread, one photo at a time.
public protocol PhotoChecker: AnyObject, Sendable {
    /// Checks `photo` for `request` and blocks until there is an answer: a `.verdict`, `.unreachable` or
    /// `.refused`, never `.progress` (progress goes to `progress`, 0...1, on the calling thread). Returns
    /// promptly once `cancellation` is cancelled (the answer is then thrown away).
    func check(
        _ photo: CapturedPhoto, request: ValidationRequest, cancellation: Cancellation,
        progress: (Double) -> Void
    ) -> ValidationOutcome
}

/// A flag one thread raises and another polls: how the run loop stops a check in flight.
public final class Cancellation: Sendable {
    private let flag = Atomic<Bool>(false)

    public init() {}

    public func cancel() { flag.store(true, ordering: .releasing) }

    public var isCancelled: Bool { flag.load(ordering: .acquiring) }
}

/// The photo the wizard kept, with everything a checker or the photo store needs; an immutable value that
/// can cross to the worker thread. It stays in memory until the flow is done with it, so a failed save or
/// upload can be retried without taking it again.
public struct CapturedPhoto: Sendable {
    /// The full-resolution, unmirrored frame the analyzer chose.
    public let frame: Frame
    /// `frame` as JPEG (`JPEGFile.photoQuality`, no metadata): the bytes saved and uploaded.
    public let jpeg: [UInt8]
    /// The report before any verdict (capture mode, attempt, measures, landmarks, versions).
    public let report: PhotoReport
    /// One UUID per photo: the same on every re-send, so the server counts it once (`Idempotency-Key`).
    public let idempotencyKey: String

    /// Encodes `frame`; the key is a fresh UUID unless given.
    public init(frame: Frame, report: PhotoReport, idempotencyKey: String = UUIDv4.make())
        throws(JPEGEncodingError)
    {
        self.frame = frame
        self.jpeg = try JPEGFile.encode(frame)
        self.report = report
        self.idempotencyKey = idempotencyKey
    }

    /// The pre-verdict report as the upload carries it.
    public var reportJSON: [UInt8] { report.jsonBytes() }
}

/// Random (version 4) UUIDs from the kernel's generator.
public enum UUIDv4 {
    /// A new UUID such as `1b4e28ba-2fa1-4d2b-a3c9-0c55a4b1f6e2`.
    public static func make() -> String {
        format(randomBytes(16))
    }

    /// The UUID text of 16 random bytes, with the version (4) and variant (10) bits set.
    public static func format(_ random: [UInt8]) -> String {
        precondition(random.count == 16, "a UUID is 16 bytes")
        var bytes = random
        bytes[6] = bytes[6] & 0x0F | 0x40
        bytes[8] = bytes[8] & 0x3F | 0x80
        let hex = bytes.map { byte -> String in
            let text = String(byte, radix: 16)
            return byte < 16 ? "0" + text : text
        }
        return [hex[0..<4], hex[4..<6], hex[6..<8], hex[8..<10], hex[10..<16]].map { $0.joined() }
            .joined(separator: "-")
    }

    /// `count` bytes from the kernel's generator: the standard library's `SystemRandomNumberGenerator` is
    /// getrandom(2) on Linux (/dev/urandom where that call is missing), which Swift's Glibc module does not
    /// export itself.
    public static func randomBytes(_ count: Int) -> [UInt8] {
        var generator = SystemRandomNumberGenerator()
        return (0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) }
    }
}
