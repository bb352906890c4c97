import FaceCapCore
import FaceCapIO

#if canImport(Glibc)
import Glibc
#endif

/// `facecap bench`: median milliseconds per call of each face model and of whole 640×480 YUYV frames.
///
/// JSON: `detector_ms`, `landmarks_ms`, `iris_ms` (one eye: one run of the iris model), `iris_pair_ms` (both eyes as
/// one run of the iris model on a batch of two crops: measured only, a frame runs two single runs), `hand_ms` (one run
/// of the hand model: one mouth crop), `palm_ms` (one run of the palm detector, `ModelFiles.palm`). With `--image
/// PHOTO`, a session: the photo as a YUYV frame moved a pixel or two per frame (`SessionFrames`), through
/// `FaceTracker.process` as the wizard runs it (the detector every `detectionInterval` frames, the eyes every
/// `eyeInterval`, the hand flag every `handInterval` on others) and the analyzer on the faces found: `frame_ms` (median
/// frame), `frame_mean_ms` (the mean, which spreads the detector, eye and hand frames' cost), `frame_eyes_ms` (median
/// of the frames on which both eyes ran), `frame_hand_ms` (the frames the hand model ran on: on the still photo, with no
/// hand about, one crop a run in turn — `FaceTracker.quietHands`; the worst case above reads two), `frame_detect_ms` (the frames the detector ran on), `frame_cpu_ms`, `frame_eyes_cpu_ms`,
/// `frame_detect_cpu_ms` (the same in the process's CPU time: every thread's, so the eye worker's too — with the eyes
/// on two cores a frame's wall time drops, its CPU time does not — and what leaves out waiting for a core on a loaded
/// machine), `analysis_ms` (the analyzer on the tracked face), `detector_frames` (timed frames that ran the detector).
/// Always, the worst case on a synthetic frame without a face, every frame running conversion, detector and landmarks
/// (eyes and hand at their intervals) and the analyzer on a stand-in face: `frame_full_ms`, `frame_full_mean_ms`,
/// `frame_full_eyes_ms`, `frame_full_hand_ms`, `frame_full_cpu_ms`, `frame_full_eyes_cpu_ms` (process CPU time too),
/// `analysis_full_ms`. Then `eye_interval`, `hand_interval`, `detection_interval`, `threads` (the threads a frame's
/// eyes run on: 2 when in parallel, `IrisLandmarker.parallelByDefault`), `eyes_taken_back` (session eye frames whose
/// second eye the worker thread had not begun when the first was done, so the bench thread read it: its core was busy);
/// and each model's figure in this thread's CPU time (`detector_cpu_ms`, `landmarks_cpu_ms`, `iris_cpu_ms`,
/// `iris_pair_cpu_ms`, `hand_cpu_ms`, `palm_cpu_ms`): on a loaded machine a call longer than the scheduler's time slice
/// is preempted in most runs, and its wall-clock median counts the wait. With `--image`, the terminal preview's raster
/// too (`preview_*_cpu_ms`, `BenchPreview`). With `--formats` and `--image`, only the camera formats' table
/// (`BenchFormats`).
enum BenchCommand: Sendable {
    static let options = [
        OptionSpec("json", help: .optionBenchJSON),
        OptionSpec("runs", value: "N", help: .optionRuns),
        OptionSpec("profile", help: .optionProfile),
        OptionSpec("image", value: "FILE", help: .optionBenchImage),
        OptionSpec("formats", help: .optionBenchFormats),
    ]
    static let usage = "facecap bench [--json] [--runs N] [--profile] [--image FILE] [--formats]"
    static let about = MessageID.commandBenchAbout

