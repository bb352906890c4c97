import FaceCapCore

#if canImport(Glibc)
import Glibc
#endif

/// Opens the camera or clip the wizard reads from.
public protocol FrameSourceOpener: AnyObject {
    /// Opens the current device (or the clip again, from its start).
    func open() throws(CameraProblem) -> FrameSource
    /// The capture devices to choose from (key d), as `facecap devices` lists them; none for a clip.
    func cameras() -> [CameraChoice]
    /// Uses `path` for the next `open`.
    func choose(_ path: String)
    /// The run ends, its source closed: whatever is left to put back (a camera's controls) is put back.
    func finish()
}

extension FrameSourceOpener {
    public func finish() {}
}

extension CameraProblem: Error {}

/// The wizard's imperative shell: the loop and the effects. One `poll()` over the signal pipe, the front end's
/// input, the validation pipe and the camera; frames go through the `FramePipeline` into the flow, the flow's
/// effects are performed here, the front end draws the flow's screen, and `FrameTimings` keeps the frame times.
public final class WizardSession {
    private var wizard: Wizard
    private let frontEnd: WizardFrontEnd
    private let events: EventLog?
    private let pipeline: FramePipeline
    private let timings = FrameTimings()
    private let photos: WizardPhotos
    private let opener: FrameSourceOpener
    private let clock: any MonotonicClock
    private let startTime: Double

    private var source: FrameSource?
    private var analysing = false
    private var photo: CapturedPhoto?
    /// How many photos were taken: the front end's way to know a new photo (`ShownPhoto.generation`).
    private var photoGeneration = 0
    private var exitCode: ExitCode?
    private var reports: [String] = []
    private var lastModel: ScreenModel?
    /// Events produced while the effects of another are performed, handled once those are done.
    private var pendingEvents: [WizardEvent] = []
    private var readerGone = false
    private var handlingEvent = false
    /// `framesRead` when the front end was last handed the newest frame: a frame read since is news to it.
    private var framesHanded = -1
    /// Frames analysed and frames read (each shown; `AnalysisCadence` says which are analysed).
    public var framesAnalysed: Int { pipeline.framesAnalysed }
    public var framesRead: Int { pipeline.framesRead }
    /// Per analysed frame, the time from its arrival (the camera readable, or a clip frame due) to its
    /// guidance handled: the frame pacing the soak test reports (`FACECAP_FRAME_STATS`).
    public var frameLatency: LatencyHistogram { timings.latency }
    /// Where `writeFrameStats` goes while the wizard runs (`FACECAP_FRAME_STATS`): every `frameStatsInterval`
    /// seconds of analysed frames the statistics so far (FrameTimings, Tests/Kernel/guest.sh).
    public var frameStatsPath: String? {
        get { timings.path }
        set { timings.path = newValue }
    }
    public var frameStatsInterval: Double {
        get { timings.interval }
        set { timings.interval = newValue }
    }

    /// Stops the process until SIGCONT (Ctrl-Z); tests put in what happens while it is stopped.
    var suspendProcess: () -> Void = { Signals.suspendSelf() }

    /// The longest the loop sleeps: countdowns on screen move at least this often.
    private let tickInterval = 0.25

    public init(
        settings: WizardSettings, frontEnd: WizardFrontEnd, events: EventLog?, tracker: SharedFaceTracker,
        thresholds: AnalyzerThresholds, photos: WizardPhotos, opener: FrameSourceOpener,
        clock: any MonotonicClock = SystemClock(), startTime: Double? = nil
    ) {
        wizard = Wizard(settings: settings)
        self.frontEnd = frontEnd
        self.events = events
        pipeline = FramePipeline(tracker: tracker, thresholds: thresholds)
        self.photos = photos
        self.opener = opener
        self.clock = clock
        // Event times count from the program's start when the caller knows it (models load before the session).
        self.startTime = startTime ?? clock.now()
    }

    /// Runs the wizard to its end and returns the exit code. The front end is closed before it returns, and
    /// lines for people (where the photo went, what failed) are then printed on standard error.
    public func run() -> ExitCode {
        if let size = frontEnd.size { handle(.resized(columns: size.columns, rows: size.rows)) }
        handle(.start)
        if exitCode == nil { render() }
        while exitCode == nil {
            waitAndDispatch()
            // Drawn before the tick, so a screen that ends at once (plain mode's Success) is still shown.
            if exitCode == nil { render() }
            if exitCode == nil { handle(.tick) }
            if exitCode == nil { render() }
            if exitCode == nil, !readerGone, frontEnd.outputClosed || events?.readerGone == true {
                // Nobody reads the lines or events any more: end the way a hang-up does (nothing is lost).
                readerGone = true
                handle(.stop)
            }
        }
        shutdown()
        for line in reports { POSIX.writeAll(2, "facecap: " + line + "\n") }
        return exitCode ?? .failure
    }

