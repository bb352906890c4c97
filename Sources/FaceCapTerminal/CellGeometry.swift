/// A rectangle of terminal cells: `x`, `y` are the column and row of its top-left cell.
public struct CellRect: Equatable, Sendable {
    public var x: Int
    public var y: Int
    public var width: Int
    public var height: Int

    public init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x
        self.y = y
        self.width = max(0, width)
        self.height = max(0, height)
    }

    public static let zero = CellRect(x: 0, y: 0, width: 0, height: 0)

    public var isEmpty: Bool { width <= 0 || height <= 0 }

    /// Whether `other` lies entirely inside this rectangle.
    public func contains(_ other: CellRect) -> Bool {
        other.isEmpty
            || (other.x >= x && other.y >= y && other.x + other.width <= x + width
                && other.y + other.height <= y + height)
    }
}
