/// A TFLite model file that cannot be used: which file, and what is wrong with it.
public struct ModelError: UserFacingError, Equatable, CustomStringConvertible {
    /// The file (or name) the model came from.
    public var file: String
    /// What is wrong, e.g. "truncated: ...".
    public var problem: String
    /// What to do about it: a sentence (or two).
    public var advice: String

    /// What to do about a damaged or wrong model file, whether facecap runs from a checkout or a package.
    public static var refetch: String { Words.text(.modelRefetch) }

    /// An error about `file`; `problem` is a lowercase phrase without a final full stop.
    public init(file: String, problem: String, advice: String = ModelError.refetch) {
        self.file = file
        self.problem = problem
        self.advice = advice
    }

    /// The sentence a person reads: the file, the problem, and what to do.
    public var message: String { Words.modelCannotUse(file: file, problem: problem, advice: advice) }
    public var exitCode: ExitCode { .failure }
    public var description: String { message }
}

/// Element types of TFLite tensors that these models use (schema `TensorType`).
public enum TFLiteTensorType: Int8, Sendable {
    case float32 = 0
    case float16 = 1
    case int32 = 2

    var byteSize: Int { self == .float16 ? 2 : 4 }
}

/// The TFLite builtin operators the inference engine implements (schema `BuiltinOperator`).
public enum TFLiteOperatorCode: Int32, Sendable {
    case add = 0
    case concatenation = 2
    case conv2D = 3
    case depthwiseConv2D = 4
    case dequantize = 6
    case fullyConnected = 9
    case logistic = 14
    case maxPool2D = 17
    case relu = 19
    case reshape = 22
    case resizeBilinear = 23
    case pad = 34
    case mean = 40
    case prelu = 54
}

/// TFLite padding modes (schema `Padding`: SAME 0, VALID 1).
public enum TFLitePadding: Int8, Sendable {
    case same = 0
    case valid = 1
}

/// Fused activations the engine supports (schema `ActivationFunctionType`).
public enum TFLiteActivation: Int8, Sendable {
    case none = 0
    case relu = 1
    case reluN1To1 = 2
    case relu6 = 3
}

/// Spatial window parameters shared by convolutions and pooling.
public struct TFLiteWindow: Sendable, Equatable {
    public var padding: TFLitePadding
    public var strideW: Int, strideH: Int
    /// Pooling only (convolutions take the kernel size from the weights).
    public var filterW: Int = 0, filterH: Int = 0
    public var activation: TFLiteActivation
}

/// The options of one operator, decoded from its `builtin_options` table.
public enum TFLiteOptions: Sendable, Equatable {
    case none
    case conv(TFLiteWindow)
    case depthwise(TFLiteWindow)
    case pool(TFLiteWindow)
    case add(TFLiteActivation)
    case concatenation(axis: Int, activation: TFLiteActivation)
    case reshape(newShape: [Int])
    /// FULLY_CONNECTED: the fused activation and whether the output keeps the input's leading dimensions.
    case fullyConnected(activation: TFLiteActivation, keepNumDims: Bool)
    /// MEAN (ReducerOptions): whether the reduced axes stay as dimensions of size 1.
    case reducer(keepDims: Bool)
    /// RESIZE_BILINEAR: where the corners of input and output pixels meet (TFLite's two flags).
    case resize(alignCorners: Bool, halfPixelCenters: Bool)
}

/// One tensor of the graph; `data` holds the raw little-endian bytes of a constant, nil for activations.
public struct TFLiteTensor: Sendable {
    public var name: String
    public var shape: [Int]
    public var type: TFLiteTensorType
    public var data: [UInt8]?

    public var elementCount: Int { shape.reduce(1, *) }
}

/// One operator: what it computes, from which tensors into which.
public struct TFLiteOperator: Sendable {
    public var code: TFLiteOperatorCode
    public var inputs: [Int]
    public var outputs: [Int]
    public var options: TFLiteOptions
}

/// The parts of a TFLite model (first subgraph) that inference needs, fully validated.
public struct TFLiteModel: Sendable {
    public var name: String
    public var tensors: [TFLiteTensor]
    public var operators: [TFLiteOperator]
    public var inputs: [Int]
    public var outputs: [Int]

    /// Parses and validates a TFLite flatbuffer. `name` (usually the file path) appears in every error.
    public init(bytes: [UInt8], name: String) throws(ModelError) {
        self.name = name
        do {
            (tensors, operators, inputs, outputs) = try Self.parse(FlatBuffer(bytes))
        } catch let error as FlatBufferError {
            throw ModelError(file: name, problem: Words.modelCorrupted(detail: error.description))
        } catch let error as ModelProblem {
            throw ModelError(file: name, problem: error.text)
        } catch {
            throw ModelError(file: name, problem: "\(error)")
        }
    }

