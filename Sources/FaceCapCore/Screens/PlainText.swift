/// `--plain` output: one line per state or guidance change, made from the same `ScreenModel` the full-screen
/// front end draws, so the two cannot say different things.
public enum PlainText {
    /// The line for `model`: "[screen] title: primary; body (also: hints)". Countdowns and progress are left out,
    /// so the line changes only when what the person must know changes.
    public static func line(for model: ScreenModel) -> String {
        var parts: [String] = []
        if !model.name.isCapture, !model.title.isEmpty { parts.append(model.title) }
        // The title is said once: a primary equal to it is left out, and so is the Uploading screen's, which is its
        // title as a running status ("Checking your photo" over "Checking your photo…"). A test of the words
        // (English's common prefix) would not hold in other languages: German says "Foto wird geprüft" over
        // "Ihr Foto wird geprüft …", Japanese 写真を確認中 over 写真を確認しています….
        if let primary = model.primary, primary != model.title, model.name != .uploading { parts.append(primary) }
        var text = joined(parts.joined(separator: Words.text(.separatorLabel)), model.lines)
        if !model.hints.isEmpty { text += " " + Words.plainAlso(hints: Words.clauses(model.hints)) }
        return "[\(model.name.rawValue)] " + text
    }

    /// `head`, then a screen's `lines` as one line: commands without their "$ ", sentences (and a line ending in a
    /// colon) followed by a space, list items and fragments as clauses, in the language's own separators (French
    /// puts a no-break space before the colon, Japanese has its own).
    public static func joined(_ head: String, _ lines: [String]) -> String {
        let body = lines.map { $0.hasPrefix("$ ") ? String($0.dropFirst(2)) : $0 }
        let label = Words.text(.separatorLabel), clause = Words.text(.separatorClause)
        var text = head
        for (index, line) in body.enumerated() {
            let previous = index == 0 ? text : body[index - 1]
            // A line ending in a colon introduces the next (a command): no clause mark after it.
            let separator =
                previous.isEmpty
                ? ""
                : index == 0
                    ? label
                    : [".", "。", ":", "："].contains(where: previous.hasSuffix) ? " " : clause
            text += separator + line
        }
        return text
    }
}

extension PlainText {
    /// The locale variables name a UTF-8 character set (the first of LC_ALL, LC_CTYPE and LANG that is set, as
    /// the C library reads them); unset is the C locale, ASCII.
    public static func localeIsUTF8(_ environment: [String: String]) -> Bool {
        let value = ["LC_ALL", "LC_CTYPE", "LANG"].lazy.compactMap { environment[$0] }.first { !$0.isEmpty } ?? ""
        let lower = value.lowercased()
        return lower.contains("utf-8") || lower.contains("utf8")
    }

    /// `text` with the catalogue's typographic punctuation in ASCII, for a terminal or log that is not UTF-8:
    /// "…" as "...", dashes as "-", the no-break spaces (French before : ; ? !) as spaces, quotation marks as
    /// `"` and `'`, "×" as "x", and the full-width punctuation of Japanese as its ASCII form. Letters are left
    /// alone (a language with letters outside ASCII still needs UTF-8 to be read).
    public static func asciiPunctuation(_ text: String) -> String {
        guard !text.unicodeScalars.allSatisfy(\.isASCII) else { return text }
        var out = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            if let replacement = asciiReplacements[scalar.value] {
                out.append(contentsOf: replacement.unicodeScalars)
            } else if (0xFF01...0xFF5E).contains(scalar.value), let ascii = Unicode.Scalar(scalar.value - 0xFEE0) {
                // Full-width forms (：（）？／) are ASCII moved up by 0xFEE0.
                out.append(ascii)
            } else {
                out.append(scalar)
            }
        }
        return String(out)
    }

    private static let asciiReplacements: [UInt32: String] = [
        0x00A0: " ", 0x202F: " ", 0x2009: " ", 0x3000: " ",
        0x2026: "...", 0x2014: "-", 0x2013: "-", 0x2012: "-", 0x2212: "-", 0x301C: "~",
        0x00AB: "\"", 0x00BB: "\"", 0x201C: "\"", 0x201D: "\"", 0x201E: "\"", 0x300C: "\"", 0x300D: "\"",
        0x2018: "'", 0x2019: "'", 0x201A: "'",
        0x00D7: "x", 0x3002: ".", 0x3001: ",", 0x30FB: ".", 0x00BF: "", 0x00A1: "",
    ]
}

