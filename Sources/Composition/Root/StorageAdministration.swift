import Application
import Foundation
import LogChain
import Logging
import PostgresStore
import SQLiteStore
import Security

/// `shelfmark migrate` and `shelfmark copy`: the storage's own administration, which only the
/// composition root may do, since it names both stores.
enum StorageAdministration {
    /// Creates or upgrades the configured library's schema; where it is and the migrations applied now.
    static func migrate(_ configuration: ShelfmarkConfiguration, logger: Logger) async throws -> (location: String, applied: [String]) {
        if configuration.databaseURL != nil {
            let storage = try await Bootstrap.openStorage(configuration, logger: logger)
            try? await storage.shutDown()
            return (storage.location, (storage as? PostgresLibrary)?.migrated ?? [])
        }
        let folder = URL(fileURLWithPath: configuration.databasePath).deletingLastPathComponent().path
        if let setting = configuration.databaseNamedBy, !FileManager.default.fileExists(atPath: folder) {
            throw ConfigurationError(setting, .folderMissing(folder))
        }
        try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try configuration.refuseDatabaseThatIsNoFile()
        // Refused as every command's opening refuses (an outside walk: a missing key file was exit 70 here alone).
        do {
            let applied = try LibraryDatabase.migrate(
                path: configuration.databasePath, keyFile: configuration.chainKeyPath, cipher: SwiftCryptoPersonalCipher())
            return (configuration.databasePath, applied)
        } catch {
            throw Bootstrap.openingRefusal(error, configuration)
        }
    }

    /// Copies the SQLite library at `file` into the empty PostgreSQL database at `url`, its chain
    /// key (`<file>.key`) to the configuration's key file, which must not exist yet.
    static func copy(
        from file: String, to url: String, _ configuration: ShelfmarkConfiguration, logger: Logger,
        progress: @escaping @Sendable (Int64, Int64) -> Void
    ) async throws -> Confirmation {
        guard FileManager.default.fileExists(atPath: file) else { throw InvalidInput("from", .fileUnusable(file)) }
        guard let address = try? PostgresAddress(url) else { throw ConfigurationError("--to", .notADatabaseURL) }
        let cipher = SwiftCryptoPersonalCipher()
        let keyFile = FileManager.default.fileExists(atPath: file + ".key") ? file + ".key" : nil
        let source = try LibraryDatabase(path: file, keyFile: keyFile, cipher: cipher)
        defer { try? source.close() }
        do {
            // The copy lock held from the first look at the target to its last event: two copies at
            // once would each see it empty and bring their own secrets.
            return try await address.whileCopying(logger: logger) {
                let held = try await address.storedEvents(logger: logger)
                guard held == 0 else { throw ConfigurationError("--to", .databaseNotEmpty(events: held)) }
                try await address.forgetKeyOfEmptyLog(logger: logger)
                // Opened without a key: the copy brings the source's, recorded with its first event.
                let library = try await Bootstrap.openPostgres(address, named: "--to", keyFile: nil, logger: logger)
                do {
                    let keyCopy = keyFile == nil ? nil : configuration.chainKeyPath
                    if let keyCopy, FileManager.default.fileExists(atPath: keyCopy) { throw ChainKeyError(.keyFileExists(path: keyCopy)) }
                    let copied = try await LogCopy.copy(
                        from: source, to: library, carryingSecrets: true, keyFile: keyCopy, progress: progress)
                    await library.close()
                    return .logCopied(events: copied, from: file, to: address.description, keyFile: keyCopy)
                } catch {
                    await library.close()
                    throw error
                }
            }
        } catch let error as PostgresUnavailable {
            logger.error("PostgreSQL at \(address): \(error.cause)")
            throw ConfigurationError("--to", .databaseUnreachable(address.description))
        } catch is LogCopyUnderWay {
            throw ConfigurationError("--to", .copyUnderWay)
        }
    }
}