    private struct ModelProblem: Error { var text: String }

    private static func parse(_ fb: FlatBuffer) throws
        -> ([TFLiteTensor], [TFLiteOperator], [Int], [Int])
    {
        guard fb.bytes.count >= 8 else {
            throw ModelProblem(text: "truncated: only \(fb.bytes.count) bytes, not a TFLite model")
        }
        guard Array(fb.bytes[4..<8]) == Array("TFL3".utf8) else {
            throw ModelProblem(text: "not a TFLite model (the file identifier is not 'TFL3')")
        }
        let model = try fb.root()
        let version = try model.u32(0)
        guard version == 3 else { throw ModelProblem(text: "unsupported schema version \(version) (expected 3)") }

        var codes: [Int32] = []
        for code in try model.tables(1) {
            let deprecated = Int32(try code.i8(0))
            let builtin = try code.i32(3)
            codes.append(max(deprecated, builtin))  // schema_utils.cc GetBuiltinCode()
        }
        let buffers = try model.tables(4).map { table throws(FlatBufferError) in try table.byteRange(0) }
        let subgraphs = try model.tables(2)
        guard let graph = subgraphs.first else { throw ModelProblem(text: "the model has no subgraph") }

        let tensors = try parseTensors(try graph.tables(0), buffers: buffers, bytes: fb.bytes)

        func tensorIndices(_ values: [Int32], _ what: String, allowAbsent: Bool = false) throws -> [Int] {
            try values.map { value in
                guard value >= 0, Int(value) < tensors.count else {
                    throw ModelProblem(text: "\(what) refers to tensor \(value) of \(tensors.count)")
                }
                return Int(value)
            }
        }

        var operators: [TFLiteOperator] = []
        for (index, op) in try graph.tables(3).enumerated() {
            let codeIndex = Int(try op.u32(0))
            guard codeIndex < codes.count else {
                throw ModelProblem(text: "operator \(index) refers to operator code \(codeIndex) of \(codes.count)")
            }
            guard let code = TFLiteOperatorCode(rawValue: codes[codeIndex]) else {
                throw ModelProblem(
                    text: "operator \(index) uses builtin operator \(codes[codeIndex]), "
                        + "which facecap's inference engine does not implement")
            }
            let inputs = try tensorIndices(try op.int32s(1), "operator \(index)")
            let outputs = try tensorIndices(try op.int32s(2), "operator \(index)")
            let options = try parseOptions(code, op, index)
            operators.append(TFLiteOperator(code: code, inputs: inputs, outputs: outputs, options: options))
        }
        let inputs = try tensorIndices(try graph.int32s(1), "the graph input")
        let outputs = try tensorIndices(try graph.int32s(2), "the graph output")
        guard !inputs.isEmpty, !outputs.isEmpty else { throw ModelProblem(text: "the graph has no inputs or outputs") }
        return (tensors, operators, inputs, outputs)
    }

    /// The subgraph's tensors: shape, type and constant data checked against their buffers.
    private static func parseTensors(_ tables: [Table], buffers: [Range<Int>], bytes: [UInt8]) throws
        -> [TFLiteTensor]
    {
        var tensors: [TFLiteTensor] = []
        for (index, t) in tables.enumerated() {
            let shape = try t.int32s(0).map(Int.init)
            let rawType = try t.i8(1)
            guard let type = TFLiteTensorType(rawValue: rawType) else {
                throw ModelProblem(text: "tensor \(index) has unsupported type \(rawType)")
            }
            // Saturating product: each step is at most 2^40 · 2^20, so a hostile shape cannot overflow.
            let elements = shape.reduce(1) { min($0 * min(max($1, 0), 1 << 20), 1 << 40) }
            guard shape.allSatisfy({ $0 >= 1 && $0 <= 1 << 20 }), shape.count <= 5, elements <= 1 << 26 else {
                throw ModelProblem(text: "tensor \(index) has an invalid shape \(shape)")
            }
            let bufferIndex = Int(try t.u32(2))
            guard bufferIndex < max(buffers.count, 1) else {
                throw ModelProblem(text: "tensor \(index) refers to buffer \(bufferIndex) of \(buffers.count)")
            }
            var data: [UInt8]?
            if bufferIndex < buffers.count, !buffers[bufferIndex].isEmpty {
                let range = buffers[bufferIndex]
                let count = shape.reduce(1, *)
                guard count <= 1 << 26, range.count == count * type.byteSize else {
                    throw ModelProblem(text: "tensor \(index) has \(range.count) bytes of data for shape \(shape)")
                }
                data = Array(bytes[range])
            }
            tensors.append(TFLiteTensor(name: try t.string(3), shape: shape, type: type, data: data))
        }
        return tensors
    }

