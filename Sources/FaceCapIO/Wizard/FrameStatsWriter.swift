import FaceCapCore

/// The frame-pacing file of `FACECAP_FRAME_STATS`, for the soak tests (tools/soak.py, Tests/Kernel/guest.sh):
/// `{"frames": N, "frames_read": R, "p50_ms": …, "p99_ms": …, "max_ms": …, "t": …, "bucket_ms": 0.1,
/// "buckets": [[index, count], …]}`, where `frames` are the frames analysed (the histogram's), `frames_read` all the
/// frames read and shown (`AnalysisCadence` analyses every other one at 30 fps), `t` is when (seconds since start)
/// and `buckets` the histogram's occupied buckets. Written with `AtomicFile`, so a reader never sees half a file.
enum FrameStatsWriter {
    static func json(_ latency: LatencyHistogram, framesRead: Int, at now: Double) -> String {
        func ms(_ seconds: Double?) -> String { seconds.map { JSONText.fixed($0 * 1000, decimals: 2) } ?? "null" }
        let buckets = latency.occupiedBuckets.map { JSONText.array([String($0.index), String($0.count)]) }
        return JSONText.object([
            ("frames", String(latency.count)), ("frames_read", String(framesRead)),
            ("p50_ms", ms(latency.percentile(0.5))), ("p99_ms", ms(latency.percentile(0.99))),
            ("max_ms", ms(latency.count > 0 ? latency.maximum : nil)),
            ("t", JSONText.fixed(now, decimals: 3)),
            ("bucket_ms", JSONText.fixed(LatencyHistogram.bucketSeconds * 1000, decimals: 1)),
            ("buckets", JSONText.array(buckets)),
        ]) + "\n"
    }

    static func write(
        _ latency: LatencyHistogram, framesRead: Int, at now: Double,
        to path: String
    ) throws(OutputFileError) {
        try AtomicFile.write(Array(json(latency, framesRead: framesRead, at: now).utf8), to: path)
    }
}

/// The frame times of a run (`FACECAP_FRAME_STATS`): each analysed frame's time from its arrival to its guidance
/// handled, and, while the wizard runs, the statistics so far written every `interval` seconds to `path`
/// (`FrameStatsWriter`, atomically), so a soak watched from outside can take the difference of two snapshots. It
/// only measures: when the preview is drawn is the front end's `PreviewPacer`.
final class FrameTimings {
    private(set) var latency = LatencyHistogram()
    /// The frames read so far, analysed or not (the camera's frames; `latency` counts the analysed ones).
    var framesRead = 0
    var path: String?
    var interval = 5.0
    private var writtenAt = -Double.infinity

    /// One frame took `seconds`; at `now` the snapshot is written when it is due.
    func record(_ seconds: Double, now: Double) {
        latency.record(seconds)
        if let path, now - writtenAt >= interval {
            writtenAt = now
            try? write(to: path, at: now)
        }
    }

    func write(to path: String, at now: Double) throws(OutputFileError) {
        try FrameStatsWriter.write(latency, framesRead: framesRead, at: now, to: path)
    }
}
