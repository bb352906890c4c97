// What the hand model's crops look like, coarsely, so that the live tracker reads only the crops where something
// changed while no hand is about (issue 18's CPU budget with issue 32's hands: docs/performance.md, "The wizard's
// CPU: the hand crops a run reads").

/// A coarse picture of the middle of one hand crop: the central `inner` share of the crop (turned with it, so it
/// follows the face), sampled `grid · samples` pixels a side and averaged to `grid` × `grid` blocks of RGB in
/// [0, 1]. A hand coming over the part the crop is centred on changes most blocks; the same face a few pixels
/// away, a blink or webcam noise hardly any.
public struct CropLook: Sendable, Equatable {
    /// Blocks a side.
    public static let grid = 6
    /// Samples a side of each block (bilinear, then averaged).
    static let samples = 4
    /// The share of the crop's side looked at, around its centre: the part of the face, not the background.
    public static let inner: Float = 0.6
    /// Scratch values for one look (`side` × `side` × 3).
    static let side = grid * samples
    static let scratchCount = side * side * 3

    /// `grid` × `grid` × 3 block means.
    public private(set) var blocks: [Float]

    /// The look of `roi` in `frame` (`scratch`: at least `scratchCount` floats, reused); nil when the frame's
    /// data is too short for its format.
    public init?(frame: Frame, roi: FaceROI, scratch: inout [Float]) {
        let side = Self.side
        if scratch.count < Self.scratchCount { scratch = [Float](repeating: 0, count: Self.scratchCount) }
        let map = SamplingMap(
            centre: roi.centre, width: roi.side * Self.inner, height: roi.side * Self.inner,
            rotation: roi.rotation)
        let filled = scratch.withUnsafeMutableBufferPointer { buffer in
            fillTensor(
                buffer, width: side, height: side, from: frame, map: map, border: .zero, scale: 1 / 255,
                offset: 0)
        }
        guard filled else { return nil }
        let n = Self.grid, k = Self.samples
        var blocks = [Float](repeating: 0, count: n * n * 3)
        for y in 0..<side {
            for x in 0..<side {
                let block = ((y / k) * n + x / k) * 3, pixel = (y * side + x) * 3
                for c in 0..<3 { blocks[block + c] += scratch[pixel + c] }
            }
        }
        let share = 1 / Float(k * k)
        for i in blocks.indices { blocks[i] *= share }
        self.blocks = blocks
    }

    /// How far `other` is from this look: the mean absolute difference of the blocks after each look's own mean
    /// of each colour is taken away (a camera's exposure or white balance moving alone changes nothing), in [0, 1].
    public func change(from other: CropLook) -> Float {
        let count = Self.grid * Self.grid
        var means = SIMD4<Float>(repeating: 0), otherMeans = SIMD4<Float>(repeating: 0)
        for i in 0..<count {
            for c in 0..<3 {
                means[c] += blocks[3 * i + c]
                otherMeans[c] += other.blocks[3 * i + c]
            }
        }
        means /= Float(count)
        otherMeans /= Float(count)
        var total: Float = 0
        for i in 0..<count {
            for c in 0..<3 {
                total += abs((blocks[3 * i + c] - means[c]) - (other.blocks[3 * i + c] - otherMeans[c]))
            }
        }
        return total / Float(3 * count)
    }
}
