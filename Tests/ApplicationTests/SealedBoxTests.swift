import Domain
import Foundation
import Testing

@testable import Application

/// The sealed box's JSON, written by hand in the store's writer: the same bytes as the codec's
/// `JSONEncoder`, so payloads sealed before and after this change cannot be told apart.
@Suite("Sealed box JSON")
struct SealedBoxTests {
    static let fieldLists: [[String]] = [
        [], ["displayName"], ["borrowerName", "email"], ["a/b", "c\\d", "\"quoted\""],
        [(0..<0x20).map { String(UnicodeScalar(UInt8($0))) }.joined()], ["é€😀\u{2028}\u{7F}", "日本語", ""],
    ]

    @Test("written byte for byte as the codec's JSONEncoder writes it", arguments: fieldLists)
    func sameAsTheCodecsEncoder(fields: [String]) throws {
        var generator = SystemRandomNumberGenerator()
        for length in [0, 1, 2, 3, 17, 64, 300] {
            let bytes = (0..<length).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
            let box = PersonalSeal.Box(box: Data(bytes).base64EncodedString(), fields: fields, subject: UserID(UUID()))
            #expect(box.json == (try EventCodec.encodeJSON(box)))
        }
    }

    @Test func readsBackAsTheBoxItWasWrittenFrom() throws {
        let box = PersonalSeal.Box(box: "ab+/cd==", fields: ["borrowerName"], subject: UserID(UUID()))
        let read = try EventCodec.decodeJSON(PersonalSeal.Box.self, box.json)
        #expect(read.box == box.box && read.fields == box.fields && read.subject == box.subject)
    }
}
