import Application
import Testing

/// A key given twice in one JSON object is found, wherever the object is, and whatever the body's size.
@Suite("Duplicate keys in JSON bodies")
struct DuplicateKeysTests {
    func first(_ text: String) -> String? { DuplicateKeys.first(in: Array(text.utf8)) }

    @Test func aKeyTwiceInOneObjectIsFoundAndTheSameKeyInTwoObjectsIsNot() {
        #expect(first(#"{"role":"member","role":"librarian"}"#) == "role")
        #expect(first(#"{"a":{"b":1,"b":2}}"#) == "b")
        #expect(first(#"{"a":{"b":1},"b":2}"#) == nil, "one b in each object")
        #expect(first(#"[{"a":1},{"a":2}]"#) == nil)
        #expect(first(#"{"a":[{"x":1}],"b":{"x":2},"a":3}"#) == "a", "the outer object's keys survive its inner objects")
        #expect(first(#"{"\u0061":1,"a":2}"#) == "a", "an escape is the key it spells")
        #expect(first(#"{"a":"b","c":"a"}"#) == nil, "values are not keys")
    }

    @Test func aBodyOfManyKeysIsReadInOnePass() {
        // Found by an outside walk: the open object's keys were copied for each key, so 40,000
        // keys took seconds of a server's time before login. Two hundred thousand are read here.
        let keys = (0..<200_000).map { #""k\#($0)":null"# }
        #expect(first("{" + keys.joined(separator: ",") + "}") == nil)
        #expect(first("{" + keys.joined(separator: ",") + #","k7":1}"#) == "k7")
    }

    /// Found by an outside walk: Foundation's decoder took `{"a":1,}` and `["x",]`, which are not JSON.
    @Test func aCommaWhereJSONHasNoneIsFoundAndOneInAStringIsNot() {
        func stray(_ text: String) -> Bool { DuplicateKeys.strayComma(in: Array(text.utf8)) }
        for text in [#"{"a":1,}"#, #"["x",]"#, "[1,,2]", "[,1]", #"{,"a":1}"#, "{\"a\":[1, 2 ,\n ]}", #"{"a":{"b":2,},"c":3}"#] {
            #expect(stray(text), "\(text)")
        }
        for text in [#"{"a":1}"#, #"["x","y"]"#, #"{"a":",}","b":"[,"}"#, #"{"a":"\",]"}"#, "[]", "{}", #"{"a":[],"b":{}}"#] {
            #expect(!stray(text), "\(text)")
        }
    }
}
