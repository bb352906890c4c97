internal import CKernels

#if canImport(Glibc)
import Glibc
#endif

/// Runs a `TFLiteModel` on the CPU: NHWC float32, batch 1, one thread.
///
/// Everything is decided once at load: FP16 weights are converted, weights are packed for the kernels,
/// operators are fused (a convolution absorbs the residual ADD that follows it, a channel-only PAD on
/// the residual path, and the RELU/PRELU after that), RESHAPEs become aliases, and all activations are
/// laid out in one arena by lifetime. `run()` then allocates nothing (on a shared `ActivationArena` that grew since,
/// its first run binds the steps to the new memory once).
public final class Interpreter {
    /// The model's name (its file), for messages.
    public let name: String
    /// Shapes of the graph inputs and outputs, in the model's order (of one image: batch 1).
    public let inputShapes: [[Int]]
    public let outputShapes: [[Int]]
    /// Images the plan holds room for: `run(images:)` runs the first 1…batch of them through the same
    /// steps, so each step's weights are read once for all of them (the iris model's two eyes).
    public let batch: Int

    private var steps: [Step] = []
    /// The activation memory: this interpreter's own, or one shared with interpreters that never run at the same
    /// time (`ActivationArena`).
    public let arena: ActivationArena
    private let arenaFloats: Int
    private let scratchFloats: Int
    /// What the steps are made from again when the arena is reallocated (a larger plan joined it), and the
    /// arena's generation they were made for.
    private let plans: [StepPlan]
    private let planWeights: [(UnsafeRawPointer?, Int)]
    private let elementCounts: [Int]
    private let inputOffsets: [Int]
    private let outputOffsets: [Int]
    private var boundGeneration = -1
    private var constants: [UnsafeMutableRawPointer] = []
    /// The packed weights, biases and slopes, shared with other interpreters of the same model.
    private let sharedConstants: SharedConstants
    private var inputPointers: [UnsafeMutablePointer<Float>] = []
    private var outputPointers: [UnsafeMutablePointer<Float>] = []

    /// Number of floats of activation memory the plan uses (all tensors, reused by lifetime).
    public var arenaSize: Int { arenaFloats }
    /// Whether the large kernels run on AVX-512 (CKernels; this CPU has it and FACECAP_NO_AVX512 is unset).
    public static var usesAVX512: Bool { avx512GEMM }
    /// Constant buffers (packed weights, biases, slopes) this interpreter allocated, and those it uses from an
    /// earlier interpreter of the same model (for tests).
    var constantBuffers: (owned: Int, borrowed: Int) {
        (sharedConstants.owned.count, sharedConstants.pointers.count - sharedConstants.owned.count)
    }
    /// Bytes this interpreter holds: its plan's activations (in its arena, which may be shared), its own scratch
    /// buffers, and the packed constants it allocated (those borrowed from another interpreter not counted).
    public var memoryBytes: (activations: Int, scratch: Int, constants: Int) {
        let owned = Set(sharedConstants.owned.map { UnsafeRawPointer($0) })
        let constants = zip(sharedConstants.pointers, sharedConstants.counts)
            .filter { owned.contains(UnsafeRawPointer($0.0)) }.reduce(0) { $0 + ($1.1 + 16) * 4 }
        return (arenaFloats * 4, scratchFloats * 4, constants)
    }
    /// Number of kernel calls per `run()` after fusion.
    public var stepCount: Int { steps.count }

    deinit {
        for pointer in constants { pointer.deallocate() }
    }

    /// Pointer to input `index` of image `image` (0..<batch; elements in NHWC order); write the input here
    /// before `run()`.
    public func input(_ index: Int = 0, image: Int = 0) -> UnsafeMutableBufferPointer<Float> {
        precondition(image >= 0 && image < batch, "image \(image) of a batch of \(batch)")
        bindIfNeeded()
        let count = inputShapes[index].reduce(1, *)
        return UnsafeMutableBufferPointer(start: inputPointers[index] + image * count, count: count)
    }

