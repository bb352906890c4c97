/// A parsed JSON document, for the few places facecap reads JSON written by someone else (a validation
/// server's reply). Written here rather than taken from Foundation so FaceCapCore stays free of it.
public enum JSONValue: Sendable, Equatable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    /// Members in document order; a repeated name keeps its last value when looked up.
    case object([(String, JSONValue)])

    /// The member `name` of an object (the last one, as most parsers do); nil for other values.
    public subscript(name: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        return members.last { $0.0 == name }?.1
    }

    public var stringValue: String? {
        if case .string(let text) = self { return text }
        return nil
    }

    public static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): return true
        case (.bool(let a), .bool(let b)): return a == b
        case (.number(let a), .number(let b)): return a == b
        case (.string(let a), .string(let b)): return a == b
        case (.array(let a), .array(let b)): return a == b
        case (.object(let a), .object(let b)):
            return a.count == b.count && zip(a, b).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
        default: return false
        }
    }

    /// Containers nested deeper than this are refused: a hostile reply cannot exhaust the stack.
    public static let maxDepth = 32

    /// Parses RFC 8259 JSON (UTF-8). Returns nil for anything that is not exactly one JSON value, for
    /// nesting deeper than `maxDepth` and for invalid UTF-8 in strings: the caller treats all of those as
    /// "not the reply we expected", never as a crash.
    public static func parse(_ bytes: [UInt8]) -> JSONValue? {
        var parser = Parser(bytes: bytes)
        guard let value = parser.value(depth: 0) else { return nil }
        parser.skipSpace()
        return parser.index == bytes.count ? value : nil
    }

    private struct Parser {
        let bytes: [UInt8]
        var index = 0

        mutating func skipSpace() {
            while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index += 1 }
        }

        mutating func literal(_ word: String, _ value: JSONValue) -> JSONValue? {
            let utf8 = Array(word.utf8)
            guard bytes.count - index >= utf8.count, Array(bytes[index..<(index + utf8.count)]) == utf8 else {
                return nil
            }
            index += utf8.count
            return value
        }

        mutating func value(depth: Int) -> JSONValue? {
            skipSpace()
            guard index < bytes.count else { return nil }
            let opensContainer = bytes[index] == 0x7B || bytes[index] == 0x5B
            guard !opensContainer || depth < JSONValue.maxDepth else { return nil }
            switch bytes[index] {
            case 0x7B: return object(depth: depth)
            case 0x5B: return array(depth: depth)
            case 0x22: return string().map { .string($0) }
            case 0x74: return literal("true", .bool(true))
            case 0x66: return literal("false", .bool(false))
            case 0x6E: return literal("null", .null)
            default: return number()
            }
        }

        mutating func object(depth: Int) -> JSONValue? {
            index += 1
            var members: [(String, JSONValue)] = []
            skipSpace()
            if index < bytes.count, bytes[index] == 0x7D {
                index += 1
                return .object(members)
            }
            while true {
                skipSpace()
                guard index < bytes.count, bytes[index] == 0x22, let name = string() else { return nil }
                skipSpace()
                guard index < bytes.count, bytes[index] == 0x3A else { return nil }
                index += 1
                guard let member = value(depth: depth + 1) else { return nil }
                members.append((name, member))
                skipSpace()
                guard index < bytes.count else { return nil }
                if bytes[index] == 0x2C { index += 1; continue }
                if bytes[index] == 0x7D { index += 1; return .object(members) }
                return nil
            }
        }

        mutating func array(depth: Int) -> JSONValue? {
            index += 1
            var items: [JSONValue] = []
            skipSpace()
            if index < bytes.count, bytes[index] == 0x5D {
                index += 1
                return .array(items)
            }
            while true {
                guard let item = value(depth: depth + 1) else { return nil }
                items.append(item)
                skipSpace()
                guard index < bytes.count else { return nil }
                if bytes[index] == 0x2C { index += 1; continue }
                if bytes[index] == 0x5D { index += 1; return .array(items) }
                return nil
            }
        }

        mutating func number() -> JSONValue? {
            let start = index
            // The JSON grammar, checked by hand: Double() alone would also take "inf", "0x1p3" or "+1".
            if index < bytes.count, bytes[index] == 0x2D { index += 1 }
            // No leading zeros: "01" is not JSON.
            if bytes.count - index >= 2, bytes[index] == 0x30, (0x30...0x39).contains(bytes[index + 1]) {
                return nil
            }
            guard digits() else { return nil }
            if index < bytes.count, bytes[index] == 0x2E {
                index += 1
                guard digits() else { return nil }
            }
            if index < bytes.count, bytes[index] == 0x65 || bytes[index] == 0x45 {
                index += 1
                if index < bytes.count, bytes[index] == 0x2B || bytes[index] == 0x2D { index += 1 }
                guard digits() else { return nil }
            }
            guard let value = Double(String(decoding: bytes[start..<index], as: UTF8.self)), value.isFinite else {
                return nil
            }
            return .number(value)
        }

        mutating func digits() -> Bool {
            let start = index
            while index < bytes.count, (0x30...0x39).contains(bytes[index]) { index += 1 }
            return index > start
        }

        mutating func hex4() -> UInt32? {
            guard bytes.count - index >= 4 else { return nil }
            var value: UInt32 = 0
            for _ in 0..<4 {
                let byte = bytes[index]
                let digit: UInt32
                switch byte {
                case 0x30...0x39: digit = UInt32(byte - 0x30)
                case 0x41...0x46: digit = UInt32(byte - 0x41 + 10)
                case 0x61...0x66: digit = UInt32(byte - 0x61 + 10)
                default: return nil
                }
                value = value << 4 | digit
                index += 1
            }
            return value
        }

        mutating func string() -> String? {
            index += 1
            var out: [UInt8] = []
            while index < bytes.count {
                let byte = bytes[index]
                index += 1
                switch byte {
                case 0x22:
                    // Strict UTF-8: a reply with invalid bytes is not the JSON the contract asks for.
                    var decoder = UTF8()
                    var iterator = out.makeIterator()
                    var text = ""
                    loop: while true {
                        switch decoder.decode(&iterator) {
                        case .scalarValue(let scalar): text.unicodeScalars.append(scalar)
                        case .emptyInput: break loop
                        case .error: return nil
                        }
                    }
                    return text
                case 0x5C:
                    guard index < bytes.count else { return nil }
                    let escape = bytes[index]
                    index += 1
                    switch escape {
                    case 0x22, 0x5C, 0x2F: out.append(escape)
                    case 0x62: out.append(0x08)
                    case 0x66: out.append(0x0C)
                    case 0x6E: out.append(0x0A)
                    case 0x72: out.append(0x0D)
                    case 0x74: out.append(0x09)
                    case 0x75:
                        guard var code = hex4() else { return nil }
                        if (0xD800..<0xDC00).contains(code) {
                            // A high surrogate must be followed by an escaped low one.
                            guard bytes.count - index >= 6, bytes[index] == 0x5C, bytes[index + 1] == 0x75 else {
                                return nil
                            }
                            index += 2
                            guard let low = hex4(), (0xDC00..<0xE000).contains(low) else { return nil }
                            code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                        }
                        guard let scalar = Unicode.Scalar(code) else { return nil }
                        out.append(contentsOf: Array(String(Character(scalar)).utf8))
                    default: return nil
                    }
                case 0x00..<0x20: return nil
                default: out.append(byte)
                }
            }
            return nil
        }
    }
}
