internal import CV4L2
import FaceCapCore

#if canImport(Glibc)
import Glibc
#endif

/// What to ask the camera for, and how patient to be with it.
public struct CameraConfiguration: Equatable, Sendable {
    /// Requested size; the driver may adjust it (the camera reports what it chose).
    public var width: Int = 640
    public var height: Int = 480
    public var frameRate: Int = 30
    /// A format the camera must give (--format: "YUYV", "NV12", "MJPG"…), or nil to choose (cv4l2_request).
    public var pixelFormat: String?
    /// No size was asked for (--size): ask for the smallest size of at least 640×480 the camera gives at 15 fps or
    /// more (`CameraRank.mode`, from its ENUM_FRAMESIZES and ENUM_FRAMEINTERVALS), else `width` × `height`.
    public var automaticSize = false
    /// mmap buffers to stream with.
    public var bufferCount: Int = 4
    /// No frame for this many seconds (from opening, or since the last frame or the damaged buffers dequeued right
    /// after it, as many as the driver has buffers) → `CameraError.stalled`.
    public var stallTimeout: Double = 5
    /// Frames in the first this-many seconds are marked `isWarmUp` (auto exposure still settling).
    public var warmUpDuration: Double = 0.5
    /// DQBUF failing with EIO this many times in a row → `CameraError.ioError`.
    public var maxConsecutiveIOErrors: Int = 5
    /// Where to look for the processes holding a busy camera (tests point it elsewhere).
    public var procRoot: String = "/proc"
    /// Deliver only the newest frame the driver holds, skipping older ones that queued up while the caller
    /// was busy: a live preview stays current. Off for recording, which wants every frame.
    public var skipStaleFrames = false

    public init(width: Int = 640, height: Int = 480, frameRate: Int = 30) {
        self.width = width
        self.height = height
        self.frameRate = frameRate
    }
}

/// Counters of one stream: what was delivered, and what was dropped and why.
public struct CameraStatistics: Equatable, Sendable {
    public var framesDelivered = 0
    /// Buffers the driver flagged V4L2_BUF_FLAG_ERROR.
    public var droppedErrorFlag = 0
    /// Buffers whose bytesused could not hold a whole frame.
    public var droppedBadSize = 0
    /// Frames the driver skipped (gaps in its sequence numbers).
    public var skippedByDriver = 0
    /// DQBUF failures with EIO (each retried).
    public var ioErrors = 0
    /// Buffers found outside the queue after an EIO and queued again.
    public var recoveredBuffers = 0
    /// Waits interrupted by a signal (EINTR), DQBUF saying "not yet" (EAGAIN), and poll timeouts.
    public var interrupted = 0
    public var wouldBlock = 0
    public var pollTimeouts = 0
    /// Older frames passed over for a newer one (`skipStaleFrames`).
    public var staleFramesSkipped = 0
    /// MJPEG frames facecap's decoder could not read whole (cut short or corrupt, as webcams send now and then).
    public var droppedUndecodable = 0

    /// Frames received but not passed on.
    public var dropped: Int { droppedErrorFlag + droppedBadSize + droppedUndecodable }

    public init() {}
}

/// A V4L2 camera streaming through mmap buffers: YUYV, 4:2:0, RGB, or MJPEG decoded by facecap itself (or another
/// format as libv4l2's RGB24).
///
/// Opening negotiates the format, size and rate and starts streaming; `close()` (or deinit) stops it,
/// unmaps the buffers and closes the device, in that order. After a fatal error the camera closes itself
/// and every later `nextFrame` throws the same error.
public final class Camera: FrameSource {
    public let path: String
    /// The camera's name (V4L2 card), driver and bus.
    public let card: String
    public let driver: String
    public let bus: String
    public let width: Int
    public let height: Int
    public let format: PixelFormat
    public let colorRange: ColorRange
    public let frameRate: Double
    /// True when libv4l2 converts the camera's own format (one facecap does not read, e.g. UYVY) to RGB24.
    public let isConverted: Bool
    /// The format the camera streams in ("YUYV", "NV12", "XR24", "MJPG"…; "RGB3" for libv4l2's conversion). Its
    /// frames reach the analyser as `format`: YUYV as it is, NV12/YU12/YV12 as planar 4:2:0, the RGB ones as RGB24,
    /// MJPEG decoded by facecap's own decoder (`MJPEGDecoder`) to planar 4:2:2.
    public let fourcc: String
    /// What was asked for; differs from width × height when the driver adjusted the size.
    public let requestedWidth: Int
    public let requestedHeight: Int
    public let configuration: CameraConfiguration

