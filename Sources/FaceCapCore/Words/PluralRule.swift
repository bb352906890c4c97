/// A gettext `Plural-Forms` rule ("nplurals=2; plural=(n > 1);"): the C expression that picks the form
/// for a count, parsed once and evaluated without any C.
///
/// The grammar is gettext's: `n`, decimal numbers, `! * / % + - < <= > >= == != && || ?:` and parentheses.
public struct PluralRule: Sendable, Equatable {
    public let count: Int
    let expression: Node

    indirect enum Node: Sendable, Equatable {
        case n
        case number(Int)
        case not(Node)
        case binary(String, Node, Node)
        case choice(Node, Node, Node)
    }

    /// `n != 1`: English, German, Spanish.
    public static let germanic = PluralRule(count: 2, expression: .binary("!=", .n, .number(1)))

    /// Reads the `Plural-Forms` value of a catalogue header; nil when it does not parse.
    public init?(header value: String) {
        var count: Int?
        var expression: Node?
        for part in value.split(separator: ";") {
            let pair = part.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters() }
            guard pair.count == 2 else { continue }
            if pair[0] == "nplurals" { count = Int(pair[1]) }
            if pair[0] == "plural" {
                var parser = Parser(Array(pair[1].utf8))
                expression = parser.parse()
            }
        }
        guard let count, count >= 1, let expression else { return nil }
        self.init(count: count, expression: expression)
    }

    init(count: Int, expression: Node) {
        self.count = count
        self.expression = expression
    }

    /// The form (0-based) `n` takes, within `0..<count`.
    public func form(for n: Int) -> Int {
        let value = Self.evaluate(expression, n)
        return value >= 0 && value < count ? value : 0
    }

    static func evaluate(_ node: Node, _ n: Int) -> Int {
        switch node {
        case .n: return n
        case .number(let value): return value
        case .not(let inner): return evaluate(inner, n) == 0 ? 1 : 0
        case .choice(let test, let yes, let no): return evaluate(test, n) != 0 ? evaluate(yes, n) : evaluate(no, n)
        case .binary(let op, let left, let right):
            let a = evaluate(left, n), b = evaluate(right, n)
            switch op {
            case "*": return a &* b
            case "/": return b == 0 ? 0 : a / b
            case "%": return b == 0 ? 0 : a % b
            case "+": return a &+ b
            case "-": return a &- b
            case "<": return a < b ? 1 : 0
            case "<=": return a <= b ? 1 : 0
            case ">": return a > b ? 1 : 0
            case ">=": return a >= b ? 1 : 0
            case "==": return a == b ? 1 : 0
            case "!=": return a != b ? 1 : 0
            case "&&": return a != 0 && b != 0 ? 1 : 0
            default: return a != 0 || b != 0 ? 1 : 0
            }
        }
    }

    /// Precedence climbing over C's levels, lowest first.
    struct Parser {
        let bytes: [UInt8]
        var index = 0
        static let levels: [[String]] = [
            ["||"], ["&&"], ["==", "!="], ["<=", ">=", "<", ">"], ["+", "-"],
            ["*", "/", "%"],
        ]

        init(_ bytes: [UInt8]) { self.bytes = bytes }

        mutating func parse() -> Node? {
            let node = ternary()
            skipSpace()
            return index == bytes.count ? node : nil
        }

        mutating func ternary() -> Node? {
            guard let test = binary(0) else { return nil }
            guard take("?") else { return test }
            guard let yes = ternary(), take(":"), let no = ternary() else { return nil }
            return .choice(test, yes, no)
        }

        mutating func binary(_ level: Int) -> Node? {
            guard level < Self.levels.count else { return unary() }
            guard var left = binary(level + 1) else { return nil }
            while let op = Self.levels[level].first(where: { peek($0) }) {
                _ = take(op)
                guard let right = binary(level + 1) else { return nil }
                left = .binary(op, left, right)
            }
            return left
        }

        mutating func unary() -> Node? {
            if take("!") { return unary().map(Node.not) }
            if take("(") {
                let inner = ternary()
                return take(")") ? inner : nil
            }
            skipSpace()
            if index < bytes.count, bytes[index] == UInt8(ascii: "n") {
                index += 1
                return .n
            }
            var value = 0, digits = 0
            while index < bytes.count, (0x30...0x39).contains(bytes[index]), digits < 9 {
                value = value * 10 + Int(bytes[index] - 0x30)
                index += 1
                digits += 1
            }
            return digits > 0 ? .number(value) : nil
        }

        mutating func skipSpace() {
            while index < bytes.count, bytes[index] == 0x20 || bytes[index] == 0x09 { index += 1 }
        }

        /// The operator `op` is next (and not the start of a longer one: `<` is not `<=`, `!` is not `!=`).
        mutating func peek(_ op: String) -> Bool {
            skipSpace()
            let text = Array(op.utf8)
            guard index + text.count <= bytes.count, Array(bytes[index..<index + text.count]) == text else {
                return false
            }
            if text.count == 1, index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "=") {
                return op != "<" && op != ">" && op != "!" && op != "="
            }
            if op == "|" || op == "&" { return false }
            return true
        }

        mutating func take(_ op: String) -> Bool {
            guard peek(op) else { return false }
            index += op.utf8.count
            return true
        }
    }
}

extension Substring {
    /// Without leading and trailing spaces and tabs.
    func trimmingCharacters() -> String {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\n" }
        return String(drop(while: isSpace).reversed().drop(while: isSpace).reversed())
    }
}
