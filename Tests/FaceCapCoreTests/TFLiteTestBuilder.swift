@testable import FaceCapCore

/// Writes small TFLite flatbuffers for tests: hand-made graphs for single ops, and broken files.
///
/// Objects are laid out front to back (root, then each table followed by what it refers to), which keeps
/// every `uoffset` positive as the format requires. Every field takes a 4-byte slot.
struct FBWriter {
    indirect enum Value {
        case u8(UInt8)
        case i32(Int32)
        case table([(Int, Value)])
        case tables([Value])
        case int32s([Int32])
        case bytes([UInt8])
        case string(String)
    }

    private(set) var bytes: [UInt8] = []

    private mutating func align4() { while bytes.count % 4 != 0 { bytes.append(0) } }
    private mutating func put32(_ v: UInt32, at p: Int) {
        for i in 0..<4 { bytes[p + i] = UInt8(truncatingIfNeeded: v >> (8 * UInt32(i))) }
    }
    private mutating func append32(_ v: UInt32) {
        bytes.append(contentsOf: [0, 0, 0, 0])
        put32(v, at: bytes.count - 4)
    }

    /// The file: root offset, identifier, then the root table.
    static func file(root: [(Int, Value)], identifier: String = "TFL3") -> [UInt8] {
        var writer = FBWriter()
        writer.bytes = [0, 0, 0, 0] + Array(identifier.utf8.prefix(4))
        let position = writer.emitTable(root)
        writer.put32(UInt32(position), at: 0)
        return writer.bytes
    }

    /// Emits a table (vtable first) and then its children; returns the table's position.
    private mutating func emitTable(_ fields: [(Int, Value)]) -> Int {
        align4()
        let maxID = fields.map(\.0).max() ?? -1
        let vtableSize = 4 + 2 * (maxID + 1)
        let vtable = bytes.count
        bytes.append(contentsOf: [UInt8](repeating: 0, count: vtableSize))
        align4()
        let table = bytes.count
        append32(UInt32(bitPattern: Int32(table - vtable)))
        var pending: [(slot: Int, value: Value)] = []
        for (id, value) in fields {
            let offset = bytes.count - table
            bytes[vtable + 4 + 2 * id] = UInt8(offset & 0xff)
            bytes[vtable + 5 + 2 * id] = UInt8(offset >> 8)
            switch value {
            case .u8(let v): append32(UInt32(v))
            case .i32(let v): append32(UInt32(bitPattern: v))
            default:
                pending.append((bytes.count, value))
                append32(0)
            }
        }
        bytes[vtable] = UInt8(vtableSize); bytes[vtable + 1] = 0
        let objectSize = bytes.count - table
        bytes[vtable + 2] = UInt8(objectSize & 0xff); bytes[vtable + 3] = UInt8(objectSize >> 8)
        for (slot, value) in pending {
            let target = emit(value)
            put32(UInt32(target - slot), at: slot)
        }
        return table
    }

    private mutating func emit(_ value: Value) -> Int {
        align4()
        switch value {
        case .table(let fields): return emitTable(fields)
        case .int32s(let values):
            let position = bytes.count
            append32(UInt32(values.count))
            for v in values { append32(UInt32(bitPattern: v)) }
            return position
        case .bytes(let data):
            let position = bytes.count
            append32(UInt32(data.count))
            bytes.append(contentsOf: data)
            return position
        case .string(let text):
            let position = bytes.count
            append32(UInt32(text.utf8.count))
            bytes.append(contentsOf: Array(text.utf8) + [0])
            return position
        case .tables(let tables):
            let position = bytes.count
            append32(UInt32(tables.count))
            let slots = bytes.count
            for _ in tables { append32(0) }
            for (i, table) in tables.enumerated() {
                let target = emit(table)
                put32(UInt32(target - (slots + 4 * i)), at: slots + 4 * i)
            }
            return position
        case .u8, .i32: fatalError("scalars are written inline")
        }
    }
}

/// A graph under construction: tensors (constant or not), operators, inputs and outputs.
struct GraphBuilder {
    struct TensorSpec { var shape: [Int]; var type: Int8; var data: [UInt8] }
    struct OpSpec {
        var code: Int32, inputs: [Int], outputs: [Int], optionsType: UInt8
        var options: [(Int, FBWriter.Value)]?
    }

    var tensors: [TensorSpec] = []
    var ops: [OpSpec] = []
    var inputs: [Int] = []
    var outputs: [Int] = []

    /// A float32 activation tensor.
    mutating func activation(_ shape: [Int]) -> Int {
        tensors.append(TensorSpec(shape: shape, type: 0, data: []))
        return tensors.count - 1
    }

    mutating func constant(_ shape: [Int], _ values: [Float]) -> Int {
        let data = values.flatMap { v in (0..<4).map { UInt8(truncatingIfNeeded: v.bitPattern >> (8 * UInt32($0))) } }
        tensors.append(TensorSpec(shape: shape, type: 0, data: data))
        return tensors.count - 1
    }

