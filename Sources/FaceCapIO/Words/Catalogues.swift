import FaceCapCore

#if canImport(Glibc)
import Glibc
#endif

/// Finds and loads the compiled message catalogues (`LANG/LC_MESSAGES/facecap.mo`).
///
/// Search order: `$FACECAP_LOCALE_DIR` alone when it is set; otherwise `<binary dir>/../share/locale` (where
/// `make install` and the .deb put them), then `<binary dir>/../locale` and `<binary dir>/../../locale` (the
/// build tree's `.build/locale`, symlink resolved or not). The first folder that holds a language's file wins.
public enum Catalogues {
    public static let fileName = "facecap.mo"

    /// The variables that choose the language and the catalogues' folder, from the process environment.
    public static func currentEnvironment() -> [String: String] {
        var result: [String: String] = [:]
        for name in ["FACECAP_LOCALE_DIR", "LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"] {
            if let value = getenv(name) { result[name] = String(cString: value) }
        }
        return result
    }

    /// Folders searched, in order (`environment` and `executablePath` are injectable for tests).
    public static func searchDirectories(
        environment: [String: String] = currentEnvironment(),
        executablePath: String? = ModelFiles.currentExecutablePath()
    ) -> [String] {
        if let dir = environment["FACECAP_LOCALE_DIR"], !dir.isEmpty { return [dir] }
        guard let executablePath, let slash = executablePath.lastIndex(of: "/") else { return [] }
        let binDir = String(executablePath[..<slash])
        var unique: [String] = []
        for directory in [binDir + "/../share/locale", binDir + "/../locale", binDir + "/../../locale"]
            .map(ModelFiles.lexicallyNormalised) where !unique.contains(directory)
        {
            unique.append(directory)
        }
        return unique
    }

    /// English and every language with a catalogue in `directories`, English first, then by code.
    public static func available(in directories: [String] = searchDirectories()) -> [String] {
        var found: Set<String> = []
        for directory in directories {
            guard let dir = opendir(directory) else { continue }
            defer { closedir(dir) }
            while let entry = readdir(dir) {
                let name = withUnsafeBytes(of: entry.pointee.d_name) {
                    String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self)
                }
                guard !name.hasPrefix("."), name != "en" else { continue }
                if access(directory + "/" + name + "/LC_MESSAGES/" + fileName, R_OK) == 0 { found.insert(name) }
            }
        }
        return ["en"] + found.sorted()
    }

    /// The translations of `language` from the first folder that has them; English for "en". A catalogue that
    /// cannot be read is skipped (English stands in for it), as gettext does.
    public static func load(_ language: String, from directories: [String] = searchDirectories()) -> Translations {
        guard language != "en" else { return .english }
        for directory in directories {
            let path = directory + "/" + language + "/LC_MESSAGES/" + fileName
            guard access(path, R_OK) == 0, let bytes = try? POSIXFile.readAll(path, limit: 16 << 20) else { continue }
            if let translations = try? MOFile.parse(bytes, language: language) { return translations }
        }
        return Translations(language: language)
    }

    /// Chooses the language (`--lang` when given, else the environment) and makes it `Words.current`.
    public static func choose(option: String?, environment: [String: String] = currentEnvironment())
        throws(UsageError)
    {
        let directories = searchDirectories(environment: environment)
        let languages = available(in: directories)
        do {
            Words.current = load(
                try LanguageChoice.choose(option: option, environment: environment, available: languages),
                from: directories)
        } catch {
            // An unknown --lang is said in the language the environment asks for.
            Words.current = load(
                (try? LanguageChoice.choose(option: nil, environment: environment, available: languages))
                    ?? "en", from: directories)
            throw UsageError(
                Words.usageUnknownLanguage(
                    code: option ?? "",
                    languages: languages.joined(separator: ", ")))
        }
    }
}
