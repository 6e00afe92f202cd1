import Crypto
import Foundation
import Testing

@testable import LogChain

/// The chain's formula as ARCHITECTURE.md documents it, computed here from joined text: the
/// previous hash, a line feed, then every field followed by a line feed, SHA-256'd (unkeyed) or
/// HMAC-SHA-256'd with the key derived for the chain (keyed). The writer builds those bytes in one
/// buffer; these cases hold it to the text.
@Suite("Hash chain formula")
struct HashChainFormulaTests {
    static let samples: [HashChain.Fields] = [
        HashChain.Fields(
            position: 1, streamID: "book-1", streamVersion: 1, eventType: "book.added.v1", payload: #"{"title":"Dune"}"#,
            eventID: "e1", recordedAt: "2026-11-29T00:00:00.000Z", actor: "cli", correlationID: "c1", causationID: nil),
        HashChain.Fields(
            position: 9_223_372_036_854_775_807, streamID: "", streamVersion: 42, eventType: "loan.opened.v1",
            payload: #"{"name":"Zoë \"Q\" \\ 😀\n"}"#, eventID: "e\u{0}2", recordedAt: "t", actor: "é\u{2028}", correlationID: "",
            causationID: "cause"),
    ]

    static func documented(_ previous: String, _ f: HashChain.Fields) -> Data {
        let fields = [
            String(f.position), f.streamID, String(f.streamVersion), f.eventType, f.payload, f.eventID, f.recordedAt, f.actor,
            f.correlationID, f.causationID ?? "",
        ]
        return Data((previous + "\n" + fields.map { $0 + "\n" }.joined()).utf8)
    }

    @Test(arguments: samples)
    func theUnkeyedHashIsSHA256OfTheDocumentedText(fields: HashChain.Fields) {
        let previous = HashChain.genesis
        #expect(HashChain.hash(previous: previous, fields) == hex(SHA256.hash(data: Self.documented(previous, fields))))
        #expect(fields.canonical.utf8.elementsEqual(Self.documented("", fields).dropFirst()))
    }

    @Test(arguments: samples)
    func theKeyedHashIsHMACOfTheDocumentedText(fields: HashChain.Fields) throws {
        let folder = TemporaryFolder()
        let key = try ChainKey.create(at: folder.databasePath + ".key", keyedFrom: 1)
        let previous = String(repeating: "a", count: 64)
        let expected = HMAC<SHA256>.authenticationCode(for: Self.documented(previous, fields), using: key.derived("shelfmark chain v1"))
        #expect(ChainHasher(key: key).hash(previous: previous, fields) == hex(expected))
    }
}