    mutating func constantHalf(_ shape: [Int], bits: [UInt16]) -> Int {
        let data = bits.flatMap { [UInt8($0 & 0xff), UInt8($0 >> 8)] }
        tensors.append(TensorSpec(shape: shape, type: 1, data: data))
        return tensors.count - 1
    }

    mutating func constantInt32(_ shape: [Int], _ values: [Int32]) -> Int {
        let data = values.flatMap { v in
            (0..<4).map { UInt8(truncatingIfNeeded: UInt32(bitPattern: v) >> (8 * UInt32($0))) }
        }
        tensors.append(TensorSpec(shape: shape, type: 2, data: data))
        return tensors.count - 1
    }

    mutating func op(
        _ code: Int32, _ inputs: [Int], _ outputs: [Int], optionsType: UInt8 = 0,
        options: [(Int, FBWriter.Value)]? = nil
    ) {
        ops.append(OpSpec(code: code, inputs: inputs, outputs: outputs, optionsType: optionsType, options: options))
    }

    /// The flatbuffer bytes (schema version 3, buffer 0 empty as TFLite writes it).
    func bytes(version: Int32 = 3) -> [UInt8] {
        let codes = Array(Set(ops.map(\.code))).sorted()
        var buffers: [FBWriter.Value] = [.table([])]
        var tensorTables: [FBWriter.Value] = []
        for (index, t) in tensors.enumerated() {
            var bufferIndex: Int32 = 0
            if !t.data.isEmpty {
                buffers.append(.table([(0, .bytes(t.data))]))
                bufferIndex = Int32(buffers.count - 1)
            }
            tensorTables.append(
                .table([
                    (0, .int32s(t.shape.map(Int32.init))), (1, .u8(UInt8(bitPattern: t.type))),
                    (2, .i32(bufferIndex)), (3, .string("t\(index)")),
                ]))
        }
        let opTables: [FBWriter.Value] = ops.map { op in
            var fields: [(Int, FBWriter.Value)] = [
                (0, .i32(Int32(codes.firstIndex(of: op.code)!))),
                (1, .int32s(op.inputs.map(Int32.init))),
                (2, .int32s(op.outputs.map(Int32.init))),
            ]
            if let options = op.options {
                fields.append((3, .u8(op.optionsType)))
                fields.append((4, .table(options)))
            }
            return .table(fields)
        }
        let codeTables: [FBWriter.Value] = codes.map {
            .table([(0, .u8(UInt8(truncatingIfNeeded: min($0, 127)))), (3, .i32($0))])
        }
        let subgraph: FBWriter.Value = .table([
            (0, .tables(tensorTables)), (1, .int32s(inputs.map(Int32.init))),
            (2, .int32s(outputs.map(Int32.init))), (3, .tables(opTables)),
        ])
        return FBWriter.file(root: [
            (0, .i32(version)), (1, .tables(codeTables)), (2, .tables([subgraph])),
            (4, .tables(buffers)),
        ])
    }

    /// Builds, loads and runs the graph on `input`; returns output 0.
    func run(_ input: [Float]) throws -> [Float] {
        let interpreter = try Interpreter(model: try TFLiteModel(bytes: bytes(), name: "test.tflite"))
        _ = interpreter.input().update(fromContentsOf: input)
        interpreter.run()
        return Array(interpreter.output(0))
    }
}

/// Builtin operator codes and options used by the tests (schema.fbs).
enum Op {
    static let add: Int32 = 0, concatenation: Int32 = 2, conv: Int32 = 3, depthwise: Int32 = 4
    static let dequantize: Int32 = 6, maxPool: Int32 = 17, relu: Int32 = 19, reshape: Int32 = 22
    static let pad: Int32 = 34, prelu: Int32 = 54, resizeBilinear: Int32 = 23
    static let fullyConnected: Int32 = 9, logistic: Int32 = 14, mean: Int32 = 40

    /// Conv2DOptions / DepthwiseConv2DOptions fields: padding 0 SAME / 1 VALID, stride_w, stride_h.
    static func convOptions(same: Bool, stride: Int, activation: UInt8 = 0) -> [(Int, FBWriter.Value)] {
        [(0, .u8(same ? 0 : 1)), (1, .i32(Int32(stride))), (2, .i32(Int32(stride))), (3, .u8(activation))]
    }

    static func depthwiseOptions(same: Bool, stride: Int) -> [(Int, FBWriter.Value)] {
        [(0, .u8(same ? 0 : 1)), (1, .i32(Int32(stride))), (2, .i32(Int32(stride))), (3, .i32(1))]
    }

    static func poolOptions(same: Bool, stride: Int, filter: Int) -> [(Int, FBWriter.Value)] {
        [
            (0, .u8(same ? 0 : 1)), (1, .i32(Int32(stride))), (2, .i32(Int32(stride))), (3, .i32(Int32(filter))),
            (4, .i32(Int32(filter))),
        ]
    }
}
