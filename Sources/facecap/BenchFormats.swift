import FaceCapCore
import FaceCapIO

#if canImport(Glibc)
import Glibc
#endif

/// `facecap bench --formats --image PHOTO`: the table issue 31's acceptance asks for — each format facecap reads ×
/// 640×480 and 1280×720 × the frame rate a camera offers for it × the time to read a frame into the analyser's layout
/// and the time to analyse it, with the guidance it gets. In process, without a device: the photo (at the size the
/// guidance asks for) is made into each format as a camera sends it (`CameraFormatSamples`; MJPEG 4:2:2 at quality
/// 80), read as the camera path reads a buffer (`CameraFormatSamples.Reader`: cv4l2's conversion, or facecap's MJPEG
/// decoder), and analysed as the wizard does (`FaceTracker.process` and `Analyzer.process`, a new tracker per row,
/// the same frame again and again, so the detector runs at its interval). Medians of `runs` frames: the read in this
/// thread's CPU time, the analysis in the process's (the eyes' worker thread too).
///
/// The frame-rate column is not measured: no device is opened. It is a scripted ENUM_FRAMEINTERVALS list, stated
/// here: a USB 2 UVC webcam for YUYV (30 fps at 640×480, 10 at 1280×720) and MJPEG (30 at both), and 30 at both for
/// the others (NV12: AMD's ISP and relays of MIPI cameras; the RGB ones: libcamera's software ISP).
enum BenchFormats {
    static let sizes = [(width: 640, height: 480), (width: 1280, height: 720)]

    static func scriptedRate(_ fourcc: String, width: Int) -> Int { fourcc == "YUYV" && width > 640 ? 10 : 30 }

    // MARK: English on purpose: a Markdown table for docs, quoted as printed

    static func run(
        photo: Frame,
        models: (
            detector: TFLiteModel, landmarks: TFLiteModel, iris: TFLiteModel,
            hand: TFLiteModel
        ), runs: Int
    ) throws -> [String] {
        var rgb = Frame.empty()
        photo.convertToRGB24(into: &rgb)
        var lines = [
            "| format | size | fps (scripted) | read ms | analysis ms | guidance |",
            "|---|---|---|---|---|---|",
        ]
        let reader = CameraFormatSamples.Reader()
        for size in sizes {
            let picture = CameraFormatSamples.facePicture(rgb, width: size.width, height: size.height, scale: 0.8)
            for fourcc in CameraFormatSamples.formats {
                let bytes = CameraFormatSamples.encode(picture, width: size.width, height: size.height, fourcc: fourcc)
                var frame = Frame.empty()
                guard reader.read(bytes, fourcc: fourcc, width: size.width, height: size.height, into: &frame) else {
                    lines.append("| \(fourcc) | \(size.width)x\(size.height) | | | | not read |")
                    continue
                }
                var reads: [Double] = []
                for _ in 0..<runs {
                    let start = cpu(CLOCK_THREAD_CPUTIME_ID)
                    _ = reader.read(bytes, fourcc: fourcc, width: size.width, height: size.height, into: &frame)
                    reads.append(cpu(CLOCK_THREAD_CPUTIME_ID) - start)
                }
                // Without the palm model (not loaded), as the table in docs/camera-formats.md was measured: what a
                // format costs to read and analyse, not the palms' share.
                let tracker = try FaceTracker(
                    detector: models.detector, landmarks: models.landmarks, iris: models.iris,
                    hand: models.hand)
                var analyzer = Analyzer()
                var analyses: [Double] = []
                var primary = GuidanceCode.noFace
                for index in 0..<runs {
                    frame.timestamp = Double(index) / 30
                    let start = cpu(CLOCK_PROCESS_CPUTIME_ID)
                    primary = analyzer.process(frame, faces: tracker.process(frame)).primary
                    analyses.append(cpu(CLOCK_PROCESS_CPUTIME_ID) - start)
                }
                lines.append(
                    "| \(fourcc) | \(size.width)x\(size.height) | \(scriptedRate(fourcc, width: size.width)) "
                        + "| \(fixed(median(reads))) | \(fixed(median(analyses))) | \(primary.rawValue) |")
            }
        }
        return lines
    }

    private static func cpu(_ clock: clockid_t) -> Double { POSIX.clockSeconds(clock) * 1000 }

    private static func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        guard !sorted.isEmpty else { return 0 }
        return sorted.count % 2 == 1
            ? sorted[sorted.count / 2]
            : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
    }

    /// Two decimals, always both written (1.20, not 1.2): the column lines up.
    private static func fixed(_ value: Double) -> String {
        let hundredths = Int((value * 100).rounded())
        return "\(hundredths / 100)." + (hundredths % 100 < 10 ? "0" : "") + "\(hundredths % 100)"
    }
}