    /// The open device (nil once closed); the control calls (CameraControls.swift) go through it.
    private(set) var device: OpaquePointer?
    /// The controls facecap changed, written back at `close()` (shared across the openings of one run).
    public let controlLedger: CameraControlLedger
    private var failure: CameraError?
    /// Where the stall clock starts: the last frame (or the opening), or a damaged buffer dequeued after it — at
    /// most `queueDepth` of them in a row, the backlog a caller busy past the stall timeout can come back to.
    private var stallClockStart: Double
    /// Damaged buffers dequeued since the last frame.
    private var damagedSinceFrame = 0
    /// MJPEG frames in a row whose JPEG is of another size than the stream's; `otherSizeLimit` of them end the stream.
    private var otherSizeFrames = 0
    static let otherSizeLimit = 30
    /// The buffers the driver streams with (what it granted of `CameraConfiguration.bufferCount`).
    private let queueDepth: Int
    private var consecutiveIOErrors = 0
    /// The timestamp of the last frame delivered (seconds since STREAMON).
    private var lastTimestamp = 0.0
    /// MJPEG: the decoder, and the compressed frame as the driver sent it (as long as its largest buffer).
    private let mjpeg: MJPEGDecoder?
    private var compressed: [UInt8] = []
    private var compressedCount = 0

    /// Opens `path` and starts streaming.
    public init(
        path: String, configuration: CameraConfiguration = CameraConfiguration(),
        ops: CameraOps = .system, controlLedger: CameraControlLedger? = nil
    ) throws(CameraError) {
        self.path = path
        self.configuration = configuration
        self.controlLedger = controlLedger ?? CameraControlLedger()

        // A regular file or a directory is refused before it is opened read-write.
        var info = stat()
        if stat(path, &info) == 0, info.st_mode & S_IFMT != S_IFCHR {
            let what: NotCaptureReason = info.st_mode & S_IFMT == S_IFDIR ? .directory : .notDeviceNode
            throw CameraError.notCaptureDevice(path: path, reason: what)
        }

        let asked = Self.request(path: path, configuration: configuration, ops: ops)
        requestedWidth = asked.width
        requestedHeight = asked.height
        var request = asked.request
        var table = ops.table
        var stream = cv4l2_stream_info()
        var failed = cv4l2_failure()
        guard let device = cv4l2_start(&table, path, &request, &stream, &failed) else {
            if failed.stage == CV4L2_STAGE_NO_FORMAT {
                let offered =
                    (try? CameraDevice.query(path: path, ops: ops, detail: .ranking(forced: nil)))??.formats
                    .map(\.fourcc) ?? []
                throw CameraError.unsupportedFormat(path: path, offered: offered, asked: configuration.pixelFormat)
            }
            throw CameraError.from(
                stage: failed.stage, code: Int32(failed.error), path: path,
                procRoot: configuration.procRoot)
        }
        self.device = device
        card = CameraSupport.cString(stream.card)
        driver = CameraSupport.cString(stream.driver)
        bus = CameraSupport.cString(stream.bus)
        width = Int(stream.width)
        height = Int(stream.height)
        isConverted = stream.converted != 0
        fourcc = CameraSupport.fourccString(stream.pixel_format)
        mjpeg = cv4l2_destination_layout(stream.pixel_format) == 4 ? MJPEGDecoder() : nil
        switch cv4l2_destination_layout(stream.pixel_format) {
        case 1: format = .yuyv
        case 3: format = .yuv420p
        case 4: format = .yuv422p
        default: format = .rgb24
        }
        if cv4l2_destination_layout(stream.pixel_format) == 4 {
            guard mjpeg != nil else {
                cv4l2_stop(device)
                throw CameraError.system(path: path, operation: "MJPEG decoder", errno: ENOMEM)
            }
            compressed = [UInt8](repeating: 0, count: stream.frame_bytes)
        }
        // libv4l2's conversions and JPEG (JFIF) are full range, whatever quantization the driver states.
        colorRange = format == .rgb24 || format == .yuv422p || isConverted || stream.full_range != 0 ? .full : .limited
        frameRate =
            stream.fps_numerator > 0 && stream.fps_denominator > 0
            ? Double(stream.fps_numerator) / Double(stream.fps_denominator)
            : Double(configuration.frameRate)
        queueDepth = max(1, Int(stream.buffer_count))
        stallClockStart = SystemClock().now()
        // Back after being unplugged while facecap had changed its controls: those are written back first.
        self.controlLedger.restore(path: path, device: device)
        self.controlLedger.opened(path: path, device: device)
    }

