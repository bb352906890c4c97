import XCTest

@testable import FaceCapCore

final class JSONTextTests: XCTestCase {
    func testStringsAreEscaped() {
        XCTAssertEqual(JSONText.string("a\"b\\c\nd\u{1}é"), "\"a\\\"b\\\\c\\nd\\u0001é\"")
    }

    func testNumbersAreFixedWithoutTrailingZerosAndNullWhenNotFinite() {
        XCTAssertEqual(JSONText.number(0.93594, decimals: 4), "0.9359")
        XCTAssertEqual(JSONText.number(-0.125, decimals: 3), "-0.125")
        XCTAssertEqual(JSONText.number(12.5, decimals: 2), "12.5")
        XCTAssertEqual(JSONText.number(300, decimals: 1), "300")
        XCTAssertEqual(JSONText.number(-0.00001, decimals: 2), "0")
        XCTAssertEqual(JSONText.number(0.05, decimals: 2), "0.05")
        XCTAssertEqual(JSONText.number(.nan, decimals: 2), "null")
        XCTAssertEqual(JSONText.number(nil, decimals: 2), "null")
        XCTAssertEqual(JSONText.number(-.infinity, decimals: 2), "null")
    }

    func testObjectsKeepTheirOrder() {
        XCTAssertEqual(
            JSONText.object([("b", "1"), ("a", JSONText.array(["2", "null"]))]), "{\"b\":1,\"a\":[2,null]}")
    }
}
