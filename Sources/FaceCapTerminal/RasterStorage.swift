// PreviewRaster's working buffers, owned as pointers so the per-frame pass reads and writes them directly.

/// The buffers a `PreviewRaster` works in from frame to frame: sized once per preview size (`resize`), and the
/// palette's caches once per raster. A raster copies its storage before it writes to a shared one
/// (`PreviewRaster.render`), so a copied raster stays a value.
final class RasterStorage: @unchecked Sendable {
    /// Per preview pixel (row-major, `pixelsWide × pixelsHigh`): the colour it showed last (-1: none yet), and the
    /// colour that was worked out from; the error it receives from the pixels before it (256 colours, and the
    /// shade cells' error per cell); -2 outside the oval, -1 inside, 0...1000 on the outline; whether it lies in
    /// the face region the tone gain is measured on.
    private(set) var shown = UnsafeMutableBufferPointer<Int32>.allocate(capacity: 0)
    private(set) var lastInput = UnsafeMutableBufferPointer<SIMD3<Float>>.allocate(capacity: 0)
    private(set) var diffusion = UnsafeMutableBufferPointer<SIMD3<Float>>.allocate(capacity: 0)
    private(set) var mask = UnsafeMutableBufferPointer<Int16>.allocate(capacity: 0)
    private(set) var faceRegion = UnsafeMutableBufferPointer<Bool>.allocate(capacity: 0)
    /// The frame columns each preview column averages (`tapsX` a column), and the frame rows each preview row does.
    private(set) var xTaps = UnsafeMutableBufferPointer<Int32>.allocate(capacity: 0)
    private(set) var yTaps = UnsafeMutableBufferPointer<Int32>.allocate(capacity: 0)
    /// Without colour: the brightness histogram of the frame drawn.
    let histogram: UnsafeMutableBufferPointer<Int>
    /// The dither's candidates for each 5-bit colour key (`PaletteTables.pattern`), worked out the first time the
    /// key is met (so start-up costs nothing), `PaletteTables.candidateCount` a key; `known` has a bit per key
    /// worked out; `scratch` is room for one key's working.
    let candidates: UnsafeMutableBufferPointer<UInt8>
    let known: UnsafeMutableBufferPointer<UInt64>
    let scratch: UnsafeMutableBufferPointer<Int>
    /// In 256 colours with shade mixes: the mix of each 5-bit colour key, worked out the first time the key is met
    /// (0: not yet).
    let mixOfKey: UnsafeMutableBufferPointer<Int32>

    init(paletteCaches: Bool, mixes: Bool) {
        histogram = Self.make(256, 0)
        candidates = Self.make(paletteCaches ? 32 * 32 * 32 * PaletteTables.candidateCount : 0, 0)
        known = Self.make(paletteCaches ? 32 * 32 * 32 / 64 : 0, 0)
        scratch = Self.make(PaletteTables.candidateCount, 0)
        mixOfKey = Self.make(mixes ? 32 * 32 * 32 : 0, 0)
    }

    /// A copy of every buffer, for a raster whose storage another copy of it shares.
    init(copying other: RasterStorage) {
        histogram = Self.copy(other.histogram)
        candidates = Self.copy(other.candidates)
        known = Self.copy(other.known)
        scratch = Self.copy(other.scratch)
        mixOfKey = Self.copy(other.mixOfKey)
        replace(&shown, Self.copy(other.shown))
        replace(&lastInput, Self.copy(other.lastInput))
        replace(&diffusion, Self.copy(other.diffusion))
        replace(&mask, Self.copy(other.mask))
        replace(&faceRegion, Self.copy(other.faceRegion))
        replace(&xTaps, Self.copy(other.xTaps))
        replace(&yTaps, Self.copy(other.yTaps))
    }

    deinit {
        shown.deallocate()
        lastInput.deallocate()
        diffusion.deallocate()
        mask.deallocate()
        faceRegion.deallocate()
        xTaps.deallocate()
        yTaps.deallocate()
        histogram.deallocate()
        candidates.deallocate()
        known.deallocate()
        scratch.deallocate()
        mixOfKey.deallocate()
    }

    /// Sizes the per-pixel buffers for `pixels` preview pixels, each as a new raster starts it: nothing shown,
    /// no error carried (`diffusion` only when the palette diffuses), every pixel inside the oval and outside the
    /// face region. The taps are sized by `sizeTaps`.
    func resize(pixels: Int, diffusion diffuses: Bool) {
        replace(&shown, Self.make(pixels, -1))
        replace(&lastInput, Self.make(pixels, .zero))
        replace(&diffusion, Self.make(diffuses ? pixels : 0, .zero))
        replace(&mask, Self.make(pixels, -1))
        replace(&faceRegion, Self.make(pixels, false))
    }

    /// Sizes the taps: `xCount` for the preview's columns, `yCount` for its rows.
    func sizeTaps(xCount: Int, yCount: Int) {
        replace(&xTaps, Self.make(xCount, 0))
        replace(&yTaps, Self.make(yCount, 0))
    }

    /// Where each buffer lives, for tests that check nothing is reallocated per frame.
    var addresses: [UInt] {
        [
            UnsafeMutableRawPointer(shown.baseAddress), UnsafeMutableRawPointer(lastInput.baseAddress),
            UnsafeMutableRawPointer(histogram.baseAddress), UnsafeMutableRawPointer(candidates.baseAddress),
            UnsafeMutableRawPointer(known.baseAddress), UnsafeMutableRawPointer(mask.baseAddress),
            UnsafeMutableRawPointer(xTaps.baseAddress), UnsafeMutableRawPointer(yTaps.baseAddress),
            UnsafeMutableRawPointer(diffusion.baseAddress), UnsafeMutableRawPointer(faceRegion.baseAddress),
            UnsafeMutableRawPointer(mixOfKey.baseAddress),
        ].map { UInt(bitPattern: $0) }
    }

    private func replace<T>(_ buffer: inout UnsafeMutableBufferPointer<T>, _ new: UnsafeMutableBufferPointer<T>) {
        buffer.deallocate()
        buffer = new
    }

    private static func make<T>(_ count: Int, _ value: T) -> UnsafeMutableBufferPointer<T> {
        let buffer = UnsafeMutableBufferPointer<T>.allocate(capacity: count)
        buffer.initialize(repeating: value)
        return buffer
    }

    private static func copy<T>(_ other: UnsafeMutableBufferPointer<T>) -> UnsafeMutableBufferPointer<T> {
        let buffer = UnsafeMutableBufferPointer<T>.allocate(capacity: other.count)
        _ = buffer.initialize(from: other)
        return buffer
    }
}