    private var now: Double { clock.now() - startTime }

    // MARK: - The loop

    private func waitAndDispatch() {
        var descriptors = [pollfd(fd: Signals.descriptor, events: Int16(POLLIN), revents: 0)]
        let inputIndex = frontEnd.inputDescriptor.map { fd -> Int in
            descriptors.append(pollfd(fd: fd, events: Int16(POLLIN), revents: 0))
            return descriptors.count - 1
        }
        descriptors.append(pollfd(fd: photos.descriptor, events: Int16(POLLIN), revents: 0))
        let photosIndex = descriptors.count - 1
        let serverCheckIndex = photos.serverCheckDescriptor.map { fd -> Int in
            descriptors.append(pollfd(fd: fd, events: Int16(POLLIN), revents: 0))
            return descriptors.count - 1
        }
        var cameraIndex: Int?
        var timeout = tickInterval
        if let deadline = wizard.nextDeadline { timeout = min(timeout, max(0, deadline - now)) }
        if analysing, let source {
            if let fd = source.pollDescriptor {
                descriptors.append(pollfd(fd: fd, events: Int16(POLLIN), revents: 0))
                cameraIndex = descriptors.count - 1
            } else if let due = source.secondsUntilNextFrame {
                timeout = min(timeout, max(0, due))
            }
        }
        let ready = descriptors.withUnsafeMutableBufferPointer { buffer in
            poll(buffer.baseAddress, nfds_t(buffer.count), Int32((timeout * 1000).rounded(.up)))
        }
        if ready < 0 && errno != EINTR { return }
        // Signals first: a stop must win over anything else that arrived with it.
        if ready > 0 || ready < 0 { handleSignals() }
        guard exitCode == nil else { return }
        if let inputIndex, descriptors[inputIndex].revents != 0 {
            for input in frontEnd.readInput() {
                switch input {
                case .key(let key): handle(.key(key))
                case .resized(let columns, let rows): handle(.resized(columns: columns, rows: rows))
                }
                if exitCode != nil { return }
            }
        }
        if descriptors[photosIndex].revents != 0 {
            for outcome in photos.outcomes() {
                handle(.validation(outcome))
                if exitCode != nil { return }
            }
        }
        if let serverCheckIndex, descriptors[serverCheckIndex].revents != 0 {
            for answer in photos.serverCheckAnswers() {
                handle(.serverChecked(answer))
                if exitCode != nil { return }
            }
        }
        let cameraReady: Bool
        if let cameraIndex {
            cameraReady = descriptors[cameraIndex].revents != 0
        } else {
            cameraReady = (source?.secondsUntilNextFrame ?? 1) <= 0
        }
        if analysing, cameraReady || (cameraIndex != nil && ready == 0) {
            // A camera is also read when poll timed out: its own stall detection runs inside nextFrame.
            // A clip frame arrived when it fell due; a camera frame when poll returned.
            pumpFrame(arrivedAt: now + min(0, source?.secondsUntilNextFrame ?? 0))
        }
    }

    private func handleSignals() {
        for signal in Signals.drain() {
            switch signal {
            case SIGINT, SIGTERM, SIGHUP, SIGQUIT: handle(.stop)
            case SIGWINCH:
                if let size = frontEnd.resize() { handle(.resized(columns: size.columns, rows: size.rows)) }
                lastModel = nil
            case SIGTSTP:
                // The camera as facecap found it while stopped: its controls written back, read again once continued
                // (`Camera.giveBackControls`).
                (source as? Camera)?.giveBackControls()
                frontEnd.suspend()
                suspendProcess()
                frontEnd.resume()
                if let size = frontEnd.resize() { handle(.resized(columns: size.columns, rows: size.rows)) }
                lastModel = nil
            case SIGCONT:
                // Continued without our own SIGTSTP (e.g. `kill -STOP`, then `fg`): redraw everything.
                frontEnd.resume()
                lastModel = nil
            default:
                break
            }
            if exitCode != nil { return }
        }
    }

    /// Writes the frame pacing so far to `path` (FrameStatsWriter), for the soak tests.
    public func writeFrameStats(to path: String) throws(OutputFileError) {
        try timings.write(to: path, at: now)
    }

    private func pumpFrame(arrivedAt arrival: Double) {
        guard let source else { return }
        let read: FramePipeline.Read
        do throws(FrameSourceError) {
            read = try pipeline.next(from: source)
        } catch {
            handle(.cameraLost(Self.problem(error)))
            return
        }
        switch read {
        case .none:
            return
        case .skipped, .shownOnly:
            // The picture moves on between the frames analysed, and while the validator still has the face models.
            timings.framesRead = pipeline.framesRead
            return
        case .analysed(let guidance):
            timings.framesRead = pipeline.framesRead
            handle(.frameAnalyzed(guidance))
        }
        timings.record(now - arrival, now: now)
    }

