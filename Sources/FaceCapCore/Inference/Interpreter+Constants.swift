internal import CKernels

#if canImport(Glibc)
import Glibc
#endif

// The constants a plan reads: the model's tensors converted to floats, packed once and shared between the
// interpreters of one model (Interpreter.swift plans with them).

/// The float values of a model's constant tensors, converted from the model's bytes each time one is read.
struct ConstantTable {
    var model: TFLiteModel?
    /// The tensor holding the bytes of each constant (DEQUANTIZE and RESHAPE outputs name their input's).
    var source: [Int: Int] = [:]

    func has(_ t: Int) -> Bool { source[t] != nil }

    mutating func alias(_ t: Int, to other: Int) { source[t] = source[other] }

    /// Element count of constant `t` (without converting it).
    func count(_ t: Int) -> Int {
        guard let s = source[t], let tensor = model?.tensors[s], let data = tensor.data else { return 0 }
        return tensor.type == .float16 ? data.count / 2 : data.count / 4
    }

    subscript(_ t: Int) -> [Float]? {
        guard let s = source[t], let tensor = model?.tensors[s], let data = tensor.data else { return nil }
        switch tensor.type {
        case .float32:
            return (0..<data.count / 4).map { (i: Int) -> Float in
                let b0 = UInt32(data[4 * i]), b1 = UInt32(data[4 * i + 1])
                let b2 = UInt32(data[4 * i + 2]), b3 = UInt32(data[4 * i + 3])
                return Float(bitPattern: b0 | b1 << 8 | b2 << 16 | b3 << 24)
            }
        case .float16:
            return (0..<data.count / 2).map { (i: Int) -> Float in
                floatFromHalfBits(UInt16(data[2 * i]) | UInt16(data[2 * i + 1]) << 8)
            }
        case .int32:
            return nil
        }
    }
}

/// Constant buffers (packed weights, biases, slopes) that interpreters of the same model share: the wizard runs
/// the face models twice, in the live tracker and in the built-in checker's own, and their packed weights
/// (about 16 MB for the four models) were held twice. Immutable once built (scratch buffers, which a run
/// writes, are never shared); each buffer is freed with the object that allocated it, which every interpreter
/// using it keeps alive (through `borrowed`).
final class SharedConstants: @unchecked Sendable {
    // @unchecked: written only while its interpreter is built, before it is registered; then only read.
    /// Every constant the interpreter stored, in order, and its float count (what a later build matches).
    var pointers: [UnsafeMutableRawPointer] = []
    var counts: [Int] = []
    /// The buffers this object allocated (the others belong to `borrowed`).
    var owned: [UnsafeMutableRawPointer] = []
    var borrowed: SharedConstants?

    deinit { for pointer in owned { pointer.deallocate() } }

    /// The constants of the last interpreter built for each model (by name), while one still holds them. Behind
    /// the pthread lock ThreadSanitizer sees (the eye worker builds its interpreter on its own thread).
    private struct Entry { weak var constants: SharedConstants? }
    private static let registry = PthreadLocked<[String: Entry]>([:])

    static func existing(for name: String) -> SharedConstants? {
        registry.withLock { $0[name]?.constants }
    }

    static func register(_ constants: SharedConstants, for name: String) {
        registry.withLock { $0[name] = Entry(constants: constants) }
    }
}

/// The constant buffers of one interpreter being built: its scratch buffers (its own) and its stored constants.
struct ConstantPool {
    /// Scratch buffers, this interpreter's own, and their floats.
    var pointers: [UnsafeMutableRawPointer] = []
    var scratchFloats = 0
    /// The stored constants, in order (shared with later interpreters of the same model).
    var shared = SharedConstants()
    /// Another interpreter's constants of the same model: a constant equal to the one it stored at the same
    /// position is that one, not a new copy.
    var previous: SharedConstants?

    /// A zeroed buffer of `count` floats that a step may write (a padded input copy).
    mutating func scratch(_ count: Int) -> UnsafeMutablePointer<Float> {
        let raw = UnsafeMutableRawPointer.allocate(byteCount: max(64, count * 4 + 64), alignment: 64)
        let typed = raw.bindMemory(to: Float.self, capacity: count + 16)
        typed.initialize(repeating: 0, count: count + 16)
        pointers.append(raw)
        scratchFloats += count + 16
        return typed
    }

    /// A constant buffer holding `values` and 16 zero floats past them.
    mutating func store(_ values: [Float]) -> UnsafePointer<Float> {
        let index = shared.pointers.count
        if let previous, index < previous.pointers.count, previous.counts[index] == values.count {
            // In bounds: that buffer holds counts[index] + 16 floats (allocated as below); only `values.count`
            // of them are compared.
            let old = previous.pointers[index].assumingMemoryBound(to: Float.self)
            let same = values.withUnsafeBufferPointer { buffer in
                buffer.isEmpty || memcmp(old, buffer.baseAddress!, buffer.count * 4) == 0
            }
            if same {
                shared.pointers.append(previous.pointers[index])
                shared.counts.append(values.count)
                shared.borrowed = previous
                return UnsafePointer(old)
            }
        }
        let raw = UnsafeMutableRawPointer.allocate(byteCount: max(64, values.count * 4 + 64), alignment: 64)
        let typed = raw.bindMemory(to: Float.self, capacity: values.count + 16)
        typed.initialize(repeating: 0, count: values.count + 16)
        values.withUnsafeBufferPointer { typed.update(from: $0.baseAddress!, count: values.count) }
        shared.owned.append(raw)
        shared.pointers.append(raw)
        shared.counts.append(values.count)
        return UnsafePointer(typed)
    }
}
