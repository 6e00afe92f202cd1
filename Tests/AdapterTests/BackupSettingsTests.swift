import Application
import Composition
import Foundation
import Testing

/// `serve`'s backup settings: durations such as 30m, 6h, 1d, and a count, read once and range-checked.
@Suite("backup settings")
struct BackupSettingsTests {
    func resolve(_ environment: [String: String]) throws -> BackupSettings {
        try ShelfmarkConfiguration.resolve(database: "/srv/shelfmark/library.sqlite", environment: environment).backups
    }

    @Test func durationsAreAWholeNumberAndAUnit() throws {
        for (text, seconds) in [("45s", 45.0), ("30m", 1_800), ("6h", 21_600), ("1d", 86_400), ("365d", 31_536_000), (" 2h ", 7_200)] {
            #expect(try resolve(["SHELFMARK_BACKUP_EVERY": text]).interval == seconds, "\(text)")
        }
        let defaults = try resolve([:])
        #expect(defaults.interval == nil && defaults.keep == 7)
        #expect(defaults.folder(for: "/srv/shelfmark/library.sqlite") == "/srv/shelfmark/backups")
    }

    @Test func aBadDurationIsRefusedNamingTheSettingAndWhatItTakes() {
        for text in ["6", "6x", "h", "0m", "-1h", "1.5h", "366d", "1h30m", "99999999999999999999d", "inf"] {
            #expect {
                _ = try resolve(["SHELFMARK_BACKUP_EVERY": text])
            } throws: { error in
                (error as? ConfigurationError)?.english
                    == "SHELFMARK_BACKUP_EVERY must be a duration from 1s to 365d: a whole number and a unit (s, m, h or d), "
                    + "such as 30m, 6h or 1d, not '\(text)'"
            }
        }
    }

    @Test func serveOptionsGoOverTheEnvironmentAndAreCheckedAlike() throws {
        let environment = try resolve(["SHELFMARK_BACKUP_EVERY": "1d", "SHELFMARK_BACKUP_KEEP": "3", "SHELFMARK_BACKUP_DIR": "/backups"])
        #expect(environment.interval == 86_400 && environment.keep == 3 && environment.folder(for: "/x/l.sqlite") == "/backups")
        let options = try environment.overridden(every: "6h", keep: "10", folder: "/elsewhere")
        #expect(options.interval == 21_600 && options.keep == 10 && options.folder == "/elsewhere")
        #expect(try environment.overridden(every: nil, keep: nil, folder: nil) == environment)
        #expect(throws: ConfigurationError.self) { try environment.overridden(every: "6x", keep: nil, folder: nil) }
        #expect(throws: ConfigurationError.self) { try environment.overridden(every: nil, keep: "0", folder: nil) }
        #expect(throws: ConfigurationError.self) { try resolve(["SHELFMARK_BACKUP_KEEP": "10001"]) }
    }
}