    // MARK: - The flow

    /// Handles `event` and performs its effects. An event an effect produces (the camera opened, the photo
    /// saved or taken) waits until all the effects of the event before it are done, so events are written in
    /// the order the flow made them: a screen the flow left is never announced after the one it went to, and
    /// `exit` is always the last event.
    private func handle(_ event: WizardEvent) {
        pendingEvents.append(event)
        guard !handlingEvent else { return }
        handlingEvent = true
        defer { handlingEvent = false }
        while !pendingEvents.isEmpty {
            let next = pendingEvents.removeFirst()
            let time = now
            for effect in wizard.handle(next, at: time) {
                perform(effect, at: time)
            }
        }
    }

    private func perform(_ effect: WizardEffect, at time: Double) {
        switch effect {
        case .openCamera:
            closeSource()
            do throws(CameraProblem) {
                source = try opener.open()
                handle(.cameraOpened)
            } catch {
                handle(.cameraFailed(error))
            }
        case .listCameras:
            handle(.camerasListed(opener.cameras()))
        case .chooseCamera(let path):
            opener.choose(path)
        case .closeCamera:
            closeSource()
        case .startAnalysis(let gate):
            pipeline.reset(mustClear: gate.mustClear, awaitChange: gate.awaitChange)
            analysing = true
        case .stopAnalysis:
            analysing = false
        case .takePhoto(let mode):
            takePhoto(mode)
        case .validate(let request):
            guard let photo else { return }
            photos.startValidation(of: photo, request: request)
        case .cancelValidation:
            photos.cancelValidation()
        case .checkServer:
            // Nothing to ask without a server: the camera may open.
            if !photos.startServerCheck() { handle(.serverChecked(.ready)) }
        case .save(let verdict):
            guard let photo else { return }
            do throws(OutputFileError) {
                handle(.photoSaved(try photos.save(photo, verdict: verdict)))
            } catch {
                handle(.saveFailed(message: error.message))
            }
        case .saveIn(let directory, let verdict):
            guard let photo else { return }
            do throws(OutputFileError) {
                handle(.photoSaved(try photos.save(photo, verdict: verdict, in: directory)))
            } catch {
                handle(.saveFailed(message: error.message))
            }
        case .discardPhoto:
            photo = nil
        case .emit(let record):
            events?.write(record, t: time)
        case .report(let line):
            reports.append(line.text)
        case .exit(let code):
            exitCode = code
        }
    }

    private func takePhoto(_ mode: CaptureMode) {
        guard let (chosen, analysis, faces) = pipeline.photoFrame(for: mode) else {
            handle(.photoFailed)
            return
        }
        do throws(JPEGEncodingError) {
            let request = wizard.currentRequest
            photo = try photos.take(
                chosen, analysis: analysis, faces: faces, mode: mode, attempt: request.attempt,
                isFinal: request.isFinal, source: source)
            photoGeneration += 1
        } catch {
            handle(.photoFailed)
            return
        }
        handle(.photoTaken(mode: mode, width: chosen.width, height: chosen.height))
    }

    private func closeSource() {
        source?.close()
        source = nil
    }

    /// Hands the front end the screen whenever something in it is new: the screen, a frame read (with the newest
    /// frame while the screen shows the live picture) or a line it holds back that is due. What to draw of it, and
    /// when, the front end alone decides: the full-screen one paces the preview to what the terminal takes
    /// (`PreviewPacer`), `--plain` says lines and no pictures (pacing in one place, issue 33).
    private func render() {
        let time = now
        let model = wizard.screen(at: time)
        var preview: Frame?
        if case .livePreview = model.picture { preview = pipeline.newest }
        let newFrame = preview != nil && pipeline.framesRead != framesHanded
        guard model != lastModel || newFrame || frontEnd.hasDueOutput else { return }
        let shown = model.picture == .photo ? photo.map { ShownPhoto($0.frame, generation: photoGeneration) } : nil
        frontEnd.render(model, preview: preview, photo: shown)
        if preview != nil { framesHanded = pipeline.framesRead }
        lastModel = model
    }

    private func shutdown() {
        photos.shutdown()
        closeSource()
        opener.finish()
        frontEnd.close()
        events?.close()
    }

    /// The flow's view of a source that stopped.
    static func problem(_ error: FrameSourceError) -> CameraProblem {
        switch error {
        case .camera(let camera):
            return CameraProblem(camera)
        case .clipEnded(let ended):
            return CameraProblem(kind: .lost, message: ended.message, exitCode: ended.exitCode, recoverable: false)
        case .unreadable(let message, let exitCode):
            return CameraProblem(kind: .lost, message: message, exitCode: exitCode, recoverable: false)
        }
    }
}
