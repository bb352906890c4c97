/// One tunable number of a thresholds struct: its name in a config file, where it lives, and the values
/// a config file may give it. Used by `AnalyzerThresholds`, the one table live guidance and the validator
/// share, so every field is overridden the same way and refuses the same mistakes.
public struct ThresholdField<Root>: Sendable {
    public let name: String
    public let keyPath: WritableKeyPath<Root, Double> & Sendable
    /// Values outside this range are refused when read from a config file.
    public let range: ClosedRange<Double>

    public init(name: String, keyPath: WritableKeyPath<Root, Double> & Sendable, range: ClosedRange<Double>) {
        self.name = name
        self.keyPath = keyPath
        self.range = range
    }

    /// Lays the numbers of a flat JSON object (`{"name": number, …}`) over `value`. Unknown names,
    /// non-numbers and out-of-range values are refused with one line naming the field (`kind` says which
    /// table: "threshold", "validator threshold"), so a typo never silently falls back to a default.
    public static func overlay(
        json text: String, on value: inout Root, fields: [ThresholdField<Root>],
        kind: String
    ) throws(ThresholdsError) {
        for (name, number) in try FlatJSONNumbers.parse(text) {
            guard let field = fields.first(where: { $0.name == name }) else {
                let known = fields.map(\.name).joined(separator: ", ")
                throw ThresholdsError("unknown \(kind) '\(name)' (known: \(known))")
            }
            guard field.range.contains(number) else {
                let range = "\(field.range.lowerBound)...\(field.range.upperBound)"
                throw ThresholdsError("\(kind) '\(name)' = \(number) is outside \(range)")
            }
            value[keyPath: field.keyPath] = number
        }
    }
}

/// Reads `{"name": number, …}`: the one shape a thresholds file has. Written here rather than taken from
/// Foundation so FaceCapCore stays free of it; anything else (nesting, strings as values) is refused.
enum FlatJSONNumbers {
    static func parse(_ text: String) throws(ThresholdsError) -> [(String, Double)] {
        let bytes = Array(text.utf8)
        var index = 0
        var result: [(String, Double)] = []

        func skipSpace() {
            while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index += 1 }
        }
        func fail(_ what: String) -> ThresholdsError {
            ThresholdsError("expected \(what) at byte \(index + 1)")
        }
        func expect(_ byte: UInt8, _ what: String) throws(ThresholdsError) {
            skipSpace()
            guard index < bytes.count, bytes[index] == byte else { throw fail(what) }
            index += 1
        }
        func readString() throws(ThresholdsError) -> String {
            try expect(0x22, "a quoted name")
            let start = index
            while index < bytes.count, bytes[index] != 0x22 {
                // Names are plain identifiers; an escape means this is not a thresholds file.
                guard bytes[index] != 0x5C else { throw fail("a name without escapes") }
                index += 1
            }
            guard index < bytes.count else { throw fail("a closing quote") }
            let name = String(decoding: bytes[start..<index], as: UTF8.self)
            index += 1
            return name
        }
        func readNumber() throws(ThresholdsError) -> Double {
            skipSpace()
            let start = index
            // Digits, signs, the decimal point and exponents; Double() then judges the whole.
            while index < bytes.count,
                (0x30...0x39).contains(bytes[index]) || [0x2B, 0x2D, 0x2E, 0x45, 0x65].contains(bytes[index])
            {
                index += 1
            }
            guard index > start, let value = Double(String(decoding: bytes[start..<index], as: UTF8.self)),
                value.isFinite
            else { throw fail("a number") }
            return value
        }

        try expect(0x7B, "'{'")
        skipSpace()
        if index < bytes.count, bytes[index] == 0x7D {
            index += 1
        } else {
            while true {
                let name = try readString()
                try expect(0x3A, "':'")
                let value = try readNumber()
                if result.contains(where: { $0.0 == name }) { throw ThresholdsError("'\(name)' appears twice") }
                result.append((name, value))
                skipSpace()
                guard index < bytes.count else { throw fail("',' or '}'") }
                if bytes[index] == 0x2C { index += 1; continue }
                if bytes[index] == 0x7D { index += 1; break }
                throw fail("',' or '}'")
            }
        }
        skipSpace()
        guard index == bytes.count else { throw fail("the end of the file") }
        return result
    }
}
