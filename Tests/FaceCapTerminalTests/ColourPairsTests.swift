import CCurses
import FaceCapCore
import XCTest

@testable import FaceCapTerminal

/// The screens' colour pairs, chosen once from the terminal's colours and theme, without a terminal.
final class ColourPairsTests: XCTestCase {
    private func colours(_ pairs: ColourPairs) -> [Int32: [Int32]] {
        Dictionary(uniqueKeysWithValues: pairs.definitions.map { ($0.pair, [$0.foreground, $0.background]) })
    }

    func testEachColourCountGetsItsBlackWhiteAndGrey() {
        let (black, white, green, red) = (Int32(COLOR_BLACK), Int32(COLOR_WHITE), Int32(COLOR_GREEN), Int32(COLOR_RED))
        let eight = colours(ColourPairs(colors: 8, background: nil))
        XCTAssertEqual(
            eight,
            [
                1: [black, green], 2: [black, Int32(COLOR_YELLOW)], 3: [white, red],
                4: [black, Int32(COLOR_CYAN)], 5: [green, black], 6: [white, black],
            ])
        let sixteen = colours(ColourPairs(colors: 16, background: nil))
        XCTAssertEqual(sixteen[3], [15, red])
        XCTAssertEqual(sixteen[6], [8, black])
        let palette = colours(ColourPairs(colors: 256, background: nil))
        XCTAssertEqual([palette[1], palette[3], palette[6]], [[16, green], [231, red], [245, 16]])
        let direct = colours(ColourPairs(colors: 1 << 24, background: nil))
        XCTAssertEqual(
            [direct[1], direct[3], direct[6]], [[0x000008, green], [0xFFFFFF, red], [0x8A8A8A, 0x000008]])
        XCTAssertEqual(ColourPairs.none.definitions, [])
        XCTAssertEqual(ColourPairs.none.pair(for: .good), 0)
        XCTAssertEqual(ColourPairs(colors: 8, background: nil).pair(for: .error), ColourPairs.error)
        XCTAssertEqual(ColourPairs(colors: 8, background: nil).pair(for: .neutral), 0)
    }

    func testWordsAreInkOnAKnownBackgroundWithTwoHundredFiftySixColours() {
        let dark = TerminalBackground.Colour(r: 0, g: 0, b: 0)
        let light = TerminalBackground.Colour(r: 255, g: 255, b: 255)
        for background in [dark, light] {
            let pairs = ColourPairs(colors: 256, background: background)
            XCTAssertEqual(pairs.inked, [1, 2, 3, 4])
            for (pair, tone) in zip(Int32(1)...4, [ToneInk.good, .warning, .error, .accent]) {
                XCTAssertEqual(colours(pairs)[pair], [tone.ink(on: background)!, -1])
            }
            let direct = ColourPairs(colors: 1 << 24, background: background)
            let ink = xtermRGB(Int(ToneInk.good.ink(on: background)!))
            XCTAssertEqual(colours(direct)[1], [Int32(ink.r) << 16 | Int32(ink.g) << 8 | Int32(ink.b), -1])
            // 16 and 8 colours: the theme decides how they look, so the words keep their boxes.
            XCTAssertEqual(ColourPairs(colors: 16, background: background).inked, [])
            XCTAssertEqual(ColourPairs(colors: 16, background: background), ColourPairs(colors: 16, background: nil))
        }
        XCTAssertNotEqual(ColourPairs(colors: 256, background: dark), ColourPairs(colors: 256, background: light))
        XCTAssertEqual(ColourPairs(colors: 256, background: nil).inked, [])
    }
}
