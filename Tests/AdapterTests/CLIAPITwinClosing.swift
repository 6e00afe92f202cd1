import Foundation
import Testing

extension Twins {
    /// Closing accounts both ways: a librarian closes a member's (`user close`), a member their own
    /// (`account close`); both answer 204, so the CLI prints nothing under --json.
    func closing() async throws {
        _ = try await api.signUpMember("hal@example.org")
        _ = try await api.signUpMember("ivy@example.org")
        let librarian = try await cli(["login", "--email", "librarian@example.org"], stdin: "Librarian-Pass1\n")
        #expect(librarian.status == 0, "\(librarian.stderr)")
        try await twin("user close", ["user", "close", "hal@example.org", "--yes"], .delete, "/api/v1/users/ivy@example.org")
        _ = try await api.signUpMember("jan@example.org")
        let kim = try await api.signUpMember("kim@example.org")
        let jan = try await cli(["login", "--email", "jan@example.org"], stdin: "Member-Pass1\n")
        #expect(jan.status == 0, "\(jan.stderr)")
        try await twin("account close", ["account", "close", "--yes"], .delete, "/api/v1/me", token: kim)
    }
}
