import CKernels
import XCTest

/// The next step's weights are prefetched by the AVX2 C kernels too (fc_prefetch_next, one cache line per k of a
/// GEMM block and per group of depthwise outputs), as by the AVX-512 ones: without it the iris model's late, small
/// layers wait for weights that did not stay in L2 since the last run (docs/performance.md).
final class PrefetchTests: XCTestCase {
    /// A region of 8 KB (128 cache lines) to prefetch; the kernels below run more inner iterations than that.
    private let region = [UInt8](repeating: 0, count: 8192)

    override func tearDown() {
        fc_prefetch_next(nil, 0)
        super.tearDown()
    }

    func testAVX2GemmPanelAdvancesThePrefetch() {
        // 6 rows × 32 channels, k = 64: two 16-channel halves of 64 k each, a line per k.
        let k = 64, width = 32
        let a = [Float](repeating: 0.5, count: 6 * k)
        let w = [Float](repeating: 0.25, count: k * width + 32)
        let bias = [Float](repeating: 0, count: width + 32)
        var c = [Float](repeating: 0, count: 6 * width)
        region.withUnsafeBytes { region in
            fc_prefetch_next(region.baseAddress, region.count)
            XCTAssertEqual(fc_prefetch_pending(), 8192)
            c.withUnsafeMutableBufferPointer { c in
                fc_gemm_panel_avx2(a, k, 6, 1, k, 0, w, width, width, bias, c.baseAddress, width, nil, 0, 0, 0, nil)
            }
            XCTAssertEqual(fc_prefetch_pending(), 0)
        }
        // The prefetch changes no result: bias 0 plus 64 products of 0.5 · 0.25.
        XCTAssertEqual(c, [Float](repeating: 8, count: 6 * width))
    }

    func testAVX2DepthwiseAdvancesThePrefetch() {
        // 32 × 32 × 32, 3×3, stride 1: per output row two slabs of eight groups of four outputs (the 3×3 kernel).
        let h = 32, w = 32, ch = 32
        let input = [Float](repeating: 1, count: h * w * ch + 16)
        let taps = [Float](repeating: 0.5, count: 9 * ch)
        let bias = [Float](repeating: 0, count: ch)
        for kernel in ["3x3", "kxk"] {
            var out = [Float](repeating: 0, count: h * w * ch)
            region.withUnsafeBytes { region in
                // 32 lines: the whole-window kernel prefetches one per slab and output row (64 here).
                fc_prefetch_next(region.baseAddress, 2048)
                out.withUnsafeMutableBufferPointer { out in
                    if kernel == "3x3" {
                        fc_dw3x3_avx2(input, h, w, ch, 1, 1, 1, h, w, taps, ch, bias, 0, nil, out.baseAddress)
                    } else {
                        fc_dw_avx2(input, h, w, ch, 3, 3, 1, 1, 1, 1, h, w, taps, ch, bias, 0, nil, out.baseAddress)
                    }
                }
                XCTAssertEqual(fc_prefetch_pending(), 0, kernel)
            }
            // An interior output sums nine taps of 0.5, a corner four.
            XCTAssertEqual(out[(w + 1) * ch], 4.5, kernel)
            XCTAssertEqual(out[0], 2, kernel)
        }
    }
}
