import Domain
import Foundation
import LogChain
import Testing

@testable import Application

/// The codec reads payloads straight from their bytes (`NodeDecoder`) and falls back to
/// Foundation's `JSONDecoder` for anything the fast path does not read: both must mean the same
/// by every payload, and the fast path must read every payload the codec writes.
@Suite("Payloads read from their bytes")
struct NodeDecoderTests {
    struct Sample: Codable, Equatable {
        var text: String
        var count: Int
        var big: Int64
        var small: Int8
        var ratio: Double?
        var flag: Bool
        var at: Date
        var id: UUID
        var names: [String]
        var nested: [String: [Int]]?
        var missing: String?
    }

    func foundation<T: Decodable>(_ type: T.Type, _ text: String) throws -> T { try EventCodec.decodeJSON(type, text, .foundation) }
    func fast<T: Decodable>(_ type: T.Type, _ text: String) throws -> T { try EventCodec.decodeJSON(type, text, .fast) }

    @Test func everyEventOfTheGoldenLogsReadsTheSameBothWays() throws {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Golden")
        var types: Set<String> = []
        for file in try FileManager.default.contentsOfDirectory(atPath: folder.path) where file.hasSuffix(".jsonl") {
            let text = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
            for line in text.split(separator: "\n") {
                let stored = try JSONDecoder().decode(ExportedEvent.self, from: Data(line.utf8))
                // Sealed personal data reads as erased without its key: the clear text the codec then reads.
                let (payload, _) = try PersonalSeal.open(stored.payload, type: stored.type, key: { _ in .none }, cipher: nil)
                let slow = try EventCodec.event(type: stored.type, payload: payload, .foundation)
                #expect(try EventCodec.event(type: stored.type, payload: payload, .fast) == slow, "\(file): \(payload)")
                types.insert(stored.type)
            }
        }
        #expect(types == Set(EventCodec.allTypes))
    }

    @Test func whatTheCodecWritesTheFastPathReads() throws {
        let sample = Sample(
            text: "“Quote” \\ / \" \n\t\u{0001} é 😀 \u{2028}", count: -42, big: .max, small: .min, ratio: 0.1, flag: true,
            at: Date(timeIntervalSince1970: 1_764_000_000.123), id: UUID(), names: ["", "a", "ß"], nested: ["k": [1, 2, 0]], missing: nil)
        let text = try EventCodec.encodeJSON(sample)
        #expect(try fast(Sample.self, text) == sample, "\(text)")
        #expect(try foundation(Sample.self, text) == sample)
    }

    @Test(arguments: [
        #"{"s":"a\u00e9\ud83d\ude00\/\b\f\r"}"#, #"{ "s" : "x" } "#, #"{"s":"\u0000"}"#,
    ])
    func strictJSONReadsTheSameBothWays(_ text: String) throws {
        struct S: Codable, Equatable { let s: String }
        #expect(try fast(S.self, text) == foundation(S.self, text))
    }

    @Test(arguments: [
        #"{"n":1.5}"#, #"{"n":1e2}"#, #"{"n":01}"#, #"{"n":-}"#, #"{"n":9223372036854775808}"#, #"{"n":"1"}"#, #"{"n":1,}"#,
        #"{"n":1} x"#, #"{"n":1"#, #"{'n':1}"#, #"{"n":1,"s":"\x"}"#, #"{"n":1,"s":"\ud800"}"#, #"{"n":1,"s":"\udc00"}"#,
        "{\"n\":1,\"s\":\"\u{1}\"}", #"{"n":true}"#, #"{"\u006e":1}"#, #"{"n":1,"n":2}"#, #"[1]"#, #"{"n":null}"#, #"{}"#, "",
    ])
    func whatTheFastPathRefusesFoundationDecides(_ text: String) throws {
        struct N: Codable, Equatable { let n: Int }
        #expect(throws: NotFastJSON.self) { try NodeDecoder.decode(N.self, from: text) }
        // The codec's answer is then Foundation's, whichever it is.
        let both = Result { try EventCodec.decodeJSON(N.self, text) }
        let alone = Result { try foundation(N.self, text) }
        #expect((try? both.get()) == (try? alone.get()))
    }

    @Test(arguments: [#"{}"#, #"{"a":null,"b":null,"c":null}"#, #"{"a":"x","b":2,"c":{"s":"y"}}"#, #"{"a":1}"#, #"{"c":{"s":null}}"#])
    func optionalFieldsAbsentNullOrThereReadTheSameBothWays(_ text: String) throws {
        struct S: Codable, Equatable { let s: String }
        struct O: Codable, Equatable {
            let a: String?
            let b: Int?
            let c: S?
        }
        let both = Result { try EventCodec.decodeJSON(O.self, text) }
        let alone = Result { try foundation(O.self, text) }
        #expect((try? both.get()) == (try? alone.get()), "\(text)")
        #expect((try? both.get()) != nil || (try? alone.get()) == nil)
    }

    @Test func numbersItDoesNotReadGoToFoundation() throws {
        // `Float.init(from:)` asks its decoder for a Float: read here, it would ask again forever.
        struct F: Codable, Equatable {
            let f: Float
            let wide: Int128
        }
        let text = #"{"f":1.5,"wide":170141183460469231731687303715884105727}"#
        #expect(throws: NotFastJSON.self) { try NodeDecoder.decode(F.self, from: text) }
        #expect(try EventCodec.decodeJSON(F.self, text) == foundation(F.self, text))
    }

    @Test func keysAreTheSameTextAsFoundationSeesIt() throws {
        // Two spellings of "é" are one key to Foundation (the first kept): not read here.
        let twice = "{\"\u{E9}\":1,\"e\u{301}\":2}"
        #expect(throws: NotFastJSON.self) { try NodeDecoder.decode([String: Int].self, from: twice) }
        #expect(try EventCodec.decodeJSON([String: Int].self, twice) == foundation([String: Int].self, twice))
        // A coding key that is not ASCII finds the key Swift takes for the same text (KELVIN SIGN, K).
        struct Kelvin: Codable, Equatable {
            let k: Int?
            enum CodingKeys: String, CodingKey { case k = "\u{212A}" }
        }
        #expect(try fast(Kelvin.self, #"{"K":1}"#) == foundation(Kelvin.self, #"{"K":1}"#))
        #expect(try fast(Kelvin.self, #"{"K":1}"#).k == 1)
    }

    @Test func deepNestingIsRefusedBeforeTheStackIs() throws {
        let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        #expect(throws: NotFastJSON.self) { try NodeDecoder.decode([String].self, from: deep) }
    }

    @Test func randomTextReadsBackAsWritten() throws {
        var generator = SystemRandomNumberGenerator()
        let pool: [Character] = ["a", "\"", "\\", "/", "\n", "\u{0}", "\u{1F}", "é", "😀", "\u{FFFF}", "\u{10FFFF}", " ", "\u{7F}"]
        for _ in 0..<500 {
            let text = String((0..<Int.random(in: 0...24, using: &generator)).map { _ in pool.randomElement(using: &generator)! })
            let written = try EventCodec.encodeJSON(["t": text])
            #expect(try fast([String: String].self, written) == ["t": text], "\(written)")
        }
    }
}
