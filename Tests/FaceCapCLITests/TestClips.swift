import Foundation

/// Clips built from the fixture photos, so the guidance each frame should get is known by construction.
enum TestClips {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures")

    /// sergey's luma and its face box (landmark bounds, from Tests/Fixtures/golden/sergey_expected.json).
    static let sergey: (pixels: [UInt8], box: (x: Double, y: Double, width: Double, height: Double)) = {
        let data = try! Data(contentsOf: fixtures.appendingPathComponent("images/sergey_luma.pgm"))
        return (Array(data.dropFirst(15)), (136.0, 141.5, 320.0, 367.0))
    }()

    /// A mono 640×480 clip at 30 fps: sergey with his face `width(i)` of the frame at `x(i)`, × `gain`.
    static func sergey(
        frames: Int, gain: Double = 1, width: (Int) -> Double,
        x: (Int) -> Double = { _ in 0.5 }
    ) -> Data {
        var data = Data("YUV4MPEG2 W640 H480 F30:1 Ip A1:1 Cmono XCOLORRANGE=FULL\n".utf8)
        let (pixels, box) = sergey
        for i in 0..<frames {
            let scale = width(i) * 640 / box.width
            let cx = box.x + box.width / 2, cy = box.y + box.height / 2
            var frame = [UInt8](repeating: 128, count: 640 * 480)
            for y in 0..<480 {
                let sy = Int(((Double(y) + 0.5 - 240) / scale + cy).rounded(.down))
                guard sy >= 0, sy < 600 else { continue }
                for px in 0..<640 {
                    let sx = Int(((Double(px) + 0.5 - x(i) * 640) / scale + cx).rounded(.down))
                    guard sx >= 0, sx < 600 else { continue }
                    frame[y * 640 + px] = UInt8(min(255, (Double(pixels[sy * 600 + sx]) * gain).rounded()))
                }
            }
            data += Data("FRAME\n".utf8) + Data(frame)
        }
        return data
    }

    /// A mono clip with no face: a flat grey with a soft gradient.
    static func empty(frames: Int) -> Data {
        var data = Data("YUV4MPEG2 W640 H480 F30:1 Ip A1:1 Cmono XCOLORRANGE=FULL\n".utf8)
        var frame = [UInt8](repeating: 0, count: 640 * 480)
        for y in 0..<480 { for x in 0..<640 { frame[y * 640 + x] = UInt8(90 + (x + y) / 20) } }
        for _ in 0..<frames { data += Data("FRAME\n".utf8) + Data(frame) }
        return data
    }

    /// 1 s approaching from 0.2 to 0.38 of the width, then still: auto-captured a stability window later.
    static func approachAndHold(frames: Int = 75) -> Data {
        sergey(frames: frames) { i in i < 30 ? 0.2 + 0.18 * Double(i) / 30 : 0.38 }
    }
}
