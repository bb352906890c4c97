/// The gettext template (`Resources/po/facecap.pot`) made from `MessageID`: what a translator starts a new
/// language from (`msginit`) and what `msgmerge` brings an old one up to date with. `make pot` writes it;
/// a test fails when the committed file is not what this gives, so no new message can be missed.
public enum GettextTemplate {
    public static func text() -> String {
        var out = """
            # facecap's messages. Generated from Sources/FaceCapCore/Words by `make pot`: do not edit.
            # Each message's msgctxt is its stable id; {name} placeholders must all be kept, in any order.
            #, fuzzy
            msgid ""
            msgstr ""
            "Project-Id-Version: facecap\\n"
            "Report-Msgid-Bugs-To: \\n"
            "PO-Revision-Date: YEAR-MO-DA HO:MI+ZONE\\n"
            "Last-Translator: FULL NAME <EMAIL@ADDRESS>\\n"
            "Language-Team: LANGUAGE <LL@li.org>\\n"
            "Language: \\n"
            "MIME-Version: 1.0\\n"
            "Content-Type: text/plain; charset=UTF-8\\n"
            "Content-Transfer-Encoding: 8bit\\n"
            "Plural-Forms: nplurals=INTEGER; plural=EXPRESSION;\\n"

            """
        for id in MessageID.allCases {
            out += "\n"
            if let note = id.note { out += "#. \(note)\n" }
            let names = Words.placeholders(id.english).union(id.englishPlural.map(Words.placeholders) ?? [])
            if !names.isEmpty {
                out += "#. Placeholders: " + names.sorted().map { "{\($0)}" }.joined(separator: " ") + "\n"
            }
            out += "msgctxt \(quoted(id.rawValue))\n"
            out += "msgid \(quoted(id.english))\n"
            if let plural = id.englishPlural {
                out += "msgid_plural \(quoted(plural))\nmsgstr[0] \"\"\nmsgstr[1] \"\"\n"
            } else {
                out += "msgstr \"\"\n"
            }
        }
        return out
    }

    /// A PO string literal: backslash, quote and control characters escaped.
    static func quoted(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\": out += "\\\\"
            case "\"": out += "\\\""
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }
}
