/// The words the screens put together from the catalogue (`MessageID`, in `Words.current`'s language).
public enum Messages {
    /// A server's message as a clause of the one line on standard error: on one line, without a full stop at its
    /// end, and its sentences joined as clauses ("; " in English) (a sentence starts small unless its first word is
    /// an abbreviation, "HTTP", "URL", or the pronoun "I"; a name at a sentence's start is not told from a word), so that the line stays one sentence. "Face too small. Try again." →
    /// "face too small; try again" after the colon of "the server refused the photo (HTTP 422): …".
    public static func clause(_ text: String) -> String {
        func small(_ sentence: Substring) -> String {
            let word = sentence.prefix { !$0.isWhitespace }
            // The pronoun "I" stays as it is (a one-letter word is otherwise an article: "A face…" → "a face…").
            guard let first = word.first, first.isUppercase, word != "I",
                word.dropFirst().first.map({ $0.isLowercase }) ?? true
            else { return String(sentence) }
            return first.lowercased() + sentence.dropFirst()
        }
        func trimmed<S: StringProtocol>(_ s: S) -> String {
            String(s.drop { $0.isWhitespace }.reversed().drop { $0.isWhitespace }.reversed())
        }
        let flat = text.split(whereSeparator: { $0.isNewline }).map(trimmed).filter { !$0.isEmpty }
            .joined(separator: " ")
        var sentences: [Substring] = []
        var rest = Substring(flat)
        // A sentence ends at ". ", "! " or "? " (and a full-width "。") before more text.
        while let end = rest.indices.first(where: { i in
            let c = rest[i]
            if c == "。" { return rest.index(after: i) < rest.endIndex }
            guard c == "." || c == "!" || c == "?" else { return false }
            let next = rest.index(after: i)
            return next < rest.endIndex && rest[next] == " " && rest.index(after: next) < rest.endIndex
        }) {
            sentences.append(rest[..<end])
            rest = rest[rest.index(after: end)...].drop { $0 == " " }
        }
        sentences.append(rest)
        var parts = sentences.map(trimmed).filter { !$0.isEmpty }
        guard !parts.isEmpty else { return "" }
        while let last = parts[parts.count - 1].last, last == "." || last == "。" || last == "!" {
            parts[parts.count - 1].removeLast()
        }
        return Words.clauses(parts.map { small(Substring($0)) })
    }

    /// The guidance message for a code.
    public static func guidance(_ code: GuidanceCode) -> String { Words.text(guidanceID(code)) }

    /// The guidance message for a code, in its gentler words when it is only just past its limit
    /// (`GuidanceRules.slightCodes`); codes without gentler words keep their own.
    public static func guidance(_ code: GuidanceCode, slight: Bool) -> String {
        guard slight, let id = slightGuidanceID(code) else { return guidance(code) }
        return Words.text(id)
    }

    static func slightGuidanceID(_ code: GuidanceCode) -> MessageID? {
        switch code {
        case .tooDark: .guidanceSlightTooDark
        case .tooBright: .guidanceSlightTooBright
        case .unevenLight: .guidanceSlightUnevenLight
        case .lookStraight: .guidanceSlightLookStraight
        case .keepHeadLevel: .guidanceSlightKeepHeadLevel
        case .moveLeft: .guidanceSlightMoveLeft
        case .moveRight: .guidanceSlightMoveRight
        case .moveUp: .guidanceSlightMoveUp
        case .moveDown: .guidanceSlightMoveDown
        case .noFace, .multipleFaces, .faceNotVisible, .faceCovered, .moveCloser, .moveBack, .eyesClosed, .blurry,
            .holdStill, .ready:
            nil
        }
    }

    static func guidanceID(_ code: GuidanceCode) -> MessageID {
        switch code {
        case .noFace: .guidanceNoFace
        case .multipleFaces: .guidanceMultipleFaces
        case .faceNotVisible: .guidanceFaceNotVisible
        case .faceCovered: .guidanceFaceCovered
        case .tooDark: .guidanceTooDark
        case .tooBright: .guidanceTooBright
        case .moveCloser: .guidanceMoveCloser
        case .moveBack: .guidanceMoveBack
        case .moveLeft: .guidanceMoveLeft
        case .moveRight: .guidanceMoveRight
        case .moveUp: .guidanceMoveUp
        case .moveDown: .guidanceMoveDown
        case .lookStraight: .guidanceLookStraight
        case .keepHeadLevel: .guidanceKeepHeadLevel
        case .unevenLight: .guidanceUnevenLight
        case .eyesClosed: .guidanceEyesClosed
        case .blurry: .guidanceBlurry
        case .holdStill: .guidanceHoldStill
        case .ready: .guidanceReady
        }
    }

