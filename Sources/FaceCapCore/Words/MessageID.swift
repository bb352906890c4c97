/// Every sentence facecap shows a person, by name. Each is declared once, on one line of its area's table
/// (`MessageID+Screens.swift` and the others beside it): its stable id, its English (the source language), the
/// English plural when it counts and a note for translators when the text alone does not say enough.
///
/// The id is what a translation is filed under (the `msgctxt` of the gettext template, `Resources/po/facecap.pot`,
/// which `facecap generate pot` writes in the order of the cases here). Placeholders are `{name}`: a translation
/// may put them in any order and must keep every one. An entry with a plural takes its form from `{count}`.
/// Changing an English text makes every translation of it stale (it falls back to English until the
/// translation is updated), as gettext does.
public enum MessageID: CaseIterable, Sendable {
    // Keys named in the key bar and in the help.
    case keyEnter, keySpace, keyEscape, keyQuit, keyHelp, keyStart, keyTurnOnCamera, keyNoThanks, keyAskAgain
    case keyOtherCamera, keyContinue, keyTryAgain, keyLookNow, keyReplayClip, keySendNow, keySendAgain
    case keyQuitPhotoSaved, keySaveAgain, keyQuitWithoutSaving, keyTakePhoto, keyCloseHelp

    // Countdowns and progress labels.
    case countdownContinuing, countdownBackToCamera, countdownLookingAgain, countdownLookingForCamera
    case countdownSendingAgainIn, countdownSendingAgainNow, countdownManualIn, countdownNoNewPicture
    case countdownWaitingNoPicture, progressSaving, progressSendingAgain, progressSteady, progressPercent
    case progressSending, progressChecking

    // Screens.
    case tooSmallTitle, tooSmallNeeds, tooSmallFix, tutorialTitle, tutorialTipFace, tutorialTipExpression
    case tutorialTipLight, tutorialTipUncover, contextTitle, contextTurnOnYourCamera, contextTurnOnCamera
    case contextReplayClip, contextStaysHere, contextKeptServer, contextKeptLocal, dismissedTitle, dismissedStaysOff
    case dismissedAskAgain, dismissedOtherCamera, dismissedReplay, dismissedQuit, captureTitle, captureStarting
    case captureTaking, captureLooking, captureWaiting, manualPrompt, manualPromptPlain, manualTimeout
    case manualNoConfidentFace, checkingTitleServer, checkingTitleLocal, checkingPrimaryServer, checkingPrimaryLocal
    case checkingAttempt, checkingLastAttempt, checkingWaitServer, checkingWaitLocal, checkingCancelServer
    case checkingCancelLocal, savingTitle, successTitle, successSavedTo, successReport, retryTitle
    case retryAttemptsLeft, retryNotPassed, finalTitle, finalNotPassed, finalSubmitted, lostTitle, lostTitleClip
    case lostKeepsLooking, deniedTitle, busyTitle, noCameraTitle, unreachableTitle, unreachableKept, refusedTitle
    case refusedHTTP, refusedFix, saveFailedTitle, saveFailedKept

    // The ? help.
    case helpAbout, helpFollow, helpHoldStill, helpMirror, helpManual, helpKeys, helpTitle, plainAlso

    // Guidance, by guidance code (the live message on the capture screen).
    case guidanceNoFace, guidanceMultipleFaces, guidanceFaceNotVisible, guidanceFaceCovered, guidanceTooDark
    case guidanceTooBright, guidanceMoveCloser, guidanceMoveBack, guidanceMoveLeft, guidanceMoveRight
    case guidanceMoveUp, guidanceMoveDown, guidanceLookStraight, guidanceKeepHeadLevel, guidanceUnevenLight
    case guidanceEyesClosed, guidanceBlurry, guidanceHoldStill, guidanceReady

    // Gentler guidance for a measure only just past its limit (the code is the same).
    case guidanceSlightTooDark, guidanceSlightTooBright, guidanceSlightUnevenLight, guidanceSlightLookStraight
    case guidanceSlightKeepHeadLevel, guidanceSlightMoveLeft, guidanceSlightMoveRight, guidanceSlightMoveUp
    case guidanceSlightMoveDown

    // Advice for a checker's reason code (the Retry screen).
    case adviceNoFace, adviceMultipleFaces, adviceFaceNotVisible, adviceFaceCovered, adviceTooDark, adviceTooBright
    case adviceMoveCloser, adviceMoveBack, adviceOffCentre, adviceLookStraight, adviceKeepHeadLevel
    case adviceUnevenLight, adviceEyesClosed, adviceBlurry, adviceHoldStill, adviceFaceUnclear, adviceUnknown

