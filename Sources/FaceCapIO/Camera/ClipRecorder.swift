import FaceCapCore

/// How a recording ended and what it left in the file.
public struct RecordingSummary {
    public enum Stop: Equatable {
        /// The requested duration was reached.
        case finished
        /// SIGINT, SIGTERM or SIGHUP asked to stop.
        case signal(Int32)
        /// The source failed (e.g. the camera was unplugged); `error` says how.
        case sourceFailed
    }

    public var framesWritten: Int
    public var stop: Stop
    /// The source's error when `stop` is `.sourceFailed`.
    public var error: FrameSourceError?

    /// The line `facecap record` ends with, e.g. "wrote 300 frames (10 s at 30 fps, 640x480 YUYV) to clip.y4m;
    /// dropped 0 damaged frames (0 flagged, 0 short), the driver skipped 0"; for an MJPEG camera, how many of the
    /// damaged frames were JPEGs that would not decode, when any were.
    public func report(camera: Camera, output: String) -> String {
        let stats = camera.statistics
        let length = (Double(framesWritten) / max(camera.frameRate, 1) * 10).rounded() / 10
        let mode = "\(camera.width)x\(camera.height) \(camera.modeName)"
        var parts = [
            framesWritten == 0
                ? Words.recordNoFrames(path: output)
                : Words.recordWrote(
                    count: framesWritten, seconds: CameraDeviceText.rate(length),
                    fps: CameraDeviceText.rate(camera.frameRate), mode: mode, path: output)
        ]
        parts.append(
            Words.recordDropped(
                count: stats.dropped, flagged: String(stats.droppedErrorFlag),
                short: String(stats.droppedBadSize), skipped: String(stats.skippedByDriver)))
        if stats.droppedUndecodable > 0 { parts.append(Words.recordUndecodable(count: stats.droppedUndecodable)) }
        if case .signal = stop { parts.append(Words.text(.recordStoppedEarly)) }
        return Words.clauses(parts)
    }
}

/// Records frames from a source into a Y4M writer for `seconds` of source time, counted from the first frame.
///
/// A source error ends the recording without throwing (the frames so far are whole and stay in the
/// clip); only a failing write throws, and the writer has then cut the file back to its last whole frame.
/// The writer is not closed here.
public func recordClip(
    from source: FrameSource, to writer: Y4MFileWriter, seconds: Double,
    frameTimeout: Double = 0.25,
    stopRequested: () -> Int32 = { StopSignals.received }
) throws(OutputFileError)
    -> RecordingSummary
{
    var frame = Frame(format: source.format, width: source.width, height: source.height, data: [])
    // The clip's length counts from its first frame: cameras take a while to deliver one after starting.
    var start: (source: Double, wall: Double)?
    while true {
        let signal = stopRequested()
        if signal != 0 { return RecordingSummary(framesWritten: writer.framesWritten, stop: .signal(signal)) }
        let result: FrameReadResult
        do {
            result = try source.nextFrame(into: &frame, timeout: frameTimeout)
        } catch {
            return RecordingSummary(framesWritten: writer.framesWritten, stop: .sourceFailed, error: error)
        }
        if result == .frame {
            let first = start ?? (frame.timestamp, SystemClock().now())
            start = first
            if frame.timestamp - first.source >= seconds { break }
            try writer.write(frame)
        }
        // Source time decides the length; the wall clock only guards against a source whose clock stands still.
        if let start, SystemClock().now() - start.wall >= seconds + 2 { break }
    }
    return RecordingSummary(framesWritten: writer.framesWritten, stop: .finished)
}
