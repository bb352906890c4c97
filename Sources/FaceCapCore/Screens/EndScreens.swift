/// Accepted, another photo, manual review.
extension Wizard {
    func successScreen(_ ending: Ending, now: Double) -> ScreenModel {
        ScreenModel(name: .success, title: Words.text(.successTitle), tone: .good, picture: .photo,
                    lines: [Words.text(.successSavedTo, ["path": ending.saved.photoPath]),
                            Words.text(.successReport, ["path": ending.saved.reportPath])],
                    countdown: Words.text(.countdownContinuing, Messages.secondsText(ending.until - now)))
    }

    func retryScreen(_ retry: Retry, now: Double) -> ScreenModel {
        var lines = retry.verdict.message.map { [$0] } ?? []
        lines += retry.verdict.reasons.isEmpty ? [Words.text(.retryNotPassed)]
            : Messages.advice(forReasons: retry.verdict.reasons)
        return ScreenModel(name: .retry, title: Words.text(.retryTitle), tone: .warning, picture: .photo,
                           primary: Words.text(.retryAttemptsLeft, count: retry.attemptsLeft), lines: lines,
                           countdown: retry.until.map { Words.text(.countdownBackToCamera, Messages.secondsText($0 - now)) })
    }

    func finalErrorScreen(_ ending: Ending, now: Double) -> ScreenModel {
        ScreenModel(name: .finalError, title: Words.text(.finalTitle), tone: .warning, picture: .photo,
                    lines: [Words.text(.finalNotPassed, count: settings.attempts), Words.text(.finalSubmitted),
                            Words.text(.successSavedTo, ["path": ending.saved.photoPath])],
                    countdown: Words.text(.countdownContinuing, Messages.secondsText(ending.until - now)))
    }
}
