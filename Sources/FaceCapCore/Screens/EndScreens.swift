/// Accepted, another photo, manual review.
extension Wizard {
    func successScreen(_ ending: Ending, now: Double) -> ScreenModel {
        ScreenModel(
            name: stateName, title: Words.text(.successTitle), tone: .good, picture: .photo,
            lines: [
                Words.successSavedTo(path: ending.saved.photoPath),
                Words.successReport(path: ending.saved.reportPath),
            ],
            countdown: Words.countdownContinuing(seconds: Messages.secondsText(ending.until - now)))
    }

    func retryScreen(_ retry: Retry, now: Double) -> ScreenModel {
        var lines = retry.verdict.message.map { [$0] } ?? []
        lines +=
            retry.verdict.reasons.isEmpty
            ? [Words.text(.retryNotPassed)]
            : Messages.advice(forReasons: retry.verdict.reasons)
        return ScreenModel(
            name: stateName, title: Words.text(.retryTitle), tone: .warning, picture: .photo,
            primary: Words.retryAttemptsLeft(count: retry.attemptsLeft), lines: lines,
            countdown: retry.until.map { Words.countdownBackToCamera(seconds: Messages.secondsText($0 - now)) })
    }

    func finalErrorScreen(_ ending: Ending, now: Double) -> ScreenModel {
        ScreenModel(
            name: stateName, title: Words.text(.finalTitle), tone: .warning, picture: .photo,
            lines: [
                Words.finalNotPassed(count: settings.attempts), Words.text(.finalSubmitted),
                Words.successSavedTo(path: ending.saved.photoPath),
            ],
            countdown: Words.countdownContinuing(seconds: Messages.secondsText(ending.until - now)))
    }
}
