extension ReportLine {
    /// The line, worded in the current language.
    public var text: String {
        switch self {
        case .cancelled:
            return Words.text(.reportCancelled)
        case .saved(let path):
            return Words.reportSaved(path: path)
        case .manualReview(let path):
            return Words.reportManualReview(path: path)
        case .notValidated(let path, let why):
            return Words.clauses([why?.text, Words.reportNotValidated(path: path)].compactMap { $0 })
        case .notSaved(let reason, let why):
            return Words.clauses([why?.text, Words.reportNotSaved(reason: reason)].compactMap { $0 })
        case .notSavedQuit(let reason):
            return Words.reportNotSavedQuit(reason: reason)
        case .refused(let status, let message):
            // The server's message as a clause of the line.
            let said = Messages.clause(message)
            return status > 0
                ? Words.reportRefusedHTTP(status: String(status), message: said)
                : Words.reportRefused(message: said)
        case .serverCheck(let problem):
            return Self.serverCheckText(problem)
        case .camera(let problem, let advice):
            // No screen follows in plain mode: the MIPI camera's fix for each distribution, its screen's lines,
            // goes in the line.
            guard advice, case .rawBayerOnly(let camera)? = problem.error else { return problem.message }
            return PlainText.joined(problem.message, camera.advice)
        }
    }

    /// The pre-flight's problem as a clause after the label (the screen's sentence, "The server answered HTTP
    /// 404.", would put a capital and a full stop in the middle of the line).
    private static func serverCheckText(_ check: ServerCheckProblem) -> String {
        var problem = Wizard.serverCheckSaid(check)
        if case .refused(let status, let message) = check {
            // The server's own sentences become clauses of the line.
            problem =
                status > 0 && message.isEmpty
                ? Words.reportServerAnswered(status: String(status))
                : Wizard.serverCheckSaid(.refused(status: status, message: Messages.clause(message)))
        }
        return Words.reportServerCheck(problem: problem)
    }
}
