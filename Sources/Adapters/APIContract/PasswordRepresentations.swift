import Application
import Domain
import Foundation

// Passwords as the contract's JSON, for the HTTP API and the CLI's `--json` alike.

extension Components.Schemas.ResetCode {
    /// A reset code as issued: the account, the code (shown this once) and when it stops working.
    public init(_ issued: IssuedResetCode) {
        self.init(user: .init(issued.account), code: issued.code, expiresAt: issued.expiresAt)
    }
}
