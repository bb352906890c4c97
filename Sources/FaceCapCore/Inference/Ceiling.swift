// What this machine can do on one thread, measured, for `facecap bench --profile`: the ceiling a layer cannot
// beat is max(FLOPs / peak FLOP rate, bytes / read bandwidth of the cache level its bytes fit in).

internal import CKernels

/// Peak fused multiply-add rate and read bandwidths of one core, measured by `measure(clock:)`.
public struct MachineCeiling: Sendable {
    /// GFLOP/s of 8-lane (AVX2) fused multiply-adds, 12 independent chains.
    public var fmaAVX2: Double
    /// GFLOP/s of 16-lane (AVX-512) fused multiply-adds, or nil when the CPU has no AVX-512.
    public var fmaAVX512: Double?
    /// Read bandwidth in GB/s (10⁹ bytes) of a buffer of each size in bytes, smallest first.
    public var bandwidth: [(bytes: Int, gbps: Double)]

    /// The peak the kernels in use can reach (the AVX-512 one when those kernels run).
    public var peak: Double { avx512GEMM ? max(fmaAVX2, fmaAVX512 ?? 0) : fmaAVX2 }

    /// Read bandwidth for a working set of `bytes`: that of the smallest measured buffer that holds it.
    public func bandwidth(for bytes: Int) -> Double {
        (bandwidth.first { $0.bytes >= bytes } ?? bandwidth.last!).gbps
    }

    /// The least time in milliseconds a step of `flops` and `bytes` can take here.
    public func ceilingMilliseconds(flops: Int, bytes: Int) -> Double {
        max(Double(flops) / (peak * 1e6), Double(bytes) / (bandwidth(for: bytes) * 1e6))
    }

    /// Measures on the calling thread; `clock` returns milliseconds. Best of several tries, so the figures
    /// are what the core does when the machine lets it (about 0.5 s in all).
    public static func measure(clock: () -> Double) -> MachineCeiling {
        func best(_ tries: Int, _ body: () -> Void) -> Double {
            var least = Double.infinity
            for _ in 0..<tries {
                let start = clock()
                body()
                least = min(least, clock() - start)
            }
            return least
        }
        let iterations = 200_000
        var sink: Float = 0
        let avx2 = best(30) { sink += fc_fma_loop_avx2(iterations) }
        let fma2 = Double(iterations * 12 * 8 * 2) / (avx2 * 1e6)
        var fma512: Double?
        if fc_has_avx512() != 0 {
            let wide = best(30) { sink += fc_fma_loop_avx512(iterations) }
            fma512 = Double(iterations * 12 * 16 * 2) / (wide * 1e6)
        }
        var bandwidth: [(bytes: Int, gbps: Double)] = []
        for bytes in [256 << 10, 4 << 20, 128 << 20] {
            let count = bytes / 4
            let buffer = UnsafeMutablePointer<Float>.allocate(capacity: count)
            buffer.initialize(repeating: 1, count: count)
            let repeats = max(1, (64 << 20) / bytes)
            let time = best(bytes > 16 << 20 ? 4 : 10) {
                for _ in 0..<repeats { sink += fc_read_sum(buffer, count) }
            }
            bandwidth.append((bytes, Double(bytes * repeats) / (time * 1e6)))
            buffer.deallocate()
        }
        // The sums are consumed so the loops cannot be dropped.
        if sink.isNaN { bandwidth.append((0, 0)) }
        return MachineCeiling(fmaAVX2: fma2, fmaAVX512: fma512, bandwidth: bandwidth)
    }
}