    // Lines on standard error after the screen is closed (and in --plain).
    case reportSaved, reportManualReview, reportNotValidated, reportNotSaved, reportNotSavedQuit, reportRefused
    case reportRefusedHTTP, warningPrefix, reportCancelled

    // Camera problems: the wizard's lines that say what the camera's sentence says, in parts.
    case cameraDevice, cameraYourGroups, cameraGroupsNone, cameraAddedAfterLogin, cameraFixGroup
    case cameraThisTerminalOnly, cameraNoHolderVisible, cameraInUseBy, cameraCloseIt, cameraNoneReplayClip
    case cameraReplayRecorded

    // The camera layer's sentences (also `facecap devices` and `record`).
    case cameraErrorNoCamera, cameraErrorNoSuchDevice, cameraErrorNotCapture, cameraErrorDenied
    case cameraErrorDeniedPending, cameraErrorBusy, cameraErrorBusyNoneVisible, cameraErrorUnsupported
    case cameraErrorNoFormats, cameraErrorFormatNotOffered, cameraConvertedFormat, cameraErrorDisconnected
    case cameraErrorStalled, cameraErrorNoBandwidth, cameraErrorIO, cameraErrorSystem, cameraErrorClosed
    case accessOwner, accessYouAreIn, accessNoGroups, clipEnded, clipEndedCut, clipUnreadable

    // The server could not be reached (the Connection error screen); `detail` is curl's text.
    case netDetail, netCancelled, netReplyTooLarge, netDNS, netProxyDNS, netRefused, netNoRoute, netCannotConnect
    case netConnectTimeout, netTimedOut, netCertificate, netTLS, netReset, netBroke, netNoReply, netCutShort
    case netBadAddress, netFailed, netCannotBuild, netCannotStart, serverNotContract, serverBusy, serverFailed
    case serverFailedSaying, serverRedirects, serverRedirectsTo, serverUnexpected, serverRefusedToken
    case serverNoEndpoint, serverTooLarge, serverRefusedRequest, checkCannotStart, netPlainHTTP

    // Files.
    case inputMissing, inputDenied, inputDirectory, inputNotRegular, inputTooLarge, inputUnreadable
    case inputOutOfMemory, outputNoFolder, outputDenied, outputReadOnly, outputDiskFull, outputIsDirectory
    case outputNotFolder, outputExists, outputFrame, outputEncoding, outputSystem, outputCannotCreate
    case filePathProblem

    // Usage errors (exit 64) and the terminal check.
    case usageSeeHelp, usageUnknownCommand, usageUnknownOption, usageNeedsValue, usageTakesNoValue, usageGivenTwice
    case usageWholeNumber, usageNumber, usageSize, usageFormat, usageUnexpectedArgument, usageInputOrDevice
    case usageLoopNeedsInput, usageDeviceNeedsPath, usageOutputNeedsFolder, usageColor, usageGraphics
    case usageEventsNeedsFile, usageEventsStdout, usageUnknownLanguage, usageServerURL, usageServerNoHost
    case usageServerHTTPS, usageClipIgnoresMode, usageTokenControl, usageTokenInClear, usageNeedsTerminal
    case usageTerminalType, terminalUnset, terminalCannotDraw

