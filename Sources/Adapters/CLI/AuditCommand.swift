import Application
import ArgumentParser
import Foundation

/// `shelfmark audit ...`.
struct AuditCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "audit", abstract: "Prove the library's history was not altered.", subcommands: [Verify.self])

    struct Verify: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Check the hash chain, contiguity, the append-only triggers, and that a replay equals the read models.",
            discussion: "Exits 0 when every check passes, 1 otherwise, naming the first thing that breaks.")

        @OptionGroup var global: GlobalOptions

        func run() async throws {
            var failed = false
            try await reportingFailures {
                let (library, principal) = try await global.acting()
                let progress = Progress(label: "verifying")
                let checks = try await library.verifyLog.execute(by: principal) { done, total in progress.update(done, of: total) }
                progress.finish()
                failed = !checks.allSatisfy(\.passed)
                if global.json { return try printJSON(VerifyJSON(ok: !failed, checks: checks)) }
                for check in checks { print("\(check.passed ? "ok  " : "FAIL") \(check.name): \(check.detail)") }
                print(failed ? "The log does NOT verify." : "The log verifies.")
            }
            if failed { throw ExitCode.failure }
        }
    }
}

private struct VerifyJSON: Encodable {
    let ok: Bool
    let checks: [AuditCheck]
}
