import APIContract
import Application
import Domain
import Foundation
import Synchronization

/// The CLI's saved login: `$XDG_CONFIG_HOME/shelfmark/session` (else `~/.config/...`), mode 0600.
/// While it exists, commands run as that user; without it they run as the database's operator.
enum SavedSession {
    static var url: URL {
        let environment = ProcessInfo.processInfo.environment
        let base =
            environment["XDG_CONFIG_HOME"].flatMap { $0.isEmpty ? nil : $0 }
            ?? (environment["HOME"] ?? NSHomeDirectory()) + "/.config"
        return URL(fileURLWithPath: base).appendingPathComponent("shelfmark/session")
    }

    static func token() -> String? {
        (try? String(contentsOf: url, encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Makes the folder the session is saved in before a login is recorded: a folder that cannot
    /// be one (`XDG_CONFIG_HOME=/dev/null`) stops the command first, not once the log holds a login
    /// whose token is then lost (found by an outside walk).
    static func prepareFolder() throws {
        let folder = url.deletingLastPathComponent()
        var isFolder: ObjCBool = false
        let made = (try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)) != nil
        guard made, FileManager.default.fileExists(atPath: folder.path, isDirectory: &isFolder), isFolder.boolValue,
            FileManager.default.isWritableFile(atPath: folder.path)
        else {
            let named = ProcessInfo.processInfo.environment["XDG_CONFIG_HOME"].map { $0.isEmpty ? "HOME" : "XDG_CONFIG_HOME" } ?? "HOME"
            throw ConfigurationError(named, .folderUnusable(folder.path))
        }
    }

    static func save(_ token: String) throws {
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        _ = FileManager.default.createFile(atPath: url.path, contents: nil, attributes: [.posixPermissions: 0o600])
        try Data(token.utf8).write(to: url)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: url.path)
    }

    static func forget() {
        try? FileManager.default.removeItem(at: url)
    }

    /// Who the CLI acts as: the saved session's user, else the operator. Remembers the member for
    /// this run (`actingAs`), so a librarian's refusal can say who the CLI acted as.
    static func principal(_ library: Library) async throws -> Principal {
        guard let token = token(), !token.isEmpty else { return .cliOperator }
        let principal: Principal
        do {
            principal = try await library.accounts.authenticate.execute(token: token)
        } catch is Unauthenticated {
            throw Problem(status: 401, slug: "unauthenticated", title: t("cli.problem.unauthenticated"), detail: say(.savedSessionRefused))
        }
        if let account = try? await library.accounts.showMe.execute(by: principal) {
            actingAs.withLock { $0 = .member(MemberName(account), account.role) }
        }
        return principal
    }

    /// Who the CLI acts as, as its sentences name them.
    static func actor(_ library: Library) async throws -> CommandLineActor {
        guard case .user = try await principal(library) else { return .cliOperator }
        return actingAs.withLock { $0 } ?? .cliOperator
    }

    /// The member the CLI acted as in this run, once `principal` was asked (nil: the operator, or not asked).
    static let actingAs = Mutex<CommandLineActor?>(nil)
}
