/// Activation memory that interpreters which never run at the same time share: each interpreter's plan lays its
/// tensors out from offset 0, and nothing of one run is read by the next (every step writes the whole of its
/// output before a later step reads it; a graph's inputs are written by the caller before each run and its outputs
/// read before another run), so models run one after another on one thread need only the largest plan's memory.
/// The face tracker's detector, landmark, hand and palm models share one (their arenas were 1.8 + 2.2 + 4.9 + the
/// palm's MB; docs/performance.md, "The shared arena"); the iris model's interpreters, which run beside another
/// thread's, keep their own.
///
/// Not thread-safe, by design: the interpreters sharing it must be used from one thread at a time (the tracker's
/// owner's). An interpreter's outputs are valid until the next run of any interpreter sharing its arena, and until
/// a larger interpreter is built on it (the memory is then allocated anew).
public final class ActivationArena {
    /// The memory, 64-byte aligned, at least `floats` floats (zeroed when allocated).
    private(set) var base: UnsafeMutablePointer<Float>
    /// Floats held: the largest plan of the interpreters built on it.
    public private(set) var floats = 0
    /// Counts reallocations: an interpreter bound to an older generation binds its steps again before it runs.
    private(set) var generation = 0

    public init() {
        base = Self.allocate(0)
    }

    deinit { base.deallocate() }

    /// Room for a plan of `count` floats: a larger plan than any before replaces the memory (the interpreters
    /// already bound to it bind again at their next use).
    func reserve(_ count: Int) {
        guard count > floats else { return }
        base.deallocate()
        base = Self.allocate(count)
        floats = count
        generation += 1
    }

    private static func allocate(_ count: Int) -> UnsafeMutablePointer<Float> {
        let raw = UnsafeMutableRawPointer.allocate(byteCount: max(64, count * 4), alignment: 64)
        raw.initializeMemory(as: Float.self, repeating: 0, count: max(16, count))
        return raw.assumingMemoryBound(to: Float.self)
    }
}