    // The command line: --help, the options, the subcommands' lines and errors, the face models, a server's reply.
    case usageUnknownOptionDidYouMean, usageUnknownCommandDidYouMean, usageUnexpectedOperand, separatorList
    case listPair, separatorClause, separatorLabel, unitMegabytes, unitKilobytes, unitBytes, contextTitleClip
    case keyPlayClip, helpTagline, cliTitleLine, cliUsage, cliOptions, cliKeysLine, cliExitCodesLine, cliTryClip
    case cliMore, cliRunWizard, cliHelpOrVersion, cliKeySpace, cliKeyEnter, cliKeyQuit, cliKeyHelp, cliKeyDevice
    case exitLabelSuccess, exitLabelManualReview, exitLabelUsage, exitLabelNoInput, exitLabelNoCamera
    case exitLabelServerUnreachable, exitLabelPermissionDenied, exitLabelFailure, exitLabelCancelled, optionDevice
    case optionInput, optionLoop, optionOutput, optionServer, optionInsecureHTTP, optionAttempts, optionManualAfter
    case optionNoTutorial, optionNoMirror, optionColor, optionGraphics, optionSize, optionFormat, optionFps
    case optionEvents, optionPlain, optionLang, optionHelp, optionVersion, optionDevicesJSON, optionAnalyzeJSON
    case optionThresholds, optionSeconds, optionBenchJSON, optionRuns, optionProfile, optionBenchImage
    case optionBenchFormats, commandDevicesSummary, commandDevicesAbout, commandAnalyzeSummary, commandAnalyzeAbout
    case commandRecordSummary, commandRecordAbout, commandBenchSummary, commandBenchAbout, commandGenerateSummary
    case commandGenerateAbout, analyzeNeedsFile, analyzeClipHeader, analyzeClipCut, analyzeClipCaptured
    case analyzeClipNotCaptured, benchNoFiles, benchMedianOf, benchNoFace, benchFormatsImage, analyzeNoFace
    case analyzeFaces, analyzeFrameAt, analyzePhotoLine, analyzeFaceLine, analyzeTracked, analyzeKeypoints
    case analyzeLandmarks, recordNeedsFile, recordOneFile, recordStarting, recordStartingAdjusted, recordNoFrames
    case recordWrote, recordDropped, recordUndecodable, recordStoppedEarly, generateTakesOne, generateTakesOneNot
    case devicesUnnamed, devicesDriverBus, devicesCompressed, devicesNoSizes, devicesNoFormats, devicesConverted
    case devicesRange, devicesAnySize, devicesSteps, devicesRankLine, devicesControls, devicesControlRange
    case devicesControlMenu, devicesRankColour, devicesRankInfraredName, devicesRankInfraredGrey
    case devicesRankInfraredMJPEG, devicesRankRawBayer, devicesRankUnreadable, devicesRankVirtual, devicesRankMode
    case devicesRankSlowMode, devicesRankInfraredInterface, devicesRankInfraredChroma

    // A MIPI camera (raw Bayer nodes only): what it is, and what each distribution can do.
    case cameraErrorRawBayerOnly, mipiTitle, mipiWhat, mipiIPU7, mipiDebian12, mipiDebian13, mipiUbuntu2404
    case mipiUnderAdapter, devicesRawBayerOnly, modelCannotUse, modelRefetch, modelFolder, modelFolderMissing
    case modelFolderAdvice, modelUnreadable, modelTooLarge, modelNotFound, modelNotFoundAdvice, modelCorrupted
    case modelWrongDetector, modelWrongLandmarks, modelWrongHand, modelWrongPalm, modelWrongIris, replyEmpty
    case replyNotJSON, replyNotObject, replyNoResult, replyBadResult, replyReasonNotString, replyReasonsNotArray
    case replyMessageNotString

    // The manual page (facecap generate man).
    case manDescription1, manDescription2, manDescription3, manOptionsIntro, manKeysIntro, manErrors, manSeeAlso
    case manExitSuccess, manExitManualReview, manExitUsage, manExitNoInput, manExitNoCamera
    case manExitServerUnreachable, manExitPermissionDenied, manExitFailure, manExitCancelled, manEnvModelDir
    case manEnvToken, manEnvNoColor, manEnvTerm, manEnvColorterm, manEnvLang, manEnvProxy, manFileModels
    case manFileOutput, manFilePhoto, manFileReport, manFileLocale, manFileCamera, manExampleWizard, manExamplePlain
    case manExampleClip, manExampleRecord, manExampleAnalyze, manExampleFfmpeg

    // The server checked before the camera opens (the pre-flight), and server answers named for what they are.
    case usageServerPort, serverCheckingTitle, serverCheckingPrimary, serverErrorTitle, serverCheckTitleToken
    case serverCheckTitleForbidden, serverCheckTitleAddress, serverCheckTitleRefused, serverCheckFixUnreachable
    case serverCheckFixUnreachablePlain, serverCheckFixServerError, serverCheckFixServerErrorPlain
    case serverCheckAnswered, serverCheckFixTokenMissing, serverCheckFixTokenRefused, serverCheckFixForbidden
    case serverCheckFixAddress, serverCheckFixOther, keyCheckAgain, keyTakePhotoAnyway, countdownCheckingAgainIn
    case countdownCheckingNow, reportServerCheck, reportServerAnswered, refusedFixAddress, refusedFixOther

    // Camera and clip screens: each fact once, words that fit a replayed clip.
    case cameraDeviceOwned, cameraElsewhere, cameraNoneDetail, cameraLooksAgain, clipUnreadableTitle
    case dismissedTitleClip, dismissedClipNotPlayed

