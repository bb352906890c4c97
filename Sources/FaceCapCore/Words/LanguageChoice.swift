/// Which language to speak: `--lang CODE`, else the first of `LANGUAGE` (a colon-separated list), `LC_ALL`,
/// `LC_MESSAGES` and `LANG` that names one facecap has, as gettext programs choose.
///
/// Unlike gettext, `LANGUAGE` is honoured even when the locale is "C" or unset: facecap reads its own
/// catalogues and needs no generated system locale. A locale such as "de_DE.UTF-8@euro" tries "de_DE" and
/// then "de"; "C" and "POSIX" are English.
public enum LanguageChoice {
    /// The languages whose catalogues ship with facecap (Resources/po/LANG.po), English (the source) first. A
    /// test keeps it equal to the .po files there; `--lang` accepts these, and its completion offers them.
    public static let shipped = ["en", "de", "es", "fr", "ja", "pt_BR"]

    /// The language to use among `available` (which must hold "en"). A `--lang` that is not available is a
    /// usage error that lists the languages there are; an environment that names none of them is English.
    public static func choose(
        option: String?, environment: [String: String],
        available: [String]
    ) throws(UsageError) -> String {
        if let option {
            if let found = find(option, in: available) { return found }
            throw UsageError(Words.usageUnknownLanguage(code: option, languages: available.joined(separator: ", ")))
        }
        if let list = environment["LANGUAGE"], !list.isEmpty {
            for entry in list.split(separator: ":") {
                if let found = find(String(entry), in: available) { return found }
            }
        }
        for name in ["LC_ALL", "LC_MESSAGES", "LANG"] {
            guard let value = environment[name], !value.isEmpty else { continue }
            // The first one set decides, as in setlocale: LC_ALL=C with LANG=de_DE is English.
            return find(value, in: available) ?? "en"
        }
        return "en"
    }

    /// The available language `locale` names: itself, its bare language, or that language's one regional
    /// catalogue ("pt" finds "pt_BR").
    static func find(_ locale: String, in available: [String]) -> String? {
        let names = candidates(locale)
        if let found = names.first(where: available.contains) { return found }
        guard let language = names.last, !language.contains("_") else { return nil }
        return available.first { $0.hasPrefix(language + "_") }
    }

    /// "de_DE.UTF-8@euro" → ["de_DE", "de"]; "pt-br" → ["pt_BR", "pt"]; "C" → ["en"].
    public static func candidates(_ locale: String) -> [String] {
        let base = locale.prefix { $0 != "." && $0 != "@" }
        if base == "C" || base == "POSIX" || base.isEmpty { return ["en"] }
        let parts = base.split(whereSeparator: { $0 == "_" || $0 == "-" })
        guard let first = parts.first else { return [] }
        let language = first.lowercased()
        if parts.count >= 2 {
            return [language + "_" + parts[1].uppercased(), language]
        }
        return [language]
    }
}
