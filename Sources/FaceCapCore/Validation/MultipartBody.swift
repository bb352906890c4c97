/// A `multipart/form-data` body (RFC 7578), built whole in memory: the photo and its report are a few
/// hundred kilobytes, and a body of known length lets the HTTP client report exact upload progress.
public struct MultipartBody: Sendable, Equatable {
    /// One form field.
    public struct Part: Sendable, Equatable {
        public var name: String
        public var filename: String?
        public var contentType: String
        public var data: [UInt8]

        public init(name: String, filename: String? = nil, contentType: String, data: [UInt8]) {
            self.name = name
            self.filename = filename
            self.contentType = contentType
            self.data = data
        }
    }

    public let boundary: String
    public let bytes: [UInt8]

    /// The request's `Content-Type` header value.
    public var contentType: String { "multipart/form-data; boundary=\(boundary)" }

    /// The body of `parts` separated by `boundary`; nil when the boundary is not 1–70 characters of
    /// letters, digits, `-`, `_` or `.`, or occurs inside a part (the caller then picks another random
    /// one), since either would make the server split the body in the wrong place.
    public init?(parts: [Part], boundary: String) {
        let allowed = boundary.utf8.allSatisfy {
            (0x30...0x39).contains($0) || (0x41...0x5A).contains($0) || (0x61...0x7A).contains($0)
                || $0 == 0x2D || $0 == 0x5F || $0 == 0x2E
        }
        guard (1...70).contains(boundary.utf8.count), allowed else { return nil }
        let marker = Array(boundary.utf8)
        guard !parts.contains(where: { Self.contains($0.data, marker) }) else { return nil }
        var body: [UInt8] = []
        body.reserveCapacity(parts.reduce(256) { $0 + $1.data.count + 200 })
        for part in parts {
            var head = "--\(boundary)\r\nContent-Disposition: form-data; name=\"\(Self.quoted(part.name))\""
            if let filename = part.filename { head += "; filename=\"\(Self.quoted(filename))\"" }
            head += "\r\nContent-Type: \(part.contentType)\r\n\r\n"
            body += Array(head.utf8)
            body += part.data
            body += Array("\r\n".utf8)
        }
        body += Array("--\(boundary)--\r\n".utf8)
        self.boundary = boundary
        self.bytes = body
    }

    /// The body the validation server expects: `photo` (image/jpeg, `photo.jpg`) and `report`
    /// (application/json, `report.json`).
    public static func photoAndReport(jpeg: [UInt8], report: [UInt8], boundary: String) -> MultipartBody? {
        MultipartBody(
            parts: [
                Part(name: "photo", filename: "photo.jpg", contentType: "image/jpeg", data: jpeg),
                Part(name: "report", filename: "report.json", contentType: "application/json", data: report),
            ], boundary: boundary)
    }

    /// Quotes and line breaks cannot appear in a quoted header parameter (RFC 7578 §4.2 percent-encodes
    /// them, as browsers do).
    static func quoted(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "%22"
            case "\r": out += "%0D"
            case "\n": out += "%0A"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// Whether `needle` occurs in `haystack` (first-byte scan: fast on JPEG data, where it rarely matches).
    static func contains(_ haystack: [UInt8], _ needle: [UInt8]) -> Bool {
        guard let first = needle.first, haystack.count >= needle.count else { return false }
        var i = 0
        let last = haystack.count - needle.count
        while i <= last {
            if haystack[i] == first, haystack[i..<(i + needle.count)].elementsEqual(needle) { return true }
            i += 1
        }
        return false
    }
}
