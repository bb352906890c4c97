/// `--plain` output: one line per state or guidance change, made from the same `ScreenModel` the full-screen
/// front end draws, so the two cannot say different things.
public enum PlainText {
    /// The line for `model`: "[screen] title: primary; body (also: hints)". Countdowns and progress are left out,
    /// so the line changes only when what the person must know changes.
    public static func line(for model: ScreenModel) -> String {
        var parts: [String] = []
        let isCapture = model.name == .capture || model.name == .manualCapture
        if !isCapture, !model.title.isEmpty { parts.append(model.title) }
        if let primary = model.primary, !primary.hasPrefix(model.title) { parts.append(primary) }
        let body = model.lines.map { $0.hasPrefix("$ ") ? String($0.dropFirst(2)) : $0 }
        var text = parts.joined(separator: ": ")
        for (index, line) in body.enumerated() {
            // Sentences follow each other; list items and fragments are separated by semicolons.
            let previous = index == 0 ? text : body[index - 1]
            let separator = previous.isEmpty ? "" : index == 0 ? ": " : previous.hasSuffix(".") || previous.hasSuffix("。") ? " " : "; "
            text += separator + line
        }
        if !model.hints.isEmpty { text += " " + Words.text(.plainAlso, ["hints": model.hints.joined(separator: "; ")]) }
        return "[\(model.name.rawValue)] " + text
    }
}