    /// Output `index` of image `image` of the last `run()`, valid until the next one.
    public func output(_ index: Int, image: Int = 0) -> UnsafeBufferPointer<Float> {
        precondition(image >= 0 && image < batch, "image \(image) of a batch of \(batch)")
        bindIfNeeded()
        let count = outputShapes[index].reduce(1, *)
        return UnsafeBufferPointer(start: outputPointers[index] + image * count, count: count)
    }

    /// Runs the graph once on the current inputs of the first `images` images (all `batch` by default). With
    /// the C kernels (AVX-512 or AVX2) each step's kernels prefetch the packed weights of the next step that has
    /// any (`fc_prefetch_next`), so a small late layer does not wait for its weights.
    public func run(images: Int? = nil) {
        let n = images ?? batch
        precondition(n >= 1 && n <= batch, "\(n) images for a batch of \(batch)")
        bindIfNeeded()
        for step in steps {
            if avx512GEMM || avx2CKernels { fc_prefetch_next(step.nextWeights, step.nextWeightBytes) }
            step.execute(n)
        }
    }

    /// Runs the graph `runs` times and returns, per step, its label, the operator it runs, its work (FLOPs
    /// and bytes) and median time in milliseconds measured with `clock` (for `facecap bench --profile`, to see
    /// where the time goes and how far each kernel is from the machine's ceiling).
    /// With `images` > 1 each step runs that many images (FLOPs and activation bytes counted for all of them).
    public func profile(runs: Int, images: Int = 1, clock: () -> Double) -> [StepProfile] {
        let n = max(1, min(images, batch))
        bindIfNeeded()
        var times = [[Double]](repeating: [], count: steps.count)
        for _ in 0..<runs {
            for (index, step) in steps.enumerated() {
                if avx512GEMM || avx2CKernels { fc_prefetch_next(step.nextWeights, step.nextWeightBytes) }
                let start = clock()
                step.execute(n)
                times[index].append(clock() - start)
            }
        }
        return zip(steps, times).map { step, samples in
            StepProfile(
                label: step.label, kind: step.kind, flops: step.flops * n,
                bytes: (step.bytes - step.constantBytes) * n + step.constantBytes,
                milliseconds: samples.sorted()[samples.count / 2])
        }
    }

    /// Plans the whole graph: converts and packs weights, fuses operators, lays out the activations in `arena`
    /// (its own when nil; a shared one grows to the largest plan). An operator or shape the engine cannot run is a
    /// `ModelError` naming the model file.
    public init(model: TFLiteModel, batch: Int = 1, arena: ActivationArena? = nil) throws(ModelError) {
        name = model.name
        self.batch = max(1, batch)
        var builder = PlanBuilder(model: model, batch: self.batch)
        builder.constantPool.previous = SharedConstants.existing(for: model.name)
        do {
            try builder.build()
        } catch {
            // The constants packed before the failure belong to no interpreter (they leaked, LeakSanitizer
            // found with a fuzzed model).
            for pointer in builder.constantPool.pointers { pointer.deallocate() }
            throw ModelError(file: model.name, problem: (error as? PlanError)?.text ?? "\(error)")
        }
        inputShapes = model.inputs.map { model.tensors[$0].shape }
        outputShapes = model.outputs.map { model.tensors[$0].shape }
        arenaFloats = builder.arenaFloats
        self.arena = arena ?? ActivationArena()
        self.arena.reserve(arenaFloats)
        constants = builder.constantPool.pointers
        scratchFloats = builder.constantPool.scratchFloats
        sharedConstants = builder.constantPool.shared
        SharedConstants.register(sharedConstants, for: model.name)
        plans = builder.plans
        // The weights each step prefetches: those of the next step that has packed weights.
        var next: (UnsafeRawPointer?, Int) = (nil, 0)
        var weights = [(UnsafeRawPointer?, Int)](repeating: (nil, 0), count: plans.count)
        for index in plans.indices.reversed() {
            weights[index] = next
            if let packed = plans[index].weights { next = (packed, plans[index].weightBytes) }
        }
        planWeights = weights
        elementCounts = model.tensors.map(\.elementCount)
        inputOffsets = model.inputs.map { builder.offset(of: $0) }
        outputOffsets = model.outputs.map { builder.offset(of: $0) }
        bindIfNeeded()
    }