    static func run(_ arguments: [String]) throws -> ExitCode {
        guard let parsed = try parseSubcommand(arguments, usage: usage, about: about, options: options) else {
            return .success
        }
        guard parsed.positionals.isEmpty else { throw UsageError(Words.text(.benchNoFiles)) }
        let runs = try parsed.int("runs", in: 5...100_000) ?? 300
        if parsed.has("formats") {
            guard let path = parsed.value("image") else { throw UsageError(Words.text(.benchFormatsImage)) }
            let photo = try ImageFile.read(path: path)
            // Without the palm model, as the table in docs/camera-formats.md was measured.
            let (detector, landmarks) = try ModelFiles.loadFaceModels()
            let models = (
                detector, landmarks, try ModelFiles.load(ModelFiles.iris),
                try ModelFiles.load(ModelFiles.hand)
            )
            for line in try BenchFormats.run(photo: photo, models: models, runs: min(runs, 300)) { printOut(line) }
            return .success
        }
        let models = try ModelFiles.loadAllFaceModels()

        let each = try ModelRuns(models, runs: runs)
        let worst = try WorstCase(models, runs: runs)
        var session: Session?
        var previewResults: [(String, Double)] = []
        if let path = parsed.value("image") {
            (session, previewResults) = try sessionRun(photoPath: path, models: models, runs: runs)
        }
        if parsed.has("profile") {
            printProfile(
                [
                    ("detector", each.detector, 1), ("landmarks", each.landmarks, 1), ("iris", each.iris, 1),
                    ("iris_pair", each.irisPair, 2), ("hand", each.hand, 1),
                    ("palm", each.palm, 1),
                ],
                runs: max(20, runs / 3))
            printInputProfile(each, tracker: worst.tracker, frame: worst.frame, runs: runs)
            if let session { printFrameProfile(session, runs: runs) }
        }
        printResults(
            each.results + (session.map(sessionResults) ?? []) + worst.results + each.cpuResults
                + previewResults,
            json: parsed.has("json"), runs: runs, tracker: worst.tracker, session: session)
        return .success
    }

    /// The figures of a run of frames: medians of all, of those the eyes, the hand and the detector ran on.
    struct FrameFigures {
        var ms = 0.0, meanMs = 0.0, eyesMs = 0.0, handMs = 0.0, detectMs = 0.0
        var cpuMs = 0.0, eyesCPUMs = 0.0, detectCPUMs = 0.0
        var detectFrames = 0
    }

    /// The session's figures, and its tracker, analyzer and next frame for the profile.
    struct Session {
        var figures: FrameFigures
        var analysisMs: Double
        var tracker: FaceTracker
        var analyzer: Analyzer
        var frame: Frame
    }

    /// Times `runs` frames of `body`, which says whether the detector, the eyes and the hand ran on it.
    static func frameTimes(runs: Int, _ body: () -> (detector: Bool, eyes: Bool, hand: Bool)) -> FrameFigures {
        var ran: [(detector: Bool, eyes: Bool, hand: Bool)] = []
        var cpu: [Double] = []
        // The process's CPU time: the eyes' worker thread runs on it too.
        let wall = timesMilliseconds(runs: runs, cpu: &cpu, cpuClock: processCPU) { ran.append(body()) }
        ran = Array(ran.suffix(runs))
        func of(_ times: [Double], _ keep: ((detector: Bool, eyes: Bool, hand: Bool)) -> Bool) -> Double {
            median(zip(times, ran).filter { keep($0.1) }.map(\.0))
        }
        return FrameFigures(
            ms: median(wall), meanMs: wall.reduce(0, +) / Double(max(runs, 1)),
            eyesMs: of(wall, \.eyes), handMs: of(wall, \.hand), detectMs: of(wall, \.detector),
            cpuMs: median(cpu), eyesCPUMs: of(cpu, \.eyes), detectCPUMs: of(cpu, \.detector),
            detectFrames: ran.filter(\.detector).count)
    }

    // MARK: English on purpose: the frame profile (Markdown, quoted as printed by docs/performance.md)

    /// Each part of a tracked frame with eyes timed on its own (`FrameProfile`), beside the whole frame.
    static func printFrameProfile(_ session: Session, runs: Int) {
        let parts = FrameProfile.parts(
            tracker: session.tracker, analyzer: session.analyzer, frame: session.frame,
            runs: runs, clock: now, cpuClock: processCPU)
        guard let whole = parts.last else { return }
        printOut("")
        printOut("a tracked frame with eyes, part by part: median of \(runs) runs each")
        printOut("")
        printOut("| part | wall ms | CPU ms (process) |")
        printOut("|---|---:|---:|")
        for part in parts {
            printOut("| \(part.label) | \(fixed(part.milliseconds, 4)) | \(fixed(part.cpuMilliseconds, 4)) |")
        }
        // What a tracked frame with eyes runs: no detector, and the analyzer's whole process.
        // The eyes as the frame reads them (both at once when parallel), not their three parts timed one by one.
        let inFrame = parts.filter {
            !$0.label.hasPrefix("detector") && !$0.label.hasPrefix("analyzer: ")
                && !$0.label.hasPrefix("whole") && (!$0.label.hasPrefix("eyes: ") || $0.label.hasPrefix("eyes: both"))
        }
        let analyzer = parts.first { $0.label.hasPrefix("analyzer: whole Analyzer.process") }
        let sum = inFrame.reduce(0) { $0 + $1.milliseconds } + (analyzer?.milliseconds ?? 0)
        let sumCPU = inFrame.reduce(0) { $0 + $1.cpuMilliseconds } + (analyzer?.cpuMilliseconds ?? 0)
        printOut(
            "| sum of the tracked frame's parts (landmarks, tracking, both eyes, Analyzer.process) "
                + "| \(fixed(sum, 4)) | \(fixed(sumCPU, 4)) |")
        printOut(
            "| rest of the whole frame outside the parts | \(fixed(whole.milliseconds - sum, 4)) "
                + "| \(fixed(whole.cpuMilliseconds - sumCPU, 4)) |")
        printOut("")
    }

