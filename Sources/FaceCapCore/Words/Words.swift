/// The words of one language: the translations read from its compiled gettext catalogue (`.mo`), by
/// `MessageID` and English text. English itself is the empty table.
public struct Translations: Sendable, Equatable {
    /// The language code, as in the catalogue's folder name: "en", "de", "pt_BR".
    public var language: String
    /// Forms of each translated message, keyed by `MessageID.key` (id and English, as the `.mo` file keys
    /// `msgctxt` and `msgid`); one form, or one per plural form.
    public var entries: [String: [String]]
    /// The catalogue's `Plural-Forms` rule: which form a count takes.
    public var plural: PluralRule

    public init(language: String, entries: [String: [String]] = [:], plural: PluralRule = .germanic) {
        self.language = language
        self.entries = entries
        self.plural = plural
    }

    /// The source language: every message as written in `MessageID.english`.
    public static let english = Translations(language: "en")

    /// The text of `id` with `count` choosing the plural form, or nil when this catalogue lacks it (or has
    /// it only empty, as gettext leaves an untranslated entry).
    public func translation(_ id: MessageID, count: Int? = nil) -> String? {
        guard let forms = entries[id.key], !forms.isEmpty else { return nil }
        let index = count.map { id.englishPlural == nil ? 0 : plural.form(for: $0) } ?? 0
        let form = forms[min(max(index, 0), forms.count - 1)]
        return form.isEmpty ? nil : form
    }
}

extension MessageID {
    /// The key of this message in a `.mo` file: `msgctxt` EOT `msgid` (gettext's own layout).
    public var key: String { rawValue + "\u{04}" + english }
}

/// The words the program speaks: `MessageID`s in the chosen language, English for whatever the
/// translation lacks.
///
/// `current` is set once at start-up (`facecap`'s `main`, before any thread is started) from `--lang` or
/// the environment; everything that words a message for a person reads it. Tests set it to check a
/// language and set it back.
public enum Words {
    nonisolated(unsafe) public static var current = Translations.english

    /// `id` in the current language. A message with placeholders is worded by its typed constructor instead
    /// (`Words.countdownManualIn(seconds:)`, generated in `Words+<area>.swift`), so none can be left out.
    public static func text(_ id: MessageID) -> String { text(id, [:]) }

    /// `id` in the current language, `{name}` placeholders replaced from `arguments`: what the typed
    /// constructors call (a translation names its placeholders by `{name}`).
    static func text(_ id: MessageID, _ arguments: [String: String]) -> String {
        fill(current.translation(id) ?? id.english, arguments)
    }

    /// `id` in the current language in the form `count` takes (also given as `{count}`).
    static func text(_ id: MessageID, count: Int, _ arguments: [String: String] = [:]) -> String {
        var arguments = arguments
        arguments["count"] = String(count)
        if let text = current.translation(id, count: count) { return fill(text, arguments) }
        let english = count == 1 ? id.english : (id.englishPlural ?? id.english)
        return fill(english, arguments)
    }

    /// `items` as a list in the current language ("a, b, c"; "a、b、c" in Japanese).
    public static func list(_ items: [String]) -> String { items.joined(separator: text(.separatorList)) }

    /// Clauses of one line in the current language ("a; b").
    public static func clauses(_ parts: [String]) -> String { parts.joined(separator: text(.separatorClause)) }

    /// "label: text" in the current language (French puts a no-break space before the colon).
    public static func labelled(_ label: String, _ rest: String) -> String { label + text(.separatorLabel) + rest }

    /// A size in whole megabytes, in the current language ("30 MB"; "30 Mo" in French).
    public static func megabytes(_ bytes: Int) -> String { unitMegabytes(count: String(bytes >> 20)) }

    /// The placeholders a text uses: "{path}" gives "path".
    public static func placeholders(_ text: String) -> Set<String> {
        var names: Set<String> = []
        var rest = Substring(text)
        while let open = rest.firstIndex(of: "{") {
            let after = rest[rest.index(after: open)...]
            guard let close = after.firstIndex(of: "}") else { break }
            let name = after[..<close]
            if !name.isEmpty, name.allSatisfy({ $0.isLetter || $0.isNumber }) { names.insert(String(name)) }
            rest = after[after.index(after: close)...]
        }
        return names
    }

    /// `text` with each `{name}` replaced by `arguments[name]`; an unknown name stays as written.
    static func fill(_ text: String, _ arguments: [String: String]) -> String {
        guard !arguments.isEmpty, text.contains("{") else { return text }
        var out = ""
        var rest = Substring(text)
        while let open = rest.firstIndex(of: "{") {
            out += rest[..<open]
            let after = rest[rest.index(after: open)...]
            if let close = after.firstIndex(of: "}"), let value = arguments[String(after[..<close])] {
                out += value
                rest = after[after.index(after: close)...]
            } else {
                out += "{"
                rest = after
            }
        }
        return out + rest
    }
}
