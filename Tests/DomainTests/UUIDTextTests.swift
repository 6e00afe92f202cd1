import Domain
import Foundation
import Testing

@Suite("UUIDs as text")
struct UUIDTextTests {
    @Test func formattingAndParsingAgreeWithFoundation() {
        for _ in 0..<2_000 {
            let uuid = UUID()
            #expect(UUIDText.lowercase(uuid) == uuid.uuidString.lowercased())
            #expect(UUIDText.parse(uuid.uuidString) == uuid)
            #expect(UUIDText.parse(uuid.uuidString.lowercased()) == uuid)
        }
    }

    @Test(arguments: [
        "", "nope", "7d2c1a0e-0000-4000-8000-00000000000", "7d2c1a0e-0000-4000-8000-00000000000g",
        "7d2c1a0e00000-4000-8000-000000000000", "{7d2c1a0e-0000-4000-8000-000000000000}", "7d2c1a0e-0000-4000-8000-0000000000é",
    ])
    func whatIsNotACanonicalUUIDIsRefused(text: String) {
        #expect(UUIDText.parse(text) == nil)
        #expect(BookID(text) == nil)
    }
}
