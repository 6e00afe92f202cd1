import Domain
import Testing

/// A new address must be one mail could reach: `a..b@example.org` passed the parsing check and
/// made an account no reset code could ever be sent to.
@Suite("Email address syntax")
struct EmailSyntaxTests {
    @Test(arguments: [
        "a..b@example.org", ".ada@example.org", "ada.@example.org", "a(b)@example.org", "a<b>@example.org", "a,b@example.org",
        "a;b@example.org", "a:b@example.org", "a\"b@example.org", "a[b]@example.org", "a\\b@example.org",
        "ada@-example.org", "ada@example-.org", "ada@exa_mple.org", "ada@exa!mple.org", "ada@example.org-",
    ])
    func aNewAddressMailCouldNotReachIsRefused(_ raw: String) throws {
        #expect(throws: FieldError("email", .notAnEmailAddress)) { try EmailAddress(registering: raw) }
        #expect(
            SignupForm(email: raw, password: "Analytical-1", country: "GB").validate().problems.map(\.problem) == [.notAnEmailAddress])
        #expect(ProfileForm(email: raw).validate().problems.map(\.problem) == [.notAnEmailAddress])
        // An account registered before this check still finds its address.
        #expect(try EmailAddress(parsing: raw).value == raw)
    }

    @Test(arguments: [
        "ada.lovelace@example.org", "o'brien+lists@example.org", "a_b-c@sub.example.co.uk", "x@bücher.example",
        "δημήτρης@παράδειγμα.ελ", "user@उदाहरण.परीक्षा", "1@2.example",
    ])
    func addressesInUseStayWelcome(_ raw: String) throws {
        #expect(try EmailAddress(registering: raw) == EmailAddress(parsing: raw))
    }
}
