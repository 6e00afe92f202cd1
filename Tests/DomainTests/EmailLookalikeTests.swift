import Domain
import Testing

/// A new address may not be a look-alike of another (fullwidth letters, ligatures): the second
/// account would read as the first one's owner everywhere an address is shown.
@Suite("Look-alike email addresses")
struct EmailLookalikeTests {
    @Test(arguments: ["\u{FF41}da@example.org", "ada@ex\u{FF41}mple.org", "ada\u{00B9}@example.org"])
    func aNewAddressWithACompatibilityCharacterIsRefused(_ raw: String) throws {
        #expect(throws: FieldError("email", .lookalikeCharacters)) { try EmailAddress(registering: raw) }
        // Found as it was registered, should an older account have one.
        #expect(try EmailAddress(parsing: raw).value == raw)
        #expect(
            SignupForm(email: raw, password: "Analytical-1", country: "GB").validate().problems.map(\.problem) == [.lookalikeCharacters])
        #expect(ProfileForm(email: raw).validate().problems.map(\.problem) == [.lookalikeCharacters])
    }

    /// Found by an outside walk: `user@bücher.example` and `user@xn--bcher-kva.example` made two
    /// accounts for one mailbox. The letters are taken; the xn-- form is refused for a new address,
    /// and an account registered with one before is still found by it.
    @Test(arguments: ["user@xn--bcher-kva.example", "USER@XN--BCHER-KVA.example", "a@mail.xn--p1ai", "a@xn--80ak6aa92e.xn--p1ai"])
    func aNewAddressWithADomainInItsXnFormIsRefused(_ raw: String) throws {
        #expect(throws: FieldError("email", .encodedDomain)) { try EmailAddress(registering: raw) }
        #expect(try EmailAddress(parsing: raw).value == raw.lowercased())
        #expect(SignupForm(email: raw, password: "Analytical-1", country: "GB").validate().problems.map(\.problem) == [.encodedDomain])
    }

    @Test(arguments: ["ada@example.org", "zoë@example.org", "Zoe\u{0308}@Example.org", "δημήτρης@παράδειγμα.ελ", "straße@example.de"])
    func plainAddressesInAnyScriptAreWelcome(_ raw: String) throws {
        #expect(try EmailAddress(registering: raw) == EmailAddress(parsing: raw))
    }
}