    /// What to ask the driver for: the configured size, or with `automaticSize` the best-ranked mode and the
    /// format that gives it at a good rate (`CameraRank.format`), together; a forced pixel format wins.
    private static func request(path: String, configuration: CameraConfiguration, ops: CameraOps)
        -> (request: cv4l2_request, width: Int, height: Int)
    {
        var asked = (width: configuration.width, height: configuration.height)
        var preferred: UInt32 = 0
        if configuration.automaticSize,
            let device = try? CameraDevice.query(
                path: path, ops: ops, detail: .ranking(forced: configuration.pixelFormat))
        {
            let rank = CameraRank(of: device, format: configuration.pixelFormat)
            if let mode = rank.mode { asked = (mode.width, mode.height) }
            if configuration.pixelFormat == nil, let format = rank.format {
                preferred = CameraSupport.fourccCode(format)
            }
        }
        let forced = configuration.pixelFormat.map(CameraSupport.fourccCode) ?? 0
        let request = cv4l2_request(
            width: UInt32(clamping: asked.width),
            height: UInt32(clamping: asked.height),
            fps: UInt32(clamping: configuration.frameRate),
            buffer_count: UInt32(clamping: configuration.bufferCount),
            pixel_format: forced, preferred_format: preferred)
        return (request, asked.width, asked.height)
    }

    /// Opens the best-ranked video-capture node under `directory` (`CameraRank`: colour before infrared,
    /// physical before virtual, 640×480 at 15 fps before slower; metadata nodes are skipped); a machine with raw
    /// Bayer nodes only is `CameraError.rawBayerOnly`.
    public static func openFirst(
        configuration: CameraConfiguration = CameraConfiguration(),
        directory: String = "/dev", ops: CameraOps = .system,
        sysfs: String? = nil,
        controlLedger: CameraControlLedger? = nil
    ) throws(CameraError) -> Camera {
        let scan = CameraDevice.scan(directory: directory, ops: ops, sysfs: sysfs, detail: .ranking(forced: nil))
        guard let first = CameraRank.choose(scan.devices) else {
            throw scan.problems.first ?? CameraError.noCamera(directory: directory)
        }
        if let raw = CameraRank.rawBayerCamera(scan.devices) { throw CameraError.rawBayerOnly(raw) }
        return try Camera(path: first.path, configuration: configuration, ops: ops, controlLedger: controlLedger)
    }

    deinit { close() }

    /// True once the driver changed the requested size.
    public var wasSizeAdjusted: Bool { width != requestedWidth || height != requestedHeight }

    public var label: String {
        let mode = modeName
        let name = card.isEmpty ? "" : "\(card), "
        return "\(path) (\(name)\(mode) \(width)×\(height) @ \(CameraDeviceText.rate(frameRate)) fps)"
    }