    // MARK: English on purpose: the --profile tables (Markdown, quoted as printed by docs/performance.md)

    /// Where the time goes: every step of each model with its work, rate and ceiling (max of FLOPs at the
    /// measured FMA peak and bytes at the measured read bandwidth of the cache level they fit in), then the
    /// totals per operator family. Markdown tables, so docs/performance.md can quote them as printed.
    static func printProfile(_ models: [(String, Interpreter, Int)], runs: Int) {
        let ceiling = MachineCeiling.measure(clock: now)
        let wide = ceiling.fmaAVX512.map { ", 16-lane (AVX-512) \(fixed($0, 1)) GFLOP/s" } ?? ", no AVX-512"
        printOut(
            "machine, one thread: FMA 8-lane (AVX2) \(fixed(ceiling.fmaAVX2, 1)) GFLOP/s\(wide); kernels in use: "
                + (Interpreter.usesAVX512 ? "AVX-512" : "AVX2") + ", peak taken \(fixed(ceiling.peak, 1)) GFLOP/s")
        printOut(
            "read bandwidth: "
                + ceiling.bandwidth.map { "\(fixed($0.gbps, 1)) GB/s (\(sizeText($0.bytes)))" }
                .joined(separator: ", "))
        for (title, interpreter, images) in models {
            let steps = interpreter.profile(runs: runs, images: images, clock: now)
            printOut("")
            printOut("\(title): median of \(runs) runs per step")
            let memory = interpreter.memoryBytes
            printOut(
                "memory: activations \(memory.activations / 1024) KB (its arena), scratch "
                    + "\(memory.scratch / 1024) KB, packed constants \(memory.constants / 1024) KB")
            printOut("")
            printOut("| step | ms | MFLOP | KB | GFLOP/s | ceiling ms | % of ceiling |")
            printOut("|---|---:|---:|---:|---:|---:|---:|")
            // Each operator's sums, in the order the steps first meet it; `family` finds its place.
            var families: [(kind: String, ms: Double, flops: Int, ceiling: Double, count: Int)] = []
            var family: [String: Int] = [:]
            for step in steps {
                let limit = ceiling.ceilingMilliseconds(flops: step.flops, bytes: step.bytes)
                printOut(
                    "| \(step.label) | \(fixed(step.milliseconds, 4)) | \(fixed(Double(step.flops) / 1e6, 2)) "
                        + "| \(step.bytes / 1024) | \(fixed(rate(step.flops, step.milliseconds), 1)) | \(fixed(limit, 4)) "
                        + "| \(percent(limit, step.milliseconds)) |")
                let place = family[step.kind] ?? families.count
                if place == families.count {
                    family[step.kind] = place
                    families.append((step.kind, 0, 0, 0, 0))
                }
                families[place].ms += step.milliseconds
                families[place].flops += step.flops
                families[place].ceiling += limit
                families[place].count += 1
            }
            let total = steps.reduce(0) { $0 + $1.milliseconds }
            printOut("")
            printOut("| \(title) by operator | steps | ms | share | GFLOP/s | ceiling ms | % of ceiling |")
            printOut("|---|---:|---:|---:|---:|---:|---:|")
            for f in families.sorted(by: { $0.ms > $1.ms }) {
                printOut(
                    "| \(f.kind) | \(f.count) | \(fixed(f.ms, 3)) | \(percent(f.ms, total)) "
                        + "| \(fixed(rate(f.flops, f.ms), 1)) | \(fixed(f.ceiling, 3)) | \(percent(f.ceiling, f.ms)) |")
            }
            let flops = steps.reduce(0) { $0 + $1.flops }
            let limit = families.reduce(0) { $0 + $1.ceiling }
            printOut(
                "| total | \(steps.count) | \(fixed(total, 3)) | 100 % | \(fixed(rate(flops, total), 1)) "
                    + "| \(fixed(limit, 3)) | \(percent(limit, total)) |")
        }
        printOut("")
    }