    private static func activation(_ raw: Int8, _ index: Int) throws -> TFLiteActivation {
        guard let value = TFLiteActivation(rawValue: raw) else {
            throw ModelProblem(text: "operator \(index) uses unsupported fused activation \(raw)")
        }
        return value
    }

    private static func window(_ t: Table, _ index: Int, pool: Bool, activationField: Int) throws -> TFLiteWindow {
        let rawPadding = try t.i8(0)
        guard let padding = TFLitePadding(rawValue: rawPadding) else {
            throw ModelProblem(text: "operator \(index) has unknown padding \(rawPadding)")
        }
        let strideW = Int(try t.i32(1)), strideH = Int(try t.i32(2))
        var window = TFLiteWindow(
            padding: padding, strideW: strideW, strideH: strideH,
            activation: try activation(try t.i8(activationField), index))
        if pool {
            window.filterW = Int(try t.i32(3))
            window.filterH = Int(try t.i32(4))
            guard (1...64).contains(window.filterW), (1...64).contains(window.filterH) else {
                throw ModelProblem(text: "operator \(index) has an invalid pooling window")
            }
        }
        guard (1...64).contains(strideW), (1...64).contains(strideH) else {
            throw ModelProblem(text: "operator \(index) has invalid strides \(strideW)×\(strideH)")
        }
        return window
    }

    private static func parseOptions(_ code: TFLiteOperatorCode, _ op: Table, _ index: Int) throws -> TFLiteOptions {
        let table = try op.table(4)
        func required() throws -> Table {
            guard let table else { throw ModelProblem(text: "operator \(index) (\(code)) has no options") }
            return table
        }
        switch code {
        case .conv2D:
            let t = try required()
            guard try t.i32(4, default: 1) == 1, try t.i32(5, default: 1) == 1 else {
                throw ModelProblem(text: "operator \(index) uses a dilated convolution, which is not supported")
            }
            return .conv(try window(t, index, pool: false, activationField: 3))
        case .depthwiseConv2D:
            let t = try required()
            guard try t.i32(5, default: 1) == 1, try t.i32(6, default: 1) == 1 else {
                throw ModelProblem(text: "operator \(index) uses a dilated convolution, which is not supported")
            }
            let multiplier = try t.i32(3)
            guard multiplier == 1 || multiplier == 0 else {
                throw ModelProblem(
                    text: "operator \(index) uses depth multiplier \(multiplier), "
                        + "which is not supported")
            }
            return .depthwise(try window(t, index, pool: false, activationField: 4))
        case .maxPool2D:
            return .pool(try window(try required(), index, pool: true, activationField: 5))
        case .add:
            return .add(try activation(try table?.i8(0) ?? 0, index))
        case .concatenation:
            let t = try required()
            return .concatenation(axis: Int(try t.i32(0)), activation: try activation(try t.i8(1), index))
        case .reshape:
            guard let table else { return .none }
            return .reshape(newShape: try table.int32s(0).map(Int.init))
        case .fullyConnected:
            // FullyConnectedOptions: 0 fused activation, 1 weights format (only DEFAULT, 0), 2 keep_num_dims.
            guard try table?.i8(1) ?? 0 == 0 else {
                throw ModelProblem(
                    text: "operator \(index) uses shuffled FULLY_CONNECTED weights, "
                        + "which are not supported")
            }
            return .fullyConnected(
                activation: try activation(try table?.i8(0) ?? 0, index),
                keepNumDims: try table?.u8(2) ?? 0 != 0)
        case .mean:
            return .reducer(keepDims: try table?.u8(0) ?? 0 != 0)
        case .resizeBilinear:
            // ResizeBilinearOptions: 0 and 1 deprecated (new_height, new_width), 2 align_corners,
            // 3 half_pixel_centers; both false when absent.
            return .resize(alignCorners: try table?.u8(2) ?? 0 != 0, halfPixelCenters: try table?.u8(3) ?? 0 != 0)
        case .dequantize, .relu, .pad, .prelu, .logistic:
            return .none
        }
    }
}
