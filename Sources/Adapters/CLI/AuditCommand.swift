import APIContract
import Application
import ArgumentParser
import Domain
import Foundation

/// `shelfmark audit ...`.
struct AuditCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "audit", abstract: "Prove the library's history was not altered.",
        subcommands: [Verify.self, Anchor.self, Export.self, History.self, Replay.self, AsOf.self])

    struct Verify: AsyncParsableCommand {
        static let configuration = CommandConfiguration.leaf(
            abstract: "Check the chain key, hash chain, contiguity, triggers, a replay against the read models, and anchors.",
            discussion: """
                Reads one snapshot of the log, so appends running meanwhile do not disturb it. Anchors: those of --anchor FILE, \
                else of the data folder's anchor file (<database>.anchors) when there is one. Exits 0 when every check passes, \
                1 otherwise, naming the first thing that breaks. With --json, prints what GET /api/v1/audit/verify answers.
                """)

        @OptionGroup(visibility: .hidden) var global: GlobalOptions
        @Option(help: ArgumentHelp("Verify an exported log (JSON lines) offline instead of the database.", valueName: "export.jsonl"))
        var file: String?
        @Option(help: ArgumentHelp("Also prove the log holds every head anchored in this file (see `audit anchor`).", valueName: "file"))
        var anchor: String?

        func run() async throws {
            let (library, principal) = try await global.acting()
            let checks: [AuditCheck]
            if let file {
                guard let text = try? String(contentsOfFile: file, encoding: .utf8) else {
                    throw InvalidInput([FieldError("--file", .fileUnusable(file))])
                }
                checks = library.exportLog.verify(lines: text.split(separator: "\n").map(String.init))
            } else {
                let progress = Progress(label: "verifying")
                checks = try await library.verifyLog.execute(anchors: anchor, by: principal) { done, total in
                    progress.update(done, of: total)
                }
                progress.finish()
            }
            let passed = checks.allSatisfy(\.passed)
            if global.json {
                try printJSON(Operations.VerifyLog.Output.Ok.Body.JsonPayload(checks))
            } else {
                for check in checks { print("\(check.passed ? "ok  " : "FAIL") \(check.name): \(check.detail)") }
                print(say(.logVerified(passed)))
            }
            if !passed { throw ExitCode(ExitStatus.refused.rawValue) }
        }
    }
}

extension AuditCommand {
    struct Anchor: AsyncParsableCommand {
        static let configuration = CommandConfiguration.leaf(
            abstract: "Append a signed checkpoint of the log's head (position, hash, time) to an anchor file.",
            discussion: """
                Keep a copy of the anchor file where whoever can write the database cannot (another machine, write-once storage): \
                `audit verify --anchor FILE` then proves the log still holds every anchored head. `serve` appends one to the data \
                folder's anchor file every $SHELFMARK_ANCHOR_INTERVAL seconds and when it stops. No API twin; with --json, \
                prints the anchor (position, hash, time).
                """)
        @OptionGroup(visibility: .hidden) var global: GlobalOptions
        @Option(help: ArgumentHelp("The anchor file to append to. Default: the data folder's (<database>.anchors).", valueName: "file"))
        var to: String?

        func run() async throws {
            let (library, principal) = try await global.acting()
            let (anchor, file) = try await library.verifyLog.anchor(to: to, by: principal)
            if global.json { return try printJSON(anchor) }
            print(say(.anchored(position: anchor.position, hash: anchor.hash, at: try? Date(anchor.time, strategy: .iso8601), file: file)))
        }
    }
}

extension AuditCommand {
    struct Export: AsyncParsableCommand {
        static let configuration = CommandConfiguration.leaf(
            abstract: "Write the log, with its hashes, as JSON lines for outside tools (verify it with `audit verify --file`).",
            discussion: """
                Secrets (password hashes, reset-code and session-token digests) read "[redacted]" and each such line lists its \
                `redacted` fields: verifying the export cannot recompute those events' hashes, and says which. --include-secrets \
                keeps them, for backups: the operator's only (no saved session; `shelfmark logout` first). No API twin: the lines \
                are the export's own format, with or without --json.
                """)
        @OptionGroup(visibility: .hidden) var global: GlobalOptions
        @Option(help: ArgumentHelp("The first position to export.", valueName: "position")) var from: Int64 = 1
        @Option(help: "Only jsonl.") var format = "jsonl"
        @Option(name: .shortAndLong, help: ArgumentHelp("Write to this file instead of standard output.", valueName: "file"))
        var output: String?
        @Flag(help: "Keep the secrets (password hashes, reset-code and token digests), for a backup. The operator only.")
        var includeSecrets = false

        func validate() throws { if format != "jsonl" { throw usage("--format", .notOneOf(["jsonl"])) } }

        func run() async throws {
            let (library, principal) = try await global.acting()
            let secrets: ExportedSecrets = includeSecrets ? .included : .redacted
            if includeSecrets { try Authorization.requireSecrets(by: principal) }
            var handle = FileHandle.standardOutput
            if let output {
                guard FileManager.default.createFile(atPath: output, contents: nil), let file = FileHandle(forWritingAtPath: output) else {
                    throw InvalidInput([FieldError("--output", .fileUnusable(output))])
                }
                handle = file
            }
            let count = try await library.exportLog.execute(from: from, secrets: secrets, by: principal) { line in
                handle.write(Data((line + "\n").utf8))
            }
            if output != nil { print(say(.exported(events: count))) }
        }
    }
}

extension AuditCommand {
    struct History: AsyncParsableCommand {
        static let configuration = CommandConfiguration.leaf(
            abstract: "Every event of one book, member, loan or stream, in order.",
            discussion: "With --json, prints what GET /api/v1/audit/history answers.")
        @OptionGroup(visibility: .hidden) var global: GlobalOptions
        @Option(help: ArgumentHelp("A book's id.", valueName: "book-id")) var book: String?
        @Option(help: ArgumentHelp("A member's email.", valueName: "email")) var member: String?
        @Option(help: ArgumentHelp("A loan's id.", valueName: "loan-id")) var loan: String?
        @Option(help: ArgumentHelp("A stream name, e.g. patron-<user id>.", valueName: "name")) var stream: String?
        @OptionGroup var paging: PagingOptions

        func validate() throws {
            if [book, member, loan, stream].compactMap({ $0 }).count != 1 {
                throw usage(.exactlyOneOf(["--book", "--member", "--loan", "--stream"]))
            }
        }

        func run() async throws {
            let (library, principal) = try await global.acting()
            let subject: AggregateHistory.Subject =
                if let book { .book(book) } else if let member { .member(email: member) } else if let loan { .loan(loan) } else {
                    .stream(stream ?? "")
                }
            let page = try await paging.fetch { try await library.history.execute(subject, page: $0, by: principal) }
            if global.json { return try printJSON(Components.Schemas.HistoryPage(page, in: catalogue)) }
            print(table(["#", "POSITION", "TIME", "ACTOR", "TYPE", "CHANGES"], page.items.flatMap(Self.rows), maxWidth: 60))
            print(page.footer)
        }

        /// One event's rows: the event and its first change, then one row for each other change; a
        /// long change wraps at words under its column (values whole, long free text cut at a word).
        static func rows(_ e: HistoryEntry) -> [[String]] {
            let changes = e.changes.map { wrapped(say(.fieldChange($0)), width: 60, lines: 4) }
            let first = [String(e.version), String(e.position), TableDates.minute(iso: e.recordedAt), say(.actor(e.actorName)), e.type]
            return [first + [changes.first ?? ""]] + changes.dropFirst().map { ["", "", "", "", "", $0] }
        }
    }
}
