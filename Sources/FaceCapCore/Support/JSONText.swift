/// One-line JSON text for facecap's machine-readable output (`--json`, events), built without
/// Foundation so the same digits come out everywhere.
public enum JSONText {
    /// A JSON string literal, with control characters escaped.
    public static func string(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }

    /// An object from (key, already-encoded value) pairs, in the given order.
    public static func object(_ fields: [(String, String)]) -> String {
        "{" + fields.map { string($0.0) + ":" + $0.1 }.joined(separator: ",") + "}"
    }

    /// An array of already-encoded values.
    public static func array(_ items: [String]) -> String { "[" + items.joined(separator: ",") + "]" }

    /// A number rounded to `decimals` places; null for nil, NaN or infinity, which JSON cannot hold.
    public static func number(_ value: Double?, decimals: Int) -> String {
        guard let value, value.isFinite else { return "null" }
        return fixed(value, decimals: decimals)
    }

    /// Fixed-point text without trailing zeros: "-0.125", "3", "12.5" (also for human-readable lines).
    public static func fixed(_ value: Double, decimals: Int) -> String {
        var scale = 1.0
        for _ in 0..<decimals { scale *= 10 }
        let scaled = (value * scale).rounded()
        guard scaled.magnitude < 9e15 else { return String(value) }
        let units = Int(scaled)
        let sign = units < 0 ? "-" : ""
        let whole = abs(units) / Int(scale), fraction = abs(units) % Int(scale)
        guard decimals > 0 else { return sign + String(whole) }
        var digits = String(fraction)
        digits = String(repeating: "0", count: decimals - digits.count) + digits
        while digits.hasSuffix("0") { digits.removeLast() }
        return sign + String(whole) + (digits.isEmpty ? "" : "." + digits)
    }
}