    /// The format as the person is told it: "YUYV", "NV12", or "RGB24 via libv4l2" for libv4l2's conversion.
    public var modeName: String {
        isConverted ? Words.cameraConvertedFormat(format: fourcc == "RGB3" ? "RGB24" : fourcc) : fourcc
    }

    /// The stream's counters so far (kept after close).
    public private(set) var statistics = CameraStatistics()

    /// The V4L2 file descriptor while streaming: it polls readable when a buffer is ready to dequeue.
    public var pollDescriptor: Int32? { device.map { cv4l2_fd($0) } }

    /// Nil: a camera's frames come when the driver has them.
    public var secondsUntilNextFrame: Double? { nil }

    /// Waits at most `timeout` seconds for a frame. Every failure is `.camera(CameraError)`.
    public func nextFrame(into frame: inout Frame, timeout: Double) throws(FrameSourceError) -> FrameReadResult {
        do {
            return try readFrame(into: &frame, timeout: timeout)
        } catch {
            throw .camera(error)
        }
    }

    private func readFrame(into frame: inout Frame, timeout: Double) throws(CameraError) -> FrameReadResult {
        if let failure { throw failure }
        guard let device else { throw CameraError.closed(path: path) }
        let byteCount = format.byteCount(width: width, height: height) ?? 0
        if frame.data.count != byteCount, mjpeg == nil {
            // Only the first frame (or a new size) allocates; later frames reuse this storage.
            frame.data = [UInt8](repeating: 0, count: byteCount)
        }
        // NaN or negative waits not at all; an infinite wait is an hour at a time (the stall check still runs).
        let wait = timeout.isNaN ? 0 : min(max(0, timeout), 3600)
        let deadline = SystemClock().now() + wait
        while true {
            // No single wait outlasts the stall deadline, so a silent camera is reported on time however long
            // the caller is prepared to wait.
            let before = SystemClock().now()
            let untilStall = stallClockStart + configuration.stallTimeout - before
            let remaining = min(max(0, min(deadline - before, untilStall)), 3600)
            let milliseconds = Int32((remaining * 1000).rounded(.up))
            var info = cv4l2_frame_info()
            var failed = cv4l2_failure()
            let interruptedBefore = statistics.interrupted
            var result = read(device, into: &frame, milliseconds, &info, &failed)
            updateStatistics(device)
            let now = SystemClock().now()
            if result == CV4L2_READ_FRAME, configuration.skipStaleFrames { skipToNewest(device, &frame, &info) }
            if result == CV4L2_READ_FRAME, let mjpeg { result = try decode(mjpeg, device, into: &frame) }
            switch result {
            case CV4L2_READ_FRAME:
                consecutiveIOErrors = 0
                stallClockStart = now
                damagedSinceFrame = 0
                frame.format = format
                frame.width = width
                frame.height = height
                frame.colorRange = colorRange
                // Driver clocks can step back (or mix stamped and unstamped buffers); time never runs backwards
                // for the caller, whose motion measures divide by the step.
                lastTimestamp = max(lastTimestamp, info.timestamp)
                frame.timestamp = lastTimestamp
                frame.isWarmUp = lastTimestamp < configuration.warmUpDuration
                return .frame
            case CV4L2_READ_IO_ERROR:
                consecutiveIOErrors += 1
                if consecutiveIOErrors >= configuration.maxConsecutiveIOErrors {
                    throw fail(.ioError(path: path, attempts: consecutiveIOErrors))
                }
            case CV4L2_READ_FAILED:
                throw fail(
                    CameraError.from(
                        stage: failed.stage, code: Int32(failed.error), path: path,
                        procRoot: configuration.procRoot))
            case CV4L2_READ_DROPPED:
                // A damaged buffer (already re-queued and counted) is no frame, but no silence either: the camera
                // sent it, perhaps with good frames queued behind it. A caller busy past the stall timeout (one
                // frame's analysis under software emulation took 8 s) that comes back to damaged buffers at the
                // head of its queue is not told of a stall: the clock starts again at each of them, up to as many
                // in a row as the driver has buffers. Past that, a camera sending nothing but damaged buffers is
                // stalled as before.
                damagedSinceFrame += 1
                if damagedSinceFrame <= queueDepth { stallClockStart = now }
            default:
                break  // nothing yet
            }
            if now - stallClockStart >= configuration.stallTimeout {
                throw fail(.stalled(path: path, seconds: configuration.stallTimeout))
            }
            // A signal interrupted the wait: hand control back so the caller can check why.
            if now >= deadline || statistics.interrupted != interruptedBefore { return .noFrameYet }
        }
    }

