extension CameraProblem {
    /// What a screen says, each fact once: the details when there are any (they say what the one-line message
    /// says, in parts), else the message.
    var screenLines: [String] { details.isEmpty ? [message] : details }
}

/// A camera that cannot be opened (denied, busy, none) or that was lost.
extension Wizard {
    func unavailableScreen(_ link: CameraLink, now: Double) -> ScreenModel {
        let title: String
        switch link.problem.kind {
        case .permissionDenied: title = Words.text(.deniedTitle)
        case .busy: title = Words.text(.busyTitle)
        case .noCamera, .lost:
            // The MIPI camera shows the No camera screen (its name, `stateName`, is SPEC's) with a title of its own.
            if case .rawBayerOnly? = link.problem.error {
                title = Words.text(.mipiTitle)
            } else {
                title = Words.text(settings.sourceIsClip ? .clipUnreadableTitle : .noCameraTitle)
            }
        }
        let countdown =
            link.awaitingAnswer
            ? Words.text(.countdownLookingForCamera)
            : link.nextTry.map { Words.countdownLookingAgain(seconds: Messages.secondsText($0 - now)) }
        return ScreenModel(
            name: stateName, title: title, tone: .error, lines: link.problem.screenLines, countdown: countdown)
    }

    func lostScreen(_ link: CameraLink, now: Double) -> ScreenModel {
        var lines = link.problem.screenLines
        var countdown: String?
        if link.problem.recoverable {
            lines.append(Words.text(.lostKeepsLooking))
            countdown =
                link.nextTry.map { Words.countdownLookingAgain(seconds: Messages.secondsText($0 - now)) }
                ?? Words.text(.countdownLookingForCamera)
        }
        return ScreenModel(
            name: stateName, title: Words.text(settings.sourceIsClip ? .lostTitleClip : .lostTitle),
            tone: .error, lines: lines, countdown: countdown)
    }
}