    /// Makes the steps and the input and output pointers for the arena's current memory, unless they were made
    /// for it already (an interpreter with a larger plan built on the same arena since reallocates it).
    private func bindIfNeeded() {
        guard boundGeneration != arena.generation else { return }
        let base = arena.base
        let counts = elementCounts
        steps = plans.map { $0.makeStep(base, images: batch) { counts[$0] } }
        for index in steps.indices {
            (steps[index].nextWeights, steps[index].nextWeightBytes) = planWeights[index]
        }
        inputPointers = inputOffsets.map { base + $0 }
        outputPointers = outputOffsets.map { base + $0 }
        boundGeneration = arena.generation
    }
}

/// One step of a profile: what it computes and how long it took (median).
public struct StepProfile: Sendable {
    /// The step as planned, e.g. "CONV 1x1/1 32x32x64->32+res".
    public var label: String
    /// The operator family, for totals: "CONV 1x1", "CONV kxk", "DW", "POOL", "other".
    public var kind: String
    /// Floating-point operations (a multiply-add counts 2; a comparison, addition or copy 1).
    public var flops: Int
    /// Bytes the step must move at least once: its inputs, outputs and constants (weights, bias, slopes).
    public var bytes: Int
    public var milliseconds: Double
}

struct PlanError: Error { var text: String }

/// One executable kernel call with all pointers resolved.
struct Step {
    let label: String
    let kind: String
    let flops: Int
    let bytes: Int
    let constantBytes: Int
    /// Runs the step on the first n images.
    let execute: (_ n: Int) -> Void
    /// The next step's packed weights (see `Interpreter.run`).
    var nextWeights: UnsafeRawPointer?
    var nextWeightBytes = 0
}

/// Arena-relative description of a step; becomes a `Step` once the arena exists.
struct StepPlan {
    var reads: [Int]
    var writes: [Int]
    var make: (_ address: (Int) -> UnsafeMutablePointer<Float>) -> () -> Void
    /// A kernel call that runs n images at once (their tensors lie one after the other), when the step has
    /// one; otherwise `make`'s call runs once per image on that image's tensors.
    var makeBatched: ((_ address: (Int) -> UnsafeMutablePointer<Float>) -> (_ n: Int) -> Void)?
    var resolver: ((Int) -> Int)?
    var label = ""
    var kind = "other"
    var flops = 0
    var bytes = 0
    var constantBytes = 0
    /// The packed weights the step reads (a GEMM's), for the previous step to prefetch.
    var weights: UnsafeRawPointer?
    var weightBytes = 0

    /// Image i's tensor t lies i · (t's element count) floats after image 0's (planMemory sizes each tensor
    /// for `images` images).
    func makeStep(_ base: UnsafeMutablePointer<Float>, images: Int, elements: (Int) -> Int) -> Step {
        let resolve = resolver!
        let execute: (Int) -> Void
        if let makeBatched {
            execute = makeBatched { base + resolve($0) }
        } else if images == 1 {
            let call = make { base + resolve($0) }
            execute = { _ in call() }
        } else {
            let calls = (0..<images).map { image in make { base + resolve($0) + image * elements($0) } }
            execute = { n in for i in 0..<n { calls[i]() } }
        }
        return Step(
            label: label, kind: kind, flops: flops, bytes: bytes, constantBytes: constantBytes,
            execute: execute)
    }
}

/// Turns the operator list into fused, memory-planned steps.
struct PlanBuilder {
    let model: TFLiteModel
    /// Images per run the arena holds (see `Interpreter.batch`).
    let batch: Int
    var constantPool = ConstantPool()
    var plans: [StepPlan] = []
    var arenaFloats = 0

