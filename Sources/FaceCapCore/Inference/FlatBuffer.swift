/// A bounds-checked reader for the FlatBuffers wire format (little-endian), enough for TFLite models.
///
/// Every access checks its range and throws `FlatBufferError` instead of trapping, so a truncated or
/// corrupted file is an error message, never a crash or an out-of-bounds read. Positions are absolute
/// byte offsets into `bytes`.
struct FlatBuffer {
    let bytes: [UInt8]

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    /// Checks that `count` bytes starting at `position` lie inside the buffer.
    func check(_ position: Int, _ count: Int, _ what: @autoclosure () -> String) throws(FlatBufferError) {
        guard position >= 0, count >= 0, position <= bytes.count, count <= bytes.count - position else {
            throw FlatBufferError(
                "\(what()) at byte \(position) (+\(count)) lies outside the file (\(bytes.count) bytes)")
        }
    }

    func u8(_ p: Int) throws(FlatBufferError) -> UInt8 {
        try check(p, 1, "a byte")
        return bytes[p]
    }

    func u16(_ p: Int) throws(FlatBufferError) -> UInt16 {
        try check(p, 2, "a 16-bit field")
        return UInt16(bytes[p]) | UInt16(bytes[p + 1]) << 8
    }

    func u32(_ p: Int) throws(FlatBufferError) -> UInt32 {
        try check(p, 4, "a 32-bit field")
        return UInt32(bytes[p]) | UInt32(bytes[p + 1]) << 8 | UInt32(bytes[p + 2]) << 16 | UInt32(bytes[p + 3]) << 24
    }

    func i32(_ p: Int) throws(FlatBufferError) -> Int32 { Int32(bitPattern: try u32(p)) }

    /// Follows a `uoffset_t` stored at `p` (relative to `p` itself).
    func deref(_ p: Int) throws(FlatBufferError) -> Int {
        let target = p + Int(try u32(p))
        try check(target, 4, "an offset target")
        return target
    }

    /// The root table of the buffer.
    func root() throws(FlatBufferError) -> Table {
        try Table(buffer: self, position: try deref(0))
    }
}

/// A malformed FlatBuffer: what is wrong and where.
struct FlatBufferError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// One table of a FlatBuffer: its position and vtable, with typed, defaulted field access.
struct Table {
    let buffer: FlatBuffer
    let position: Int
    private let vtable: Int
    private let vtableSize: Int

    init(buffer: FlatBuffer, position: Int) throws(FlatBufferError) {
        self.buffer = buffer
        self.position = position
        let soffset = Int(try buffer.i32(position))
        vtable = position - soffset
        vtableSize = Int(try buffer.u16(vtable))
        guard vtableSize >= 4, vtableSize % 2 == 0 else {
            throw FlatBufferError("the vtable of the table at byte \(position) has an invalid size \(vtableSize)")
        }
        try buffer.check(vtable, vtableSize, "the vtable of the table at byte \(position)")
    }

    /// Absolute position of field `id`, or nil when the field is absent (schema default applies).
    func fieldPosition(_ id: Int) throws(FlatBufferError) -> Int? {
        let slot = 4 + 2 * id
        guard slot < vtableSize else { return nil }
        let offset = Int(try buffer.u16(vtable + slot))
        return offset == 0 ? nil : position + offset
    }

    func u8(_ id: Int, default value: UInt8 = 0) throws(FlatBufferError) -> UInt8 {
        guard let p = try fieldPosition(id) else { return value }
        return try buffer.u8(p)
    }

    func i8(_ id: Int, default value: Int8 = 0) throws(FlatBufferError) -> Int8 {
        Int8(bitPattern: try u8(id, default: UInt8(bitPattern: value)))
    }

    func u32(_ id: Int, default value: UInt32 = 0) throws(FlatBufferError) -> UInt32 {
        guard let p = try fieldPosition(id) else { return value }
        return try buffer.u32(p)
    }

    func i32(_ id: Int, default value: Int32 = 0) throws(FlatBufferError) -> Int32 {
        guard let p = try fieldPosition(id) else { return value }
        return try buffer.i32(p)
    }

    func table(_ id: Int) throws(FlatBufferError) -> Table? {
        guard let p = try fieldPosition(id) else { return nil }
        return try Table(buffer: buffer, position: try buffer.deref(p))
    }

    /// (element count, position of the first element) of a vector field; (0, nil) when absent.
    func vector(_ id: Int, elementSize: Int) throws(FlatBufferError) -> (count: Int, start: Int)? {
        guard let p = try fieldPosition(id) else { return nil }
        let v = try buffer.deref(p)
        let count = Int(try buffer.u32(v))
        let (total, overflow) = count.multipliedReportingOverflow(by: elementSize)
        guard !overflow else { throw FlatBufferError("the vector at byte \(v) claims \(count) elements") }
        try buffer.check(v + 4, total, "a vector of \(count) elements")
        return (count, v + 4)
    }

    func tables(_ id: Int) throws(FlatBufferError) -> [Table] {
        guard let (count, start) = try vector(id, elementSize: 4) else { return [] }
        var result: [Table] = []
        result.reserveCapacity(count)
        for i in 0..<count {
            result.append(try Table(buffer: buffer, position: try buffer.deref(start + 4 * i)))
        }
        return result
    }

    func int32s(_ id: Int) throws(FlatBufferError) -> [Int32] {
        guard let (count, start) = try vector(id, elementSize: 4) else { return [] }
        var result: [Int32] = []
        result.reserveCapacity(count)
        for i in 0..<count { result.append(try buffer.i32(start + 4 * i)) }
        return result
    }

    /// Byte range of a [ubyte] field inside the buffer; empty when absent.
    func byteRange(_ id: Int) throws(FlatBufferError) -> Range<Int> {
        guard let (count, start) = try vector(id, elementSize: 1) else { return 0..<0 }
        return start..<(start + count)
    }

    func string(_ id: Int) throws(FlatBufferError) -> String {
        let range = try byteRange(id)
        return String(decoding: buffer.bytes[range], as: UTF8.self)
    }
}