    /// Reads whatever is already waiting (without blocking) into `frame`, so it ends up holding the newest.
    /// Anything other than another frame stops the catch-up; an error shows again on the next read.
    private func skipToNewest(_ device: OpaquePointer, _ frame: inout Frame, _ info: inout cv4l2_frame_info) {
        while true {
            var newer = cv4l2_frame_info()
            var failed = cv4l2_failure()
            let result = read(device, into: &frame, 0, &newer, &failed)
            switch result {
            case CV4L2_READ_FRAME:
                info = newer
                statistics.staleFramesSkipped += 1
            case CV4L2_READ_DROPPED:
                continue
            default:
                updateStatistics(device)
                return
            }
        }
    }

    /// The MJPEG buffer just read, decoded into `frame`: `CV4L2_READ_FRAME`, or `CV4L2_READ_DROPPED` for a frame cut
    /// short or corrupt (a damaged buffer like a flagged one: counted, never passed on). A camera that sends every
    /// JPEG at another size than the one it agreed to is not streaming what it said: after `otherSizeLimit` of them
    /// in a row it is told as such, with the size it sends (for --size), rather than as a camera that stopped.
    private func decode(
        _ mjpeg: MJPEGDecoder, _ device: OpaquePointer,
        into frame: inout Frame
    ) throws(CameraError) -> cv4l2_read_result {
        let outcome = mjpeg.decode(compressed, count: compressedCount, width: width, height: height, into: &frame)
        if case .otherSize(let w, let h) = outcome {
            otherSizeFrames += 1
            if otherSizeFrames >= Self.otherSizeLimit {
                throw fail(
                    .unsupportedFormat(path: path, offered: ["MJPG \(w)x\(h)"], asked: "MJPG \(width)x\(height)"))
            }
        } else {
            otherSizeFrames = 0
        }
        guard outcome != .decoded else { return CV4L2_READ_FRAME }
        statistics.droppedUndecodable += 1
        updateStatistics(device)
        return CV4L2_READ_DROPPED
    }

    /// One buffer from the driver: into `frame` as it is, or for MJPEG into `compressed` (decoded by the caller).
    private func read(
        _ device: OpaquePointer, into frame: inout Frame, _ milliseconds: Int32,
        _ info: inout cv4l2_frame_info, _ failed: inout cv4l2_failure
    ) -> cv4l2_read_result {
        guard mjpeg != nil else {
            return frame.data.withUnsafeMutableBytes { bytes in
                cv4l2_read(device, bytes.baseAddress, bytes.count, milliseconds, &info, &failed)
            }
        }
        let result = compressed.withUnsafeMutableBytes { bytes in
            cv4l2_read(device, bytes.baseAddress, bytes.count, milliseconds, &info, &failed)
        }
        if result == CV4L2_READ_FRAME { compressedCount = info.bytes }
        return result
    }

    /// Moves on each time the controls are given back while the camera stays open (`giveBackControls`): the
    /// exposure steering reads them again before it turns anything.
    public private(set) var controlsEpoch = 0

    /// Ctrl-Z: writes back the controls facecap changed (those no other program changed since), so the camera is as
    /// facecap found it while the process is stopped; the stream stays open. Once continued, the steering reads every
    /// control again (`controlsEpoch`): a value another program set meanwhile is the new first value.
    public func giveBackControls() {
        guard let device else { return }
        controlLedger.restore(path: path, device: device)
        controlsEpoch += 1
    }

