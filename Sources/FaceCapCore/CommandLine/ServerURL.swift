/// A validation server's http(s) URL taken apart once: scheme, host and port. The one parser of `--server`
/// URLs, for the command line's checks and for the HTTP client's messages and plain-http rule.
public struct ServerURL: Equatable, Sendable {
    /// Why a text is not a server URL.
    public enum Problem: Error, Equatable {
        /// Neither http:// nor https://.
        case notHTTP
        /// Nothing between the scheme and the path.
        case noHost
        /// A port after the host that is not a number from 1 to 65535.
        case badPort
    }

    /// The URL as given.
    public let text: String
    /// https://, not http://.
    public let secure: Bool
    /// The host, without an IPv6 address's brackets.
    public let host: String
    /// The port given after the host, or the scheme's (443, 80).
    public let port: Int

    /// localhost, ::1 or a numeric 127.x.y.z: the hosts plain http:// may reach without --insecure-http.
    public var isLoopback: Bool { isLoopbackHost(host) }

    /// "host:port", an IPv6 host in brackets: where a message says the connection went.
    public var place: String { host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)" }

    /// Whether `text` names plain http:// (any case), whether or not the rest of it parses: the scheme rule for a
    /// text the command line did not check.
    public static func isPlainHTTP(_ text: String) -> Bool { text.lowercased().hasPrefix("http://") }

    public init(_ text: String) throws(Problem) {
        if text.lowercased().hasPrefix("https://") {
            secure = true
        } else if Self.isPlainHTTP(text) {
            secure = false
        } else {
            throw .notHTTP
        }
        self.text = text
        let rest = text.dropFirst(secure ? 8 : 7)
        let authority = rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        // The user part ("user:secret@") ends at the authority's last "@".
        let hostPort = authority.split(separator: "@").last ?? ""
        let afterHost: Substring
        if hostPort.hasPrefix("[") {
            host = String(hostPort.dropFirst().prefix { $0 != "]" })
            afterHost = hostPort.drop { $0 != "]" }.dropFirst()
        } else {
            host = String(hostPort.prefix { $0 != ":" })
            afterHost = hostPort.drop { $0 != ":" }
        }
        guard !host.isEmpty else { throw .noHost }
        if afterHost.isEmpty {
            port = secure ? 443 : 80
        } else {
            let digits = afterHost.dropFirst()
            guard afterHost.first == ":", !digits.isEmpty, digits.count <= 5,
                digits.utf8.allSatisfy({ (0x30...0x39).contains($0) }), let number = Int(digits),
                (1...65535).contains(number)
            else { throw .badPort }
            port = number
        }
    }
}

/// localhost, ::1 or a numeric 127.x.y.z (a name such as "127.example.org" is not loopback): the hosts plain
/// http:// may reach without --insecure-http. One rule for the command line and the HTTP client.
public func isLoopbackHost(_ host: String) -> Bool {
    if host.lowercased() == "localhost" || host == "::1" { return true }
    let parts = host.split(separator: ".", omittingEmptySubsequences: false)
    return parts.count == 4 && parts[0] == "127"
        && parts.allSatisfy {
            !$0.isEmpty && $0.utf8.allSatisfy { (0x30...0x39).contains($0) } && (Int($0) ?? 256) <= 255
        }
}
