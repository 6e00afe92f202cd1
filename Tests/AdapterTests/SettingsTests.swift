import Application
import Composition
import Foundation
import Testing

/// Every setting is read and range-checked once at start-up: a value that cannot be used stops
/// the program with one line naming the setting (issue 12: `SHELFMARK_SESSION_DAYS=inf` used to
/// start, then kill the server at the first login).
@Suite("Settings")
struct SettingsTests {
    static let numeric = [
        "SHELFMARK_SESSION_DAYS", "SHELFMARK_BCRYPT_COST", "SHELFMARK_MAX_LOANS", "SHELFMARK_LOAN_DAYS", "SHELFMARK_MAX_RENEWALS",
        "SHELFMARK_MAX_HOLDS", "SHELFMARK_PICKUP_DAYS", "SHELFMARK_MAX_WALKIN_LOANS",
        "SHELFMARK_NOTICE_INTERVAL", "SHELFMARK_SEARCH_TTL", "SHELFMARK_IDLE_TIMEOUT", "SHELFMARK_BODY_TIMEOUT",
        "SHELFMARK_MAX_CONNECTIONS", "SHELFMARK_BODY_MEMORY", "SHELFMARK_AUTH_ATTEMPTS", "SHELFMARK_ANCHOR_INTERVAL",
        "SHELFMARK_OPENLIBRARY_DEADLINE", "SHELFMARK_BACKUP_KEEP", "SHELFMARK_SEARCH_RATE", "SHELFMARK_WRITE_RATE",
        "SHELFMARK_ADDRESS_SEARCH_RATE", "SHELFMARK_ADDRESS_WRITE_RATE",
    ]

    @Test("unusable values are refused, naming the setting and its range", arguments: numeric)
    func unusable(name: String) {
        for value in ["inf", "-inf", "nan", "-1", "1e300", "words", "12abc", "0x10", "1,5"] {
            #expect {
                _ = try ShelfmarkConfiguration.resolve(database: "/tmp/x.sqlite", environment: [name: value])
            } throws: { error in
                let text = (error as? ConfigurationError)?.english ?? ""
                return text.hasPrefix("\(name) must be ") && text.contains("from ") && text.contains("'\(value)'")
            }
        }
    }

    @Test("an empty value counts as unset", arguments: numeric)
    func empty(name: String) throws {
        let defaults = try ShelfmarkConfiguration.resolve(database: "/tmp/x.sqlite", environment: [:])
        let empty = try ShelfmarkConfiguration.resolve(database: "/tmp/x.sqlite", environment: [name: ""])
        #expect(empty.sessionLifetime == defaults.sessionLifetime && empty.loanPolicy == defaults.loanPolicy)
        #expect(empty.maxConnections == defaults.maxConnections && empty.bodyMemory == defaults.bodyMemory)
    }

    @Test func usableValuesAreTaken() throws {
        let configuration = try ShelfmarkConfiguration.resolve(
            database: "/tmp/x.sqlite",
            environment: [
                "SHELFMARK_SESSION_DAYS": "0.5", "SHELFMARK_MAX_LOANS": "7", "SHELFMARK_BODY_MEMORY": "8", "SHELFMARK_AUTH_ATTEMPTS": "100",
                "SHELFMARK_TRUSTED_PROXIES": "10.0.0.1, ::1", "SHELFMARK_OPENLIBRARY_DEADLINE": "2.5", "SHELFMARK_MAX_HOLDS": "2",
                "SHELFMARK_PICKUP_DAYS": "7",
            ])
        #expect(configuration.loanPolicy.maxActiveHolds == 2 && configuration.loanPolicy.pickupPeriod == 7 * 24 * 3600)
        #expect(configuration.openLibraryDeadline == 2.5)
        #expect(configuration.sessionLifetime == 12 * 3600)
        #expect(configuration.loanPolicy.maxActiveLoans == 7)
        #expect(configuration.bodyMemory == 8 << 20)
        #expect(configuration.authAttemptsPerMinute == 100)
        #expect(configuration.trustedProxies == ["10.0.0.1", "::1"])
        #expect(throws: ConfigurationError.self) {
            try ShelfmarkConfiguration.resolve(database: "/tmp/x.sqlite", environment: ["SHELFMARK_TRUSTED_PROXIES": "proxy.example.org"])
        }
    }

    /// Found by an outside walk: `--openlibrary-url file:///x` was refused naming the variable, which nobody had set.
    @Test func aURLThatIsNoWebAddressIsNamedAsItWasGiven() {
        func refusal(_ body: () throws -> ShelfmarkConfiguration) -> String {
            do { _ = try body() } catch { return (error as? ConfigurationError)?.english ?? "\(error)" }
            return "taken"
        }
        let option = refusal {
            try ShelfmarkConfiguration.resolve(database: "/tmp/x.sqlite", openLibraryURL: "file:///x", environment: [:])
        }
        #expect(option.hasPrefix("--openlibrary-url "), "\(option)")
        let variable = refusal {
            try ShelfmarkConfiguration.resolve(database: "/tmp/x.sqlite", environment: ["SHELFMARK_COVERS_URL": "ftp://x"])
        }
        #expect(variable.hasPrefix("SHELFMARK_COVERS_URL "), "\(variable)")
        let geo = refusal { try ShelfmarkConfiguration.resolve(database: "/tmp/x.sqlite", geoURL: "x", environment: [:]) }
        #expect(geo.hasPrefix("--geo-url "), "\(geo)")
    }

    @Test func theWalkInLimitDefaultsToTheMembersLimit() throws {
        let members = try ShelfmarkConfiguration.resolve(database: "/tmp/x.sqlite", environment: ["SHELFMARK_MAX_LOANS": "3"])
        #expect(members.loanPolicy.maxWalkInLoans == 3)
        let own = try ShelfmarkConfiguration.resolve(
            database: "/tmp/x.sqlite", environment: ["SHELFMARK_MAX_LOANS": "3", "SHELFMARK_MAX_WALKIN_LOANS": "1"])
        #expect(own.loanPolicy.maxWalkInLoans == 1 && own.loanPolicy.maxActiveLoans == 3)
        #expect(try ShelfmarkConfiguration.resolve(database: "/tmp/x.sqlite", environment: [:]).loanPolicy.maxWalkInLoans == 5)
    }

    @Test func theConnectionLimitDefaultsToWhatMemoryCarries() {
        let configuration = ShelfmarkConfiguration(databasePath: "/tmp/x.sqlite")
        #expect(configuration.connectionLimit(openFiles: 1_048_576) == ShelfmarkConfiguration.defaultMaxConnections)
        #expect(configuration.connectionLimit(openFiles: 512) == 256)
    }

    @Test func serveStopsWithOneLineAndStatusTwo() async throws {
        let database = TemporaryDatabase()
        for (name, value) in [
            ("SHELFMARK_SESSION_DAYS", "inf"), ("SHELFMARK_MAX_CONNECTIONS", "1e300"), ("LOG_LEVEL", "loud"),
            ("SHELFMARK_LOG_FORMAT", "yaml"),
        ] {
            let result = try await shelfmark(["serve", "--port", "0"], database: database.path, environment: [name: value])
            #expect(result.status == 2, "\(name)=\(value): \(result.stderr)")
            let lines = result.stderr.split(separator: "\n")
            #expect(lines.count == 1 && lines[0].hasPrefix("Error: \(name) must be"), "\(result.stderr)")
        }
    }
}
