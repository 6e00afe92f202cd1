import Foundation
import Testing

/// The walk's passwords step: every password command with its API twin.
extension Twins {
    /// A change both ways (ending on the password later steps log in with), a reset code both
    /// ways, and a reset both ways, each with a code of its own (a new code replaces the older).
    func passwords() async throws {
        #expect(try await cli(["login", "--email", "ada@example.org"], stdin: "Member-Pass1\n").status == 0)
        try await twin(
            "password change", ["password", "change"], .post, "/api/v1/me/password",
            json: #"{"currentPassword":"Member-Pass2!","newPassword":"Member-Pass1"}"#, token: try cliToken,
            stdin: "Member-Pass1\nMember-Pass2!\n")
        #expect(try await cli(["login", "--email", "librarian@example.org"], stdin: "Librarian-Pass1\n").status == 0)
        try await twin(
            "password reset-code", ["password", "reset-code", "bob@example.org"], .post, "/api/v1/users/bob@example.org/reset-code",
            volatile: ["code", "expiresAt"])
        func code(_ email: String) async throws -> String {
            try #require(try await api.send(.post, "/api/v1/users/\(email)/reset-code").object["code"] as? String)
        }
        let (bobs, cys) = (try await code("bob@example.org"), try await code("cy@example.org"))
        try await twin(
            "password reset", ["password", "reset", "--email", "bob@example.org", "--code", bobs], .post, "/api/v1/password-resets",
            json: #"{"email":"cy@example.org","code":"\#(cys)","newPassword":"Member-Pass3!"}"#, token: .none, stdin: "Member-Pass3!\n")
        #expect(try await cli(["login", "--email", "ada@example.org"], stdin: "Member-Pass1\n").status == 0)
    }
}