    // Key d: choosing another camera.
    case pickerTitle, pickerLooking, pickerPrompt, pickerCurrent, pickerNoOther, pickerNone, keyChooseCamera
    case keyLookAgain, keyBack

    // Could not save the photo: another folder, typed.
    case keySaveElsewhere, keySaveHere, saveFolderOffer, saveFolderPrompt

    // Why a path is no camera (`NotCaptureReason`), and why a frame could not be encoded (`JPEGEncodingError`).
    case cameraNotCaptureNotDevice, cameraNotCaptureDirectory, cameraNotCaptureNoDriver, cameraNotCaptureNoV4L2
    case cameraNotCaptureNoVideo, outputEncodingNoPicture

    // What is wrong with a photo's or a clip's bytes (`MediaDataError`): the kinds, then each kind's reasons.
    case mediaEmpty, mediaUnknownFormat, mediaTruncated, mediaMalformed, mediaTooLarge, mediaUnsupported
    case mediaCutNoPixels, mediaCutPixelBytes, mediaCutFewerNumbers, mediaCutSample, mediaCutHeader
    case mediaCutFrameLine, mediaCutHeaderLine, mediaCutFrame, mediaCutImage
    case mediaFieldWidth, mediaFieldHeight, mediaFieldMaxval
    case mediaTagWidth, mediaTagHeight, mediaTagFrameRate, mediaTagAspectRatio
    case mediaBadPNMSignature, mediaBadMaxval, mediaBadAfterMaxval, mediaBadSample, mediaBadSampleAbove
    case mediaBadHeader, mediaBadY4MSignature, mediaBadFrameRate, mediaBadInterlacing, mediaBadColorRange
    case mediaBadNoSize, mediaBadFrameWord, mediaBadFrameLine, mediaBadNumber, mediaBadRatio, mediaBadHeaderLine
    case mediaBadFrameSize, mediaBadNoFrames, mediaBadZeroSize, mediaBadDecoder
    case mediaNoPBM, mediaNoColorSpace, mediaNoStore, mediaNoMemory
    case mediaPhotoNotClip, mediaClipNotPhoto, mediaForeignImage

    // Why a clip writer refuses a frame (`ClipFrameMismatch`), inside the brackets of output.frame.
    case outputFrameClipShape, outputFrameClosed
}

/// One message's words, declared once in its area's table.
public struct Message: Sendable {
    /// The stable id, "area.name": the `msgctxt` a translation is filed under.
    public let id: String
    /// The English text, the source every translation is made from.
    public let english: String
    /// The English plural, for the entries that count (`{count}` chooses the form).
    public let plural: String?
    /// A note for translators, when the text alone does not say enough.
    public let note: String?

    init(_ id: String, _ english: String, plural: String? = nil, note: String? = nil) {
        self.id = id
        self.english = english
        self.plural = plural
        self.note = note
    }
}

extension MessageID {
    /// The areas' tables, one entry a case (`CatalogueTests` checks none is missing or declared twice), by the
    /// name of their file: `MessageID+Screens.swift` declares them, `Words+Screens.swift` holds the typed
    /// constructors generated from them (`TypedWordsTests`).
    static let areas: [(name: String, messages: [MessageID: Message])] = [
        ("Screens", screensMessages), ("Guidance", guidanceMessages), ("Camera", cameraMessages),
        ("CommandLine", commandLineMessages), ("Manual", manualMessages), ("Server", serverMessages),
        ("Media", mediaMessages),
    ]

    /// Every message's declaration.
    static let table: [MessageID: Message] = areas.reduce(into: [:]) { all, area in
        all.merge(area.messages) { first, _ in first }
    }

    /// The ids, for `init(rawValue:)`.
    private static let byID: [String: MessageID] = Dictionary(allCases.map { (table[$0]!.id, $0) }) { a, _ in a }

    /// This message's declaration.
    public var message: Message { Self.table[self]! }

    /// The stable id, "area.name": what a translation is filed under.
    public var rawValue: String { message.id }

    /// The message with this id, if there is one.
    public init?(rawValue: String) {
        guard let id = Self.byID[rawValue] else { return nil }
        self = id
    }

    /// The English text, the source every translation is made from.
    public var english: String { message.english }

    /// The English plural, for the entries that count (`{count}` chooses the form).
    public var englishPlural: String? { message.plural }

    /// A note for translators, when the text alone does not say enough.
    public var note: String? { message.note }
}