    /// The advice for each of `reasons`, in their order, each line once: two reasons with the same advice
    /// (`moveLeft` and `moveUp`, two codes a server does not name) give it once.
    public static func advice(forReasons reasons: [String]) -> [String] {
        var seen: Set<String> = []
        return reasons.map(advice(forReason:)).filter { seen.insert($0).inserted }
    }

    /// Advice for a reason a checker gave for asking for another photo (guidance codes and the validator's
    /// own codes). A code facecap does not know gets a generic sentence in the chosen language, not the
    /// raw code (the code itself stays in the `validation` event and the report).
    public static func advice(forReason reason: String) -> String {
        if reason == LocalValidator.faceUnclear { return Words.text(.adviceFaceUnclear) }
        guard let code = GuidanceCode(rawValue: reason) else { return Words.text(.adviceUnknown) }
        switch code {
        case .noFace: return Words.text(.adviceNoFace)
        case .multipleFaces: return Words.text(.adviceMultipleFaces)
        case .faceNotVisible: return Words.text(.adviceFaceNotVisible)
        case .faceCovered: return Words.text(.adviceFaceCovered)
        case .tooDark: return Words.text(.adviceTooDark)
        case .tooBright: return Words.text(.adviceTooBright)
        case .moveCloser: return Words.text(.adviceMoveCloser)
        case .moveBack: return Words.text(.adviceMoveBack)
        case .moveLeft, .moveRight, .moveUp, .moveDown: return Words.text(.adviceOffCentre)
        case .lookStraight: return Words.text(.adviceLookStraight)
        case .keepHeadLevel: return Words.text(.adviceKeepHeadLevel)
        case .unevenLight: return Words.text(.adviceUnevenLight)
        case .eyesClosed: return Words.text(.adviceEyesClosed)
        case .blurry: return Words.text(.adviceBlurry)
        case .holdStill: return Words.text(.adviceHoldStill)
        case .ready: return guidance(.ready)
        }
    }

    /// "1 frame", "2 frames", "0 frames": a count with its English noun, plural unless exactly one. For the
    /// English-only reports of `facecap analyze`, not for the wizard's screens.
    public static func count(_ number: Int, _ noun: String) -> String { "\(number) \(noun)\(number == 1 ? "" : "s")" }

    /// Whole seconds left, rounded up: a countdown never shows 0 before it ends.
    public static func seconds(_ remaining: Double) -> Int { max(1, Int(remaining.rounded(.up))) }

    /// A countdown's seconds as text.
    static func secondsText(_ remaining: Double) -> String { String(seconds(remaining)) }

    public static var tutorialTips: [String] {
        [.tutorialTipFace, .tutorialTipExpression, .tutorialTipLight, .tutorialTipUncover].map { Words.text($0) }
    }

    /// The `?` help: how the screens work, then the keys of the screen it is open over (its bindings).
    public static func helpLines(keys: [KeyHelp]) -> [String] {
        let width = keys.map { $0.key.count }.max() ?? 0
        let keyLines = keys.map { help in
            let action = help.key == "?" ? Words.text(.keyCloseHelp) : help.action
            return "  " + help.key + String(repeating: " ", count: max(0, width - help.key.count)) + "  " + action
        }
        // "Follow … green;" and "hold still …" are one sentence: one paragraph, so a narrow box wraps it as one
        // (wrapped apart, the first half's last words dangled on a row of their own, like a paragraph's end).
        let follow = Words.text(.helpFollow)
        let joiner = follow.last.map { $0.isASCII || $0 == "\u{00A0}" ? " " : "" } ?? ""
        return [
            Words.text(.helpAbout), "", follow + joiner + Words.text(.helpHoldStill),
            Words.helpMirror(moveLeft: Words.text(.guidanceMoveLeft)),
            Words.text(.helpManual), "", Words.text(.helpKeys),
        ] + keyLines
    }
}
