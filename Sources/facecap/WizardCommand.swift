import FaceCapCore
import FaceCapIO
import FaceCapTerminal

#if canImport(Glibc)
import Glibc
#endif

/// `facecap [options]`: the capture wizard.
enum WizardCommand {
    static func run(_ arguments: [String], startTime: Double) throws -> ExitCode {
        let parsed = try parseArguments(arguments, options: WizardConfiguration.options)
        if parsed.has("help") {
            printOut(helpText())
            return .success
        }
        if parsed.has("version") {
            printOut("facecap \(facecapVersion)")
            return .success
        }
        let environment = Environment.values(Environment.wizardNames)
        let configuration = try WizardConfiguration(parsed, environment: environment, languages: Catalogues.available())
        for warning in configuration.warnings { printError(Words.warningPrefix(message: warning)) }
        // Errors in the order a person fixes them: the command line (above), then what it names (the clip, the
        // token for the server), then where facecap runs (the terminal). A clip is checked before any screen shows,
        // so a wrong path is one line and exit 66, not a screen, and it is said before a missing terminal.
        var prepared: FrameSource?
        if case .clip(let path, let loop) = configuration.source {
            prepared = try ClipSource(path: path, loop: loop)
        }
        let token =
            try configuration.serverURL.map { url throws -> BearerToken? in
                let token = try BearerToken.from(environment: environment)
                try TokenInClearError.check(url: url, token: token)
                return token
            } ?? nil
        if !configuration.plain { try checkTerminal(environment) }
        // From here on Ctrl-C, SIGTERM and SIGHUP end the wizard through its normal path: the camera is released
        // and the terminal restored.
        Signals.install()
        // A crash of the flow (a trap, SIGSEGV… in any thread) still writes back the camera controls facecap changed.
        FatalSignals.install()
        // The digests first: each file is read once more and dropped before the models are loaded, so those
        // bytes never sit beside the models' (the start-up peak of the wizard's memory, SPEC §10).
        let digests = try ModelFiles.digests()
        let tracker = try loadTracker()
        // The models' bytes are freed now: hand the holes back to the system (glibc keeps freed heap otherwise).
        MemoryRelease.trim()
        var thresholds = AnalyzerThresholds()
        thresholds.manualAfter = configuration.manualAfter
        let events = try configuration.eventsPath.map { path throws(OutputFileError) in try EventLog(path: path) }
        let photos = try makePhotos(
            configuration, tracker: tracker, digests: digests, thresholds: thresholds,
            token: token)
        var camera = CameraConfiguration(
            width: configuration.width, height: configuration.height,
            frameRate: configuration.frameRate)
        camera.pixelFormat = configuration.pixelFormat
        camera.automaticSize = configuration.automaticSize
        let opener = SourceOpener(
            source: configuration.source, camera: camera, prepared: prepared,
            memory: CameraMemory.standard(environment: environment))
        let frontEnd: WizardFrontEnd
        if configuration.plain {
            frontEnd = PlainFrontEnd(output: configuration.eventsPath == "-" ? 2 : 1)
        } else {
            // The terminal as the person had it: what a crash puts back.
            FatalSignals.keepTerminal(1)
            frontEnd = try CursesFrontEnd(configuration: configuration, environment: environment)
        }
        var settings = Self.settings(configuration)
        settings.sendsToken = (environment["FACECAP_TOKEN"] ?? "").isEmpty == false
        let session = WizardSession(
            settings: settings, frontEnd: frontEnd, events: events,
            tracker: tracker, thresholds: thresholds, photos: photos, opener: opener,
            startTime: startTime)
        // The frame pacing, for the soak tests (tools/soak.py, Tests/Kernel/guest.sh): while it runs and at the end.
        let statsPath = getenv("FACECAP_FRAME_STATS").map { String(cString: $0) }
        session.frameStatsPath = statsPath
        let code = session.run()
        FatalSignals.keepTerminal(nil)
        if let statsPath { try? session.writeFrameStats(to: statsPath) }
        return code
    }

    /// The five face models' one tracker, for the live analysis and the built-in validator alike. The models
    /// (their parsed bytes, 13.1 MB) are released when this returns: the interpreters hold packed copies.
    static func loadTracker() throws(ModelError) -> SharedFaceTracker {
        let models = try ModelFiles.loadAllFaceModels()
        return try SharedFaceTracker(
            detector: models.detector, landmarks: models.landmarks, iris: models.iris,
            hand: models.hand, palm: models.palm)
    }

    /// The checker (a server, or the built-in validator on the live analysis's `tracker`) and the photo store,
    /// whose folder is made (0700) now so that a folder facecap cannot write to is said before the camera opens.
    /// The built-in validator holds the photo to `thresholds`, the live analyzer's own table: one gate.
    static func makePhotos(
        _ configuration: WizardConfiguration, tracker: SharedFaceTracker,
        digests: [PhotoReport.ModelDigest], thresholds: AnalyzerThresholds,
        token: BearerToken?
    ) throws -> WizardPhotos {
        let checker: any PhotoChecker
        if let url = configuration.serverURL {
            checker = HTTPValidator(
                .init(
                    url: url, token: token, version: facecapVersion,
                    allowInsecureHTTP: configuration.insecureHTTP))
        } else {
            checker = BuiltInChecker(sharing: tracker, validator: LocalValidator(thresholds: thresholds))
        }
        let store = PhotoStore(directory: configuration.outputDirectory)
        try store.prepare()
        return try WizardPhotos(
            checker: checker, validator: configuration.serverURL == nil ? .builtIn : .server,
            store: store, version: facecapVersion, models: digests)
    }

    /// The flow's settings from the command line.
    static func settings(_ configuration: WizardConfiguration) -> WizardSettings {
        var settings = WizardSettings()
        settings.attempts = configuration.attempts
        settings.showTutorial = configuration.showTutorial
        settings.plain = configuration.plain
        settings.manualAfter = configuration.manualAfter
        settings.usesServer = configuration.serverURL != nil
        settings.serverURL = configuration.serverURL
        // The server is asked before the camera opens, so a wrong address or token is found before the selfie.
        settings.checkServer = configuration.serverURL != nil
        settings.outputDirectory = configuration.outputDirectory
        switch configuration.source {
        case .clip(let path, _):
            settings.sourceIsClip = true
            settings.source = .clip(path)
        case .camera(let path):
            settings.source = path.map(SourceName.camera) ?? .defaultCamera
        }
        return settings
    }

    /// The full-screen wizard needs a terminal on both ends and a terminal type that can address the screen.
    static func checkTerminal(_ environment: [String: String]) throws(UsageError) {
        let term = environment["TERM"] ?? ""
        if isatty(0) != 1 || isatty(1) != 1 {
            throw UsageError(Words.text(.usageNeedsTerminal))
        }
        if term.isEmpty || term == "dumb" {
            throw UsageError(Words.usageTerminalType(term: term.isEmpty ? "unset" : term))
        }
    }

    static func helpText() -> String { Documentation.help() }
}