    /// Float values of constant tensors (FP16 converted, DEQUANTIZE folded), converted when read: all of a
    /// model's weights as floats at once were the largest part of the peak memory at load (the hand model's
    /// FP16 weights are 11 MB as floats), while each is read by one operator.
    var constantValues = ConstantTable()
    var int32Values: [Int: [Int32]] = [:]
    /// Storage owner of every tensor (RESHAPE outputs alias their input).
    private var root: [Int] = []
    /// Each operator's place in the order the steps run (`runOrder`).
    var runPosition: [Int] = []
    private var offsets: [Int: Int] = [:]

    init(model: TFLiteModel, batch: Int = 1) {
        self.model = model
        self.batch = batch
        root = Array(0..<model.tensors.count)
    }

    func offset(of tensor: Int) -> Int { offsets[root[tensor]]! }

    func shape(_ t: Int) -> [Int] { model.tensors[t].shape }

    func floats(_ t: Int) throws -> [Float] {
        guard let values = constantValues[t] else {
            throw PlanError(text: "tensor \(t) ('\(model.tensors[t].name)') must be a constant float tensor")
        }
        return values
    }

    /// Spatial dims of a 4-D NHWC activation with batch 1.
    func nhwc(_ t: Int) throws -> (h: Int, w: Int, c: Int) {
        let s = shape(t)
        guard s.count == 4, s[0] == 1 else {
            throw PlanError(text: "tensor \(t) has shape \(s); only NHWC tensors with batch 1 are supported")
        }
        return (s[1], s[2], s[3])
    }

    /// The model's constant tensors by index (floats read lazily, int32 shapes and axes now), and a check
    /// that every graph input is a float32 activation.
    private mutating func loadConstants() throws {
        constantValues.model = model
        for (index, tensor) in model.tensors.enumerated() {
            guard let data = tensor.data else { continue }
            switch tensor.type {
            case .float32, .float16:
                constantValues.source[index] = index
            case .int32:
                int32Values[index] = littleEndianWords(data).map { Int32(bitPattern: $0) }
            }
        }
        for input in model.inputs {
            guard model.tensors[input].type == .float32, model.tensors[input].data == nil else {
                throw PlanError(text: "the graph input must be a float32 activation")
            }
        }
    }

    mutating func build() throws {
        let tensors = model.tensors
        try loadConstants()

        // Consumers of every tensor (graph outputs count as a consumer that must see the value).
        var consumers = [[Int]](repeating: [], count: tensors.count)
        var producer = [Int](repeating: -1, count: tensors.count)
        for (index, op) in model.operators.enumerated() {
            for input in op.inputs { consumers[input].append(index) }
            for output in op.outputs { producer[output] = index }
        }
        var isGraphOutput = [Bool](repeating: false, count: tensors.count)
        for output in model.outputs { isGraphOutput[output] = true }
        func soleConsumer(_ t: Int) -> Int? {
            consumers[t].count == 1 && !isGraphOutput[t] ? consumers[t][0] : nil
        }

        var skipped = Set<Int>()
        let order = runOrder(producer: producer, soleConsumer: soleConsumer)
        runPosition = [Int](repeating: 0, count: order.count)
        for (position, index) in order.enumerated() { runPosition[index] = position }
        for index in order where !skipped.contains(index) {
            let op = model.operators[index]
            guard op.outputs.count == 1 else { throw PlanError(text: "operator \(index) must have one output") }
            let output = op.outputs[0]
            guard tensors[output].type == .float32 else {
                throw PlanError(text: "operator \(index) produces a non-float32 tensor")
            }
            switch op.code {
            case .dequantize:
                guard op.inputs.count == 1, constantValues.has(op.inputs[0]),
                    constantValues.count(op.inputs[0]) == tensors[output].elementCount
                else {
                    throw PlanError(text: "DEQUANTIZE (operator \(index)) of a non-constant tensor is not supported")
                }
                constantValues.alias(output, to: op.inputs[0])
            case .reshape:
                guard let input = op.inputs.first, tensors[input].elementCount == tensors[output].elementCount else {
                    throw PlanError(text: "RESHAPE (operator \(index)) changes the element count")
                }
                if constantValues.has(input) {
                    constantValues.alias(output, to: input)
                } else {
                    root[output] = root[input]
                }
            case .conv2D, .depthwiseConv2D:
                try planConvolution(index, op, soleConsumer: soleConsumer, producer: producer, skipped: &skipped)
            case .maxPool2D:
                try planPool(index, op)
            case .add:
                try planAdd(index, op)
            case .relu, .prelu:
                try planActivation(index, op)
            case .pad:
                try planPad(index, op)
            case .concatenation:
                try planConcatenation(index, op)
            case .mean, .fullyConnected, .logistic:
                try planDense(index, op)
            case .resizeBilinear:
                try planResizeBilinear(index, op)
            }
            if let last = plans.indices.last, plans[last].label.isEmpty { plans[last].label = "\(op.code)" }
            // PAD and CONCATENATION only move data (the kernels above count their own work).
            if let last = plans.indices.last, plans[last].bytes == 0 { cost("other", flops: 0) }
        }
        for output in model.outputs where constantValues.has(output) {
            throw PlanError(text: "graph output \(output) is a constant")
        }
        planMemory()
    }

