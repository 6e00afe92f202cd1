import Application
import Domain
import Foundation
import Security
import Testing

/// The codec's sealing of personal data (crypto-shredding): every declared field leaves the stored
/// payload for a box under the member's key, comes back byte for byte with the key, and reads as
/// erased without it.
@Suite("Personal data in the codec")
struct PersonalDataTests {
    static let personalSamples = EventSamples.all.filter { $0.personalData != nil }

    /// The clear values of a sample's personal fields, as JSON text.
    static func clearValues(_ encoded: EventCodec.Encoded) throws -> [String] {
        let object = try JSONSerialization.jsonObject(with: Data(encoded.payload.utf8)) as! [String: Any]
        return encoded.personal!.fields.compactMap { object[$0] as? String }.filter { !$0.isEmpty }
    }

    @Test func theDeclaredEventsAreTheOnesHoldingPersonalData() {
        let types = Set(Self.personalSamples.map { try! EventCodec.encode($0).type })
        #expect(
            types.isSuperset(of: [
                "user.registered.v1", "email.claimed.v1", "email.login-failed.v1", "email.login-succeeded.v1", "loan.opened.v1",
                "hold.placed.v1",
            ]))
    }

    @Test(arguments: personalSamples)
    func aSealedSampleHoldsNoneOfItsPersonalDataAndOpensToTheSameBytes(_ event: DomainEvent) throws {
        let encoded = try EventCodec.encoded(event)
        let key = personalCipher.newKey()
        let stored = try EventCodec.sealed(encoded, key: key, cipher: personalCipher)
        #expect(stored.hasPrefix(#"{"$sealed":{"box":""#))
        // The box is random base64, which may spell a short value ("FR") by chance: look outside it.
        let outsideBox = stored.replacing(/"box":"[A-Za-z0-9+\/=]*"/, with: "")
        #expect(outsideBox != stored)
        for value in try Self.clearValues(encoded) { #expect(!outsideBox.contains(value), "\(value) in \(stored)") }
        #expect(try EventCodec.decode(type: encoded.type, payload: stored, cipher: personalCipher) { _ in .active(key) } == event)
        #expect(
            try EventCodec.readable(type: encoded.type, payload: stored, cipher: personalCipher) { _ in .active(key) } == encoded.payload)
        // Another member's key opens nothing.
        #expect(throws: (any Error).self) {
            try EventCodec.decode(type: encoded.type, payload: stored, cipher: personalCipher) { _ in .active(personalCipher.newKey()) }
        }
    }

    /// Every field declared personal must still decode once its key is gone (a `Personal` or an
    /// optional field): replay, verify and time travel read an erased member's events.
    @Test(arguments: personalSamples)
    func aSealedSampleDecodesErasedWithoutItsKey(_ event: DomainEvent) throws {
        let encoded = try EventCodec.encoded(event)
        let stored = try EventCodec.sealed(encoded, key: personalCipher.newKey(), cipher: personalCipher)
        for key in [SubjectKey.erased, .none] {
            let erased = try EventCodec.decode(type: encoded.type, payload: stored, cipher: personalCipher) { _ in key }
            #expect(erased != event)
            let readable = try EventCodec.readable(type: encoded.type, payload: stored, cipher: personalCipher) { _ in key }
            for field in encoded.personal!.fields { #expect(readable.contains(#""\#(field)":null"#), "\(readable)") }
        }
    }

    /// Events written before sealing hold personal data in clear: they read as before, and as
    /// erased once their member is (the stored text stays, under the chain).
    @Test(arguments: personalSamples)
    func aClearPayloadReadsAsWrittenAndErasedOnceItsMemberIs(_ event: DomainEvent) throws {
        let (type, payload) = try EventCodec.encode(event)
        #expect(try EventCodec.decode(type: type, payload: payload, cipher: personalCipher) { _ in .none } == event)
        let erased = try EventCodec.readable(type: type, payload: payload, cipher: personalCipher) { _ in .erased }
        #expect(try Self.clearValues(EventCodec.encoded(event)).allSatisfy { !erased.contains($0) })
        #expect(try EventCodec.decode(type: type, payload: payload, cipher: personalCipher) { _ in .erased } != event)
        let exported = try EventCodec.exported(type: type, payload: payload) { _ in .erased }
        #expect(exported.redacted && exported.payload == erased)
        let kept = try EventCodec.exported(type: type, payload: payload) { _ in .none }
        #expect(!kept.redacted && kept.payload == payload)
    }

    @Test func anEventWithoutPersonalDataIsStoredAsEncoded() throws {
        let event = EventSamples.all[0]
        let encoded = try EventCodec.encoded(event)
        let stored = try EventCodec.sealed(encoded, key: personalCipher.newKey(), cipher: personalCipher)
        #expect(encoded.personal == nil && stored == encoded.payload)
    }

    @Test func aBoxMovedToAnotherEventTypeDoesNotOpen() throws {
        let claimed = DomainEvent.emailClaim(.claimed(EmailClaimed(email: EventSamples.email, user: EventSamples.user)))
        let key = personalCipher.newKey()
        let stored = try EventCodec.sealed(try EventCodec.encoded(claimed), key: key, cipher: personalCipher)
        #expect(throws: (any Error).self) {
            try EventCodec.decode(type: "email.released.v1", payload: stored, cipher: personalCipher) { _ in .active(key) }
        }
    }

    @Test func registeredErasedIsNoAccount() throws {
        let registered = UserEvent.registered(
            UserRegistered(
                user: EventSamples.user, email: EventSamples.email, displayName: "Ada", country: "GB", passwordHash: "h", role: .member))
        let stored = try EventCodec.sealed(try EventCodec.encoded(.user(registered)), key: personalCipher.newKey(), cipher: personalCipher)
        guard case .user(let erased) = try EventCodec.decode(type: "user.registered.v1", payload: stored) else { throw CancellationError() }
        #expect(UserAggregate.fold([erased]) == .closed(EventSamples.user))
    }

    @Test func claimNamesHideTheValueAndDependOnTheSecret() {
        let names = ClaimNames(secret: personalCipher.newKey().bytes, cipher: personalCipher)
        let stream = names.email(EventSamples.email)
        #expect(stream.rawValue.hasPrefix("email-hmac-") && stream.rawValue.count == "email-hmac-".count + 32)
        // Hex digits only after the prefix ("ada" itself is hex, so the check is on the address's other letters).
        #expect(stream.rawValue.dropFirst("email-hmac-".count).allSatisfy { $0.isHexDigit })
        #expect(!stream.rawValue.contains(EventSamples.email.value) && names.email(EventSamples.email) == stream)
        #expect(ClaimNames(secret: personalCipher.newKey().bytes, cipher: personalCipher).email(EventSamples.email) != stream)
        #expect(names.card("2741038516") != names.email(EventSamples.email))
    }
}