/// When `--plain` speaks: a line when the screen changes, at once; on the same screen, a line when what the
/// person must know changes (on the capture screens the main message; the hints ride along on its line, and a
/// change of hints alone says nothing), at most one every `minimumInterval` seconds. A change that comes
/// sooner waits, and the line then said is the newest (a message that came and went in between is never said).
/// The one exception is the line after a screen's first: that first line is often a placeholder ("Looking for
/// your face…" until the first frame is analysed, 30 ms later), and the first guidance must not wait behind it.
/// A screen reader reads each line aloud: 23 lines in 10 s of a swaying face was too many to follow.
/// Nor does a word that stops or turns a moving person wait for the second to pass (`stops(from:to:)`): someone
/// who hears "Move down" and moves would go on for up to a second past the oval before hearing "Perfect — hold
/// still" (issue 35). Such a word spends a second banked by silence instead (at most `urgentCredit`, one line
/// each; every line but the exception above spends one, and a new screen starts with the bank full), so over
/// any stretch of S seconds on one screen there are at most S + 3 lines. The exception spends nothing: the
/// placeholder before it told the person nothing to do, and a bank emptied by the two would hold back the first
/// "Hold still" a second — a screen-reader user moving at 200 px/s overshot the oval by 50 px waiting for it.
public struct PlainAnnouncer: Sendable {
    public var minimumInterval = 1.0
    /// Lines a quiet screen banks for words that cannot wait (each `minimumInterval` of silence banks one).
    public var urgentCredit = 2.0
    /// Punctuation in ASCII (`PlainText.asciiPunctuation`): the locale is not UTF-8.
    public var ascii: Bool
    private var latest: ScreenModel?
    private var said: (name: ScreenName, key: String, at: Double, first: Bool, guidance: GuidanceCode?, credit: Double)?

    public init(ascii: Bool) {
        self.ascii = ascii
    }

    /// Takes the newest screen at `now`; returns the line to say now, if any.
    public mutating func offer(_ model: ScreenModel, at now: Double) -> String? {
        latest = model
        return due(at: now)
    }

    /// A line held back that may be said now (the front end asks at every turn of the loop).
    public mutating func due(at now: Double) -> String? {
        guard let model = latest, isDue(at: now) else { return nil }
        let first = said?.name != model.name
        let left = first ? urgentCredit - 1 : credit(at: now) - (said?.first == true ? 0 : 1)
        said = (model.name, Self.key(model), now, first, model.guidance, left)
        let line = PlainText.line(for: model)
        return ascii ? PlainText.asciiPunctuation(line) : line
    }

    /// True when the newest screen says something not said yet and may be said at `now`.
    public func isDue(at now: Double) -> Bool {
        guard let model = latest else { return false }
        guard let said else { return true }
        if said.name != model.name { return true }
        guard said.key != Self.key(model) else { return false }
        if said.first || now - said.at >= minimumInterval { return true }
        return Self.stops(from: said.guidance, to: model.guidance) && credit(at: now) >= 1
    }

    /// Lines banked at `now`: what was left after the last line, one more per `minimumInterval` since (never
    /// below 0: an ordinary line comes a whole `minimumInterval` after the last, which has banked it).
    private func credit(at now: Double) -> Double {
        guard let said else { return urgentCredit }
        return min(urgentCredit, said.credit + (now - said.at) / minimumInterval)
    }

    /// Whether the guidance `to` stops or turns a person who last heard `from`: a direction withdrawn or changed
    /// (another direction, "Hold still", the next problem), or "Hold still" / "Perfect — hold still" after
    /// anything else. Repeats, hints and a direction's graded words ("Move left" → "A little to the left": the same
    /// way, slower) keep the one-line-a-second limit, so the bank is still there for the "Hold still" after them.
    static func stops(from: GuidanceCode?, to: GuidanceCode?) -> Bool {
        guard let to else { return false }
        if let from, from.isDirection { return to != from }
        return (to == .holdStill || to == .ready) && to != from
    }

    /// What must change on one screen for a new line: on the capture screens the main message and the body (why
    /// manual capture is offered), not the hints; elsewhere the whole line.
    private static func key(_ model: ScreenModel) -> String {
        guard model.name.isCapture else { return PlainText.line(for: model) }
        var bare = model
        bare.hints = []
        return PlainText.line(for: bare)
    }
}
