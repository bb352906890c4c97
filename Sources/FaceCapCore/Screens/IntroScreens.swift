/// The tutorial, the camera question and what is left when it is declined.
extension Wizard {
    func tutorialScreen() -> ScreenModel {
        ScreenModel(
            name: stateName, title: Words.text(.tutorialTitle), picture: .tutorialIllustration,
            lines: Messages.tutorialTips)
    }

    func contextScreen() -> ScreenModel {
        let source: String
        switch settings.source {
        case .defaultCamera: source = Words.text(.contextTurnOnYourCamera)
        case .camera(let path): source = Words.contextTurnOnCamera(path: path)
        case .clip(let path): source = Words.contextReplayClip(path: path)
        }
        var lines = [source, Words.text(.contextStaysHere)]
        if let server = settings.serverURL {
            lines.append(Words.contextKeptServer(directory: settings.outputDirectory, server: server))
        } else {
            lines.append(Words.contextKeptLocal(directory: settings.outputDirectory))
        }
        return ScreenModel(
            name: stateName, title: Words.text(settings.sourceIsClip ? .contextTitleClip : .contextTitle),
            lines: lines)
    }

    func dismissedScreen() -> ScreenModel {
        guard !settings.sourceIsClip else {
            // A clip is what was declined: neither another camera nor "replay a clip" is an answer.
            return ScreenModel(
                name: stateName, title: Words.text(.dismissedTitleClip),
                lines: [
                    Words.text(.dismissedClipNotPlayed), Words.text(.dismissedAskAgain),
                    Words.text(.dismissedQuit),
                ])
        }
        let lines = [
            Words.text(.dismissedStaysOff), Words.text(.dismissedAskAgain), Words.text(.dismissedOtherCamera),
            Words.text(.dismissedReplay), ShellCommand.replayClip, Words.text(.dismissedQuit),
        ]
        return ScreenModel(name: stateName, title: Words.text(.dismissedTitle), lines: lines)
    }
}
