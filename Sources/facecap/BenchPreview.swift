import FaceCapCore
import FaceCapTerminal

#if canImport(Glibc)
import Glibc
#endif

/// `facecap bench --image PHOTO`'s preview figures: what the terminal preview's raster costs a moving face (the
/// session's frames, every pixel worked out again as the face moves a pixel or two) at 80×24's and 100×32's preview
/// sizes in 256 colours, 16 colours and truecolor, in this thread's CPU time (median of `runs` frames after the
/// first, which fills the raster's caches). JSON keys `preview_PALETTE_COLUMNSxROWS_cpu_ms`. The wizard's budget is
/// 15 % of a core at 30 fps, 5 ms a frame, of which the preview should take under half (docs/performance.md); this
/// was a test's bound once, and a timing is a benchmark's to report.
enum BenchPreview {
    static func figures(frames: [Frame], runs: Int) -> [(String, Double)] {
        var results: [(String, Double)] = []
        for palette in [PreviewPalette.xterm256, .ansi16, .truecolor] {
            for (columns, rows) in [(48, 18), (67, 25)] {
                var raster = PreviewRaster(palette: palette, unicode: true, mirror: true)
                raster.render(frames[0], columns: columns, rows: rows)
                let overlay = PreviewOverlay(state: .adjusting, stability: 0)
                var times: [Double] = []
                for i in 1...max(runs, 1) {
                    let start = threadCPUMilliseconds()
                    raster.render(frames[i % frames.count], columns: columns, rows: rows, overlay: overlay)
                    times.append(threadCPUMilliseconds() - start)
                }
                let median = times.sorted()[times.count / 2]
                results.append(("preview_\(palette.rawValue)_\(columns)x\(rows)_cpu_ms", median))
            }
        }
        return results
    }

    private static func threadCPUMilliseconds() -> Double { POSIX.clockSeconds(CLOCK_THREAD_CPUTIME_ID) * 1000 }
}
