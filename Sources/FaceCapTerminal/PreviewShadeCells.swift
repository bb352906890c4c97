// In 16 and 8 colours with UTF-8: each cell chosen whole among the shade table's cell colours.

import FaceCapCore

/// In 16 and 8 colours with UTF-8 (`ShadeTable`): the cell colour of each cell, chosen once both its pixels are
/// read, by error diffusion over cells in linear light, as in 256 colours over pixels. A cell whose input has not
/// moved keeps its colour and passes on the error it now leaves; the dimmed surround is flat (the nearest cell
/// colour); a cell the oval's outline crosses is a half block, its picture half the nearest colour.
struct ShadeCells: CellChoice {
    let table: ShadeTable
    let quantiser: Quantiser
    /// The raster's storage, keyed by each cell's upper pixel (`shown`, `lastInput`) and by the cell (`diffusion`).
    let shown: UnsafeMutableBufferPointer<Int32>
    let lastInput: UnsafeMutableBufferPointer<SIMD3<Float>>
    let diffusion: UnsafeMutableBufferPointer<SIMD3<Float>>
    let hysteresis: Float
    let columns: Int, rows: Int
    /// The share of each cell's error passed on: all of it in 16 colours; in 8 colours three quarters (all of it
    /// drew a dark face as a busy pattern that hid its shading: luma r 0.78 against 0.93 on the dark-skinned
    /// fixture, brightened, in a NumPy model).
    let keep: Float

    @inline(__always)
    func cell(
        row: Int, column: Int, colours: (Int32, Int32), halves: (SIMD3<Float>, SIMD3<Float>),
        guideCell: Bool, outside: Bool
    ) -> PreviewCell {
        let cellIndex = row * columns + column
        let upper = 2 * row * columns + column
        if guideCell || colours.0 != -3 || colours.1 != -3 {
            // Part outline: the picture's half is its nearest colour.
            var colours = colours
            if colours.0 == -3 { colours.0 = quantiser.nearest(halves.0) }
            if colours.1 == -3 { colours.1 = quantiser.nearest(halves.1) }
            shown[upper] = -1
            return PreviewCell(character: "▀", foreground: colours.0, background: colours.1, isGuide: guideCell)
        }
        // The cell's two pixels as one colour (linear light).
        let rgb = (halves.0 + halves.1) / 2
        let own = (ColourSpace.linear(halves.0) + ColourSpace.linear(halves.1)) / 2
        let d = rgb - lastInput[upper]
        let still = shown[upper] >= 0 && (d * d).sum() <= hysteresis * hysteresis
        var entry: Int
        if outside {
            entry = still ? Int(shown[upper]) : table.nearest(linear: own)
        } else {
            let wanted = (own + diffusion[cellIndex])
                .clamped(
                    lowerBound: SIMD3(repeating: -PreviewRaster.errorReach),
                    upperBound: SIMD3(repeating: 1 + PreviewRaster.errorReach))
            entry = still ? Int(shown[upper]) : table.nearest(linear: wanted)
            let e = (wanted - table.linear[entry]) * keep
            ErrorDiffusion.spread(
                e, at: cellIndex, width: columns, column: column, below: row + 1 < rows,
                into: diffusion)
        }
        if !still {
            shown[upper] = Int32(entry)
            lastInput[upper] = rgb
        }
        let chosen = table.entries[entry]
        return PreviewCell(character: chosen.character, foreground: chosen.foreground, background: chosen.background)
    }
}
