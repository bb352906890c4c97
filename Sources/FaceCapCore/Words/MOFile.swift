/// A compiled gettext catalogue (`msgfmt` output) read without the C library's gettext, so a language works
/// whether or not its locale is generated on the system (gettext's `dcgettext` gives nothing for a locale
/// `setlocale` cannot set, as on a minimal Debian without the `locales` package).
///
/// The layout (GNU gettext manual, "The Format of GNU MO Files"): a magic number that also gives the byte
/// order, a revision, the number of strings N, and the offsets of two tables of N (length, offset) pairs,
/// originals and translations, each string NUL-terminated. A plural original is "singular NUL plural", its
/// translation the forms separated by NUL; a message with a context is "context EOT msgid".
public enum MOFile {
    /// Why a file is not a catalogue facecap can read.
    public enum Problem: Error, Equatable, Sendable {
        case notACatalogue
        case truncated
        case unsupportedRevision(UInt32)
    }

    /// The translations in `bytes`, with the plural rule of its header (`n != 1` when it names none).
    public static func parse(_ bytes: [UInt8], language: String) throws(Problem) -> Translations {
        guard bytes.count >= 20 else { throw .notACatalogue }
        let little: Bool
        switch (bytes[0], bytes[1], bytes[2], bytes[3]) {
        case (0xde, 0x12, 0x04, 0x95): little = true
        case (0x95, 0x04, 0x12, 0xde): little = false
        default: throw .notACatalogue
        }
        func word(_ at: Int) throws(Problem) -> Int {
            guard at >= 0, at + 4 <= bytes.count else { throw .truncated }
            let b = (UInt32(bytes[at]), UInt32(bytes[at + 1]), UInt32(bytes[at + 2]), UInt32(bytes[at + 3]))
            let value = little ? b.0 | b.1 << 8 | b.2 << 16 | b.3 << 24 : b.3 | b.2 << 8 | b.1 << 16 | b.0 << 24
            return Int(value)
        }
        let revision = try word(4)
        // Major revision 0 and 1 share the tables read here (1 adds system-dependent strings, unused by msgfmt
        // for a catalogue without <inttypes.h> macros).
        guard revision >> 16 <= 1 else { throw .unsupportedRevision(UInt32(revision)) }
        let count = try word(8), originals = try word(12), translated = try word(16)
        guard count <= bytes.count / 8 else { throw .truncated }
        func string(_ table: Int, _ index: Int) throws(Problem) -> [String] {
            let length = try word(table + 8 * index), offset = try word(table + 8 * index + 4)
            guard offset + length <= bytes.count else { throw .truncated }
            return bytes[offset..<offset + length].split(separator: 0, omittingEmptySubsequences: false)
                .map { String(decoding: $0, as: UTF8.self) }
        }
        var result = Translations(language: language)
        for index in 0..<count {
            let original = try string(originals, index)
            let forms = try string(translated, index)
            guard let key = original.first else { continue }
            if key.isEmpty {
                // The header: "Plural-Forms: nplurals=2; plural=(n > 1);" among its lines.
                for line in (forms.first ?? "").split(separator: "\n") where line.hasPrefix("Plural-Forms:") {
                    if let rule = PluralRule(header: String(line.dropFirst("Plural-Forms:".count))) {
                        result.plural = rule
                    }
                }
                continue
            }
            result.entries[key] = forms
        }
        return result
    }
}