    /// A short description of the step just appended, for profiles.
    mutating func label(_ text: String) { plans[plans.count - 1].label = text }

    /// The work of the step just appended, for profiles: its operator family, FLOPs, and the floats it
    /// reads and writes (each tensor once) plus `constants` floats of weights.
    mutating func cost(_ kind: String, flops: Int, constants: Int = 0) {
        let plan = plans[plans.count - 1]
        let floats = (plan.reads + plan.writes).filter { $0 < model.tensors.count }
            .reduce(constants) { $0 + model.tensors[$1].elementCount }
        plans[plans.count - 1].kind = kind
        plans[plans.count - 1].flops = flops
        plans[plans.count - 1].bytes = floats * 4
        plans[plans.count - 1].constantBytes = constants * 4
    }

    private func littleEndianWords(_ data: [UInt8]) -> [UInt32] {
        var words = [UInt32](repeating: 0, count: data.count / 4)
        for i in words.indices {
            let b0 = UInt32(data[4 * i]), b1 = UInt32(data[4 * i + 1])
            let b2 = UInt32(data[4 * i + 2]), b3 = UInt32(data[4 * i + 3])
            words[i] = b0 | b1 << 8 | b2 << 16 | b3 << 24
        }
        return words
    }

    // MARK: memory planning

    /// Places every activation in one arena: tensors whose lifetimes (first write … last read, in steps)
    /// overlap never share memory; graph inputs and outputs live for the whole run.
    private mutating func planMemory() {
        var first: [Int: Int] = [:], last: [Int: Int] = [:]
        let end = plans.count
        func touch(_ tensor: Int, _ step: Int) {
            let r = root[tensor]
            first[r] = min(first[r] ?? step, step)
            last[r] = max(last[r] ?? step, step)
        }
        for input in model.inputs { touch(input, 0); touch(input, end) }
        for (step, plan) in plans.enumerated() {
            for t in plan.reads + plan.writes { touch(t, step) }
        }
        for output in model.outputs { touch(output, end) }
        func size(_ r: Int) -> Int {
            let floats = model.tensors[r].elementCount * batch
            return (floats + 16 + 15) & ~15  // room for one over-wide SIMD load, 64-byte aligned
        }
        let order = first.keys.sorted { size($0) != size($1) ? size($0) > size($1) : $0 < $1 }
        var placed: [(offset: Int, size: Int, first: Int, last: Int)] = []
        for r in order {
            let s = size(r), f = first[r]!, l = last[r]!
            let conflicts = placed.filter { $0.first <= l && f <= $0.last }.sorted { $0.offset < $1.offset }
            var offset = 0
            for c in conflicts where offset + s > c.offset {
                offset = max(offset, c.offset + c.size)
            }
            placed.append((offset, s, f, l))
            offsets[r] = offset
            arenaFloats = max(arenaFloats, offset + s)
        }
        let resolvedOffsets = offsets, resolvedRoot = root
        for i in plans.indices {
            plans[i].resolver = { resolvedOffsets[resolvedRoot[$0]]! }
        }
    }
}
