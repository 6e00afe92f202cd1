import Foundation
import Testing

@testable import SQLiteStore

/// The read models' JSON columns of strings: written exactly as `JSONEncoder` wrote them before,
/// read back whatever escapes they hold.
@Suite("JSON string arrays")
struct JSONStringArrayTests {
    static let tricky: [[String]] = [
        [], [""], ["Tolkien"], ["a/b", "c\\d", "\"quoted\""],
        [(0..<0x20).map { String(UnicodeScalar(UInt8($0))) }.joined()],
        ["é€😀\u{2028}\u{7F}", "Ünïcödé", "日本語"], ["x", "", "y"],
    ]

    @Test("written byte for byte as JSONEncoder writes it", arguments: tricky)
    func sameAsJSONEncoder(values: [String]) throws {
        let foundation = String(decoding: try JSONEncoder().encode(values), as: UTF8.self)
        #expect(JSONStringArray.encode(values) == foundation)
    }

    @Test("read back as written", arguments: tricky)
    func roundTrip(values: [String]) throws {
        #expect(JSONStringArray.fastDecode(JSONStringArray.encode(values)) == values)
        #expect(try JSONStringArray.decode(JSONStringArray.encode(values)) == values)
    }

    @Test func escapesOtherWritersUseAreRead() throws {
        #expect(JSONStringArray.fastDecode(#"["\u00e9\u00C9","\ud83d\ude00","a\/b"]"#) == ["éÉ", "😀", "a/b"])
    }

    @Test func anotherShapeGoesThroughJSONDecoder() throws {
        #expect(JSONStringArray.fastDecode(#"[ "a" , "b" ]"#) == nil)
        #expect(try JSONStringArray.decode(#"[ "a" , "b" ]"#) == ["a", "b"])
    }

    @Test("what is not an array of strings is refused", arguments: [#"["a""#, #"[1]"#, #"{"a":1}"#, #"["\ud83d"]"#, "", #"["a"]x"#])
    func refused(text: String) {
        #expect(JSONStringArray.fastDecode(text) == nil)
        #expect(throws: (any Error).self) { try JSONStringArray.decode(text) }
    }
}