    private static func rate(_ flops: Int, _ ms: Double) -> Double { ms > 0 ? Double(flops) / (ms * 1e6) : 0 }

    private static func percent(_ part: Double, _ whole: Double) -> String {
        whole > 0 ? "\(Int((100 * part / whole).rounded())) %" : "-"
    }

    private static func sizeText(_ bytes: Int) -> String {
        bytes >= 1 << 20 ? "\(bytes >> 20) MB" : "\(bytes >> 10) KB"
    }

    // MARK: numbers

    /// `value` with `digits` decimals (no Foundation).
    static func fixed(_ value: Double, _ digits: Int) -> String {
        var scale = 1.0
        for _ in 0..<digits { scale *= 10 }
        let scaled = Int((value * scale).rounded())
        let whole = scaled / Int(scale), fraction = String(scaled % Int(scale))
        return digits == 0
            ? "\(whole)"
            : "\(whole)." + String(repeating: "0", count: digits - fraction.count) + fraction
    }

    static func format(_ value: Double) -> String {
        let hundredths = Int((value * 100).rounded())
        let fraction = hundredths % 100
        return "\(hundredths / 100).\(fraction < 10 ? "0" : "")\(fraction)"
    }

    /// Milliseconds on the monotonic clock.
    private static func now() -> Double { SystemClock().now() * 1000 }

    /// Median wall time of `body` in milliseconds after a warm-up of a tenth of the runs.
    static func medianMilliseconds(runs: Int, _ body: () -> Void) -> Double {
        median(timesMilliseconds(runs: runs, body))
    }

    /// Median wall time and median thread CPU time of `body` in milliseconds (the same calls).
    static func medians(runs: Int, _ body: () -> Void) -> (wall: Double, cpu: Double) {
        var cpu: [Double] = []
        let wall = timesMilliseconds(runs: runs, cpu: &cpu, body)
        return (median(wall), median(cpu))
    }

    /// Wall time of each of `runs` calls of `body` in milliseconds, after a warm-up of a tenth of the runs.
    private static func timesMilliseconds(runs: Int, _ body: () -> Void) -> [Double] {
        var unused: [Double] = []
        return timesMilliseconds(runs: runs, cpu: &unused, body)
    }

    /// The same, and in `cpu` the CPU time of each call by `cpuClock` (this thread's unless told): on a loaded
    /// machine a call that waits for a core (preempted) shows it in the wall time only.
    private static func timesMilliseconds(
        runs: Int, cpu: inout [Double], cpuClock: () -> Double = threadCPU,
        _ body: () -> Void
    ) -> [Double] {
        for _ in 0..<max(5, runs / 10) { body() }
        var times = [Double](repeating: 0, count: runs)
        cpu = [Double](repeating: 0, count: runs)
        for i in 0..<runs {
            let start = now(), startCPU = cpuClock()
            body()
            times[i] = now() - start
            cpu[i] = cpuClock() - startCPU
        }
        return times
    }

    private static func threadCPU() -> Double { POSIX.clockSeconds(CLOCK_THREAD_CPUTIME_ID) * 1000 }

    /// CPU time of every thread of the process (the eyes' worker with the calling thread), in milliseconds.
    private static func processCPU() -> Double { POSIX.clockSeconds(CLOCK_PROCESS_CPUTIME_ID) * 1000 }

    private static func median(_ values: [Double]) -> Double {
        guard !values.isEmpty else { return 0 }
        let sorted = values.sorted(), n = sorted.count
        return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2
    }

    static func fillPseudoRandom(
        _ buffer: UnsafeMutableBufferPointer<Float>, low: Float, high: Float,
        seed: UInt32 = 12345
    ) {
        var state = seed
        for i in buffer.indices {
            state = state &* 1_664_525 &+ 1_013_904_223
            buffer[i] = low + (high - low) * Float(state >> 8) / Float(1 << 24)
        }
    }

    /// A 640×480 YUYV frame with smooth gradients (a camera's worth of bytes, no face).
    static func syntheticFrame() -> Frame {
        let width = 640, height = 480
        var data = [UInt8](repeating: 0, count: width * height * 2)
        for y in 0..<height {
            for x in 0..<width {
                data[(y * width + x) * 2] = UInt8(truncatingIfNeeded: 16 + (x + y) % 220)
                data[(y * width + x) * 2 + 1] = UInt8(truncatingIfNeeded: 128 + (x - y) % 64)
            }
        }
        return Frame(format: .yuyv, width: width, height: height, data: data)
    }
}