    /// Writes back the controls facecap changed (those no other program changed since), stops streaming, unmaps the
    /// buffers and closes the device; safe to call twice.
    public func close() {
        guard let device else { return }
        controlLedger.restore(path: path, device: device)
        controlLedger.closed(path: path)
        updateStatistics(device)
        cv4l2_stop(device)
        self.device = nil
    }

    private func fail(_ error: CameraError) -> CameraError {
        close()
        failure = error
        return error
    }

    private func updateStatistics(_ device: OpaquePointer) {
        let counters = cv4l2_get_stats(device)
        statistics.framesDelivered = Int(counters.frames) - statistics.droppedUndecodable
        statistics.droppedErrorFlag = Int(counters.dropped_error_flag)
        statistics.droppedBadSize = Int(counters.dropped_bad_size)
        statistics.skippedByDriver = Int(counters.sequence_gaps)
        statistics.ioErrors = Int(counters.eio)
        statistics.recoveredBuffers = Int(counters.recovered_buffers)
        statistics.interrupted = Int(counters.eintr)
        statistics.wouldBlock = Int(counters.eagain)
        statistics.pollTimeouts = Int(counters.poll_timeouts)
    }
}

extension CameraError {
    /// The user-facing error for a device call that failed with `code` at `stage`.
    static func from(stage: cv4l2_stage, code: Int32, path: String, procRoot: String) -> CameraError {
        switch (stage, code) {
        case (_, EACCES), (_, EPERM):
            return .permissionDenied(path: path, access: DeviceAccess.inspect(path))
        case (_, EBUSY):
            return .busy(path: path, holders: DeviceHolder.find(path: path, procRoot: procRoot))
        case (CV4L2_STAGE_OPEN, ENOENT):
            return .noSuchDevice(path: path)
        case (CV4L2_STAGE_OPEN, ENXIO), (CV4L2_STAGE_OPEN, ENODEV):
            return .notCaptureDevice(path: path, reason: .noDriver)
        case (CV4L2_STAGE_OPEN, ENOTTY), (CV4L2_STAGE_OPEN, EINVAL), (CV4L2_STAGE_QUERYCAP, ENOTTY),
            (CV4L2_STAGE_QUERYCAP, EINVAL):
            return .notCaptureDevice(path: path, reason: .noV4L2)
        case (CV4L2_STAGE_OPEN, EISDIR):
            return .notCaptureDevice(path: path, reason: .directory)
        case (CV4L2_STAGE_NOT_CAPTURE, _):
            return .notCaptureDevice(path: path, reason: .noVideoCapture)
        case (_, ENODEV):
            return .disconnected(path: path)
        case (CV4L2_STAGE_STREAMON, ENOSPC):
            return .noBandwidth(path: path)
        default:
            return .system(path: path, operation: stageName(stage), errno: code)
        }
    }

    static func stageName(_ stage: cv4l2_stage) -> String {
        switch stage {
        case CV4L2_STAGE_OPEN: return "open"
        case CV4L2_STAGE_QUERYCAP: return "VIDIOC_QUERYCAP"
        case CV4L2_STAGE_ENUM_FMT: return "VIDIOC_ENUM_FMT"
        case CV4L2_STAGE_S_FMT: return "VIDIOC_S_FMT"
        case CV4L2_STAGE_REQBUFS: return "VIDIOC_REQBUFS"
        case CV4L2_STAGE_QUERYBUF: return "VIDIOC_QUERYBUF"
        case CV4L2_STAGE_MMAP: return "mmap"
        case CV4L2_STAGE_QBUF: return "VIDIOC_QBUF"
        case CV4L2_STAGE_STREAMON: return "VIDIOC_STREAMON"
        case CV4L2_STAGE_POLL: return "poll"
        case CV4L2_STAGE_DQBUF: return "VIDIOC_DQBUF"
        default: return "setup"
        }
    }
}
