import Domain
import Foundation
import SQLiteStore
import Testing
import Wording

@testable import Application

/// History names who did what and what changed, and no view of the log shows a secret.
@Suite("Readable audit and secrets never shown")
struct ReadableAuditTests {
    let t: TestLibrary
    init() throws { t = try TestLibrary() }

    /// Signs up Ada (a member) and Grace (a librarian, registered by the operator); their principals.
    func people() async throws -> (ada: Principal, grace: Principal) {
        let accounts = t.library.accounts
        let ada = try #require(
            try await accounts.signUp.execute(
                SignupForm(email: "ada@example.org", password: "Analytical-1", displayName: "Ada Lovelace", country: "GB"),
                by: .anonymous
            ).session)
        let grace = try #require(
            try await accounts.signUp.execute(
                SignupForm(email: "grace@example.org", password: "Compiler-1A", displayName: "Grace Hopper", country: "US"),
                role: .librarian, by: .cliOperator
            ).session)
        return (try await accounts.authenticate.execute(token: ada.token), try await accounts.authenticate.execute(token: grace.token))
    }

    @Test func aBookEditReadsAsTheFieldThatChangedByWhom() async throws {
        let (_, grace) = try await people()
        let book = try await t.library.catalogue.addBook.execute(
            BookDraft(title: "Dune", authors: ["Frank Herbert"], publisher: "Chilton"), copies: 2, by: .cliOperator)
        _ = try await t.library.catalogue.editBook.execute(book.id, changes: BookChanges(publisher: "Harper"), by: grace)
        let history = try await t.library.history.execute(.book(book.id.description), by: .cliOperator).items
        #expect(history.map(\.actorName) == [.cliOperator, .member(name: "Grace Hopper", email: "grace@example.org")])
        let added = Dictionary(history[0].changes.map { ($0.field, $0) }, uniquingKeysWith: { a, _ in a })
        #expect(added["title"] == FieldChange(field: "title", after: "Dune") && added["copies"]?.after == "2")
        #expect(added["authors"]?.after == "Frank Herbert" && added["publisher"]?.before == nil)
        #expect(history[1].changes == [FieldChange(field: "publisher", before: "Chilton", after: "Harper")])
        #expect(Wording.english.text(.fieldChange(history[1].changes[0])) == "publisher: Chilton → Harper")
        #expect(history[1].payload["details"]?.object?["publisher"] == .string("Harper"))
        // A later page still compares with the events before it.
        let second = try await t.library.history.execute(
            .book(book.id.description), page: try PageRequest(limit: 1, offset: 1), by: .cliOperator)
        #expect(second.items.map(\.changes) == [[FieldChange(field: "publisher", before: "Chilton", after: "Harper")]])
    }

    @Test func historyShowsNoHashOrDigestAndNamesTheMember() async throws {
        let (ada, _) = try await people()
        let history = try await t.library.history.execute(.member(email: "ada@example.org"), by: .cliOperator).items
        #expect(history.first?.type == "user.registered.v1")
        let everything = history.map { "\($0.payload) \($0.changes)" }.joined()
        #expect(!everything.contains("$2b$") && !everything.contains("$2a$"), "\(everything)")
        #expect(history[0].payload["passwordHash"] == .string(Secrets.marker))
        #expect(history[0].changes.contains(FieldChange(field: "passwordHash", after: Secrets.marker)))
        let opened = try #require(history.first { $0.type == "user.session-opened.v1" })
        #expect(opened.payload["tokenDigest"] == .string(Secrets.marker))
        #expect(history[0].actorName == .anonymous)
        #expect(
            Wording.english.text(.actor(.member(name: "Ada Lovelace", email: "ada@example.org"))) == "Ada Lovelace <ada@example.org>")
        // The member's own actions are hers, by name.
        _ = try await t.library.accounts.logOut.execute(by: ada)
        let closed = try await t.library.history.execute(.member(email: "ada@example.org"), by: .cliOperator).items.last
        #expect(closed?.actorName == .member(name: "Ada Lovelace", email: "ada@example.org"))
    }

    @Test func anActorWithoutAnAccountIsAnUnknownMember() async throws {
        let names = ActorNames(t.library.accounts.members.deps)
        #expect(try await names.name(of: "user:\(UUID())") == .unknownMember)
        #expect(try await names.name(of: "system") == .system)
        #expect(try await names.name(of: "operator") == .cliOperator)
    }

    @Test func theExportRedactsSecretsUnlessTheOperatorKeepsThem() async throws {
        let (_, grace) = try await people()
        var redacted: [String] = []
        _ = try await t.library.exportLog.execute(by: .cliOperator) { redacted.append($0) }
        let text = redacted.joined(separator: "\n")
        // The hashes are sealed with their member's key; the session-token digests, in clear in the log, are redacted.
        #expect(!text.contains("$2b$") && text.contains(#""redacted":["tokenDigest"]"#), "\(text)")
        let checks = t.library.exportLog.verify(lines: redacted)
        #expect(checks.allSatisfy { $0.passed }, "\(checks)")
        let note = try #require(checks.first { $0.name == "redacted secrets" })
        #expect(note.detail.contains("2 events have their secrets redacted") && note.detail.contains("--include-secrets"), "\(note)")

        var kept: [String] = []
        _ = try await t.library.exportLog.execute(secrets: .included, by: .cliOperator) { kept.append($0) }
        #expect(!kept.joined().contains(Secrets.marker) && kept.joined().contains(#"\"tokenDigest\":\""#))
        #expect(t.library.exportLog.verify(lines: kept).map(\.name) == ["hash chain"])
        await #expect(throws: Forbidden(.operatorOnly)) {
            try await t.library.exportLog.execute(secrets: .included, by: grace) { _ in }
        }
    }

    @Test func aRedactionThatHidesOtherFieldsDoesNotVerify() async throws {
        _ = try await people()
        var lines: [String] = []
        _ = try await t.library.exportLog.execute(by: .cliOperator) { lines.append($0) }
        let index = try #require(lines.firstIndex { $0.contains(#""redacted":["tokenDigest"]"#) })
        // Claiming the expiry was a secret too, to pass a changed one off as a redaction.
        lines[index] = lines[index].replacingOccurrences(
            of: #""redacted":["tokenDigest"]"#, with: #""redacted":["expiresAt","tokenDigest"]"#)
        #expect(t.library.exportLog.verify(lines: lines).first?.passed == false)
    }

    /// A log written before personal data was sealed holds the hashes in clear: views still redact them.
    @Test func anOldLogsHashesInClearAreRedactedToo() async throws {
        let golden = GoldenLogTests.lines(of: "log-v1.jsonl")
        #expect(golden.joined().contains("$2b$"))
        let folder = TemporaryFolder()
        let database = try await GoldenLogTests.replay(golden, into: folder)
        var lines: [String] = []
        _ = try await database.export(from: 1, secrets: .redacted) { lines.append($0) }
        #expect(!lines.joined().contains("$2b$") && lines.joined().contains(#""redacted":["passwordHash"]"#))
        let checks = LibraryDatabase.verifyExport(lines: lines)
        #expect(checks.allSatisfy { $0.passed } && checks.map(\.name) == ["hash chain", "redacted secrets"], "\(checks)")
        var kept: [String] = []
        _ = try await database.export(from: 1, secrets: .included) { kept.append($0) }
        #expect(kept == golden, "with the secrets, the export is the log as stored")
        let user = try #require(try await database.accounts.list(.first).items.first?.id)
        let history = try await database.history(.user(user), page: .first).items
        #expect(history.contains { $0.payload.contains("$2b$") }, "the archive reads the log as stored")
        let redactedHistory = history.map { AggregateHistory.payload($0) }
        #expect(redactedHistory.first?["passwordHash"] == .string(Secrets.marker))
        #expect(!"\(redactedHistory)".contains("$2b$"))
    }

    @Test func anErasedMemberReadsSoInHistory() async throws {
        let (ada, _) = try await people()
        guard case .user(let id, _, _) = ada else { throw Unauthenticated() }
        let dune = try await t.library.catalogue.addBook.execute(BookDraft(title: "Dune", authors: ["F"]), copies: 1, by: .cliOperator)
        let loan = try await t.library.circulation.borrow.execute([dune.id], by: ada)[0]
        _ = try await t.library.circulation.giveBack.execute(loan.id, by: ada)
        try await t.library.accounts.closeAccount.own(by: ada)
        let lent = try await t.library.history.execute(.loan(loan.id.description), by: .cliOperator).items
        #expect(lent.first?.actorName == .erasedMember)
        let account = try await t.library.history.execute(.stream("user-\(id)"), by: .cliOperator).items
        let registered = try #require(account.first)
        #expect(registered.payload["email"] == .null && registered.payload["passwordHash"] == .string(Secrets.marker))
        #expect(registered.changes.contains(FieldChange(field: "email", after: FieldChange.erased)))
        #expect(!"\(account)".contains("ada@example.org") && !"\(account)".contains("Ada Lovelace"))
    }

    @Test func timeTravelNamesMembersAsTheyAreNow() async throws {
        let (ada, _) = try await people()
        let dune = try await t.library.catalogue.addBook.execute(BookDraft(title: "Dune", authors: ["F"]), copies: 1, by: .cliOperator)
        _ = try await t.library.circulation.borrow.execute([dune.id], by: ada)
        let answer = try await t.library.timeTravel.execute(at: t.clock.now(), view: .loans, by: .cliOperator)
        let borrower = try #require(answer.loans.first?.borrower)
        #expect(answer.people[borrower] == .member(name: "Ada Lovelace", email: "ada@example.org"))
    }
}

extension PayloadValue {
    var object: [String: PayloadValue]? { if case .object(let o) = self { o } else { nil } }
}
