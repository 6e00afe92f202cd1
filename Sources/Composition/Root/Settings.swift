import Application
import Domain
import Foundation

/// One numeric setting from the environment: its name, its range and its unit. Every setting is
/// read through one of these once, at start-up, so a value out of range (`inf`, `nan`, `-1`,
/// `1e300`, a word) stops the program with one line naming the setting and what it allows,
/// instead of overflowing later in the middle of a request.
struct NumericSetting: Sendable {
    let name: String
    let range: ClosedRange<Double>
    /// Only whole numbers (counts, costs).
    let whole: Bool
    /// What the number counts, for the message.
    let unit: MeasureUnit?

    init(_ name: String, _ range: ClosedRange<Double>, whole: Bool = false, unit: MeasureUnit? = nil) {
        self.name = name
        self.range = range
        self.whole = whole
        self.unit = unit
    }

    /// What the setting allows.
    var allowed: FieldProblem { .numberOutOfRange(min: range.lowerBound, max: range.upperBound, whole: whole, unit: unit) }

    /// The value, nil when the variable is unset or empty, or a `ConfigurationError`.
    func read(_ environment: [String: String]) throws -> Double? {
        guard let raw = environment[name]?.trimmingCharacters(in: .whitespaces), !raw.isEmpty else { return nil }
        // Decimal notation only: Swift also reads "0x10", "inf" and "nan" as numbers.
        let decimal = raw.allSatisfy { $0.isASCII && ($0.isNumber || "+-.eE".contains($0)) }
        guard decimal, let value = Double(raw), value.isFinite, range.contains(value), !whole || value == value.rounded() else {
            throw ConfigurationError(name, value: raw, allowed)
        }
        return value
    }

    /// As an `Int`, for whole-number settings (the range keeps it far from `Int`'s limits).
    func readInt(_ environment: [String: String]) throws -> Int? { try read(environment).map { Int($0) } }
}

/// Every numeric setting Shelfmark reads, with its range.
enum Settings {
    static let sessionDays = NumericSetting("SHELFMARK_SESSION_DAYS", 0.001...3_650, unit: .days)
    static let bcryptCost = NumericSetting("SHELFMARK_BCRYPT_COST", 4...31, whole: true)
    static let maxLoans = NumericSetting("SHELFMARK_MAX_LOANS", 1...1_000, whole: true)
    /// Copies one walk-in borrower's name may have out; by default the members' limit (0: no walk-in loans).
    static let maxWalkInLoans = NumericSetting("SHELFMARK_MAX_WALKIN_LOANS", 0...1_000, whole: true)
    static let loanDays = NumericSetting("SHELFMARK_LOAN_DAYS", 0.001...3_650, unit: .days)
    static let maxRenewals = NumericSetting("SHELFMARK_MAX_RENEWALS", 0...1_000, whole: true)
    static let maxHolds = NumericSetting("SHELFMARK_MAX_HOLDS", 0...1_000, whole: true)
    static let pickupDays = NumericSetting("SHELFMARK_PICKUP_DAYS", 0.001...365, unit: .days)
    static let noticeInterval = NumericSetting("SHELFMARK_NOTICE_INTERVAL", 1...31_536_000, unit: .seconds)
    static let searchTTL = NumericSetting("SHELFMARK_SEARCH_TTL", 0...31_536_000, unit: .seconds)
    static let idleTimeout = NumericSetting("SHELFMARK_IDLE_TIMEOUT", 0.1...86_400, unit: .seconds)
    static let bodyTimeout = NumericSetting("SHELFMARK_BODY_TIMEOUT", 0.1...3_600, unit: .seconds)
    static let maxConnections = NumericSetting("SHELFMARK_MAX_CONNECTIONS", 1...65_536, whole: true)
    static let bodyMemory = NumericSetting("SHELFMARK_BODY_MEMORY", 1...65_536, whole: true, unit: .mebibytes)
    static let authAttempts = NumericSetting("SHELFMARK_AUTH_ATTEMPTS", 1...1_000_000, whole: true, unit: .perMinuteAndClient)
    static let anchorInterval = NumericSetting("SHELFMARK_ANCHOR_INTERVAL", 1...31_536_000, unit: .seconds)
    static let openLibraryDeadline = NumericSetting("SHELFMARK_OPENLIBRARY_DEADLINE", 0.1...300, unit: .seconds)
    static let backupKeep = NumericSetting("SHELFMARK_BACKUP_KEEP", 1...10_000, whole: true)
    /// Searches and changes one account, and one client address, may make per minute.
    static let searchRate = NumericSetting("SHELFMARK_SEARCH_RATE", 1...1_000_000, whole: true, unit: .perMinuteAndAccount)
    static let writeRate = NumericSetting("SHELFMARK_WRITE_RATE", 1...1_000_000, whole: true, unit: .perMinuteAndAccount)
    static let addressSearchRate = NumericSetting("SHELFMARK_ADDRESS_SEARCH_RATE", 1...1_000_000, whole: true, unit: .perMinuteAndClient)
    static let addressWriteRate = NumericSetting("SHELFMARK_ADDRESS_WRITE_RATE", 1...1_000_000, whole: true, unit: .perMinuteAndClient)

    /// Every one of them, for `--help` texts and tests.
    static let all = [
        sessionDays, bcryptCost, maxLoans, loanDays, maxRenewals, maxHolds, pickupDays, noticeInterval, searchTTL, idleTimeout, bodyTimeout,
        maxConnections, bodyMemory, authAttempts, anchorInterval, openLibraryDeadline, backupKeep, maxWalkInLoans, searchRate,
        writeRate, addressSearchRate, addressWriteRate,
    ]
}
