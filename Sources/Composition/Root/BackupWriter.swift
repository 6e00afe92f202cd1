import Application
import Foundation
import Logging
import SQLiteStore
import Security
import ServiceLifecycle

/// Backs the library up into the backup folder every `interval` while `serve` runs (the first
/// one interval after the start), then removes the backups past the newest `keep`, each with its
/// key and anchors. Only files named as this rotation names them are ever removed, and only
/// after a backup succeeded.
struct BackupWriter: Service {
    let backUp: BackUpLibrary
    let folder: String
    let rotation: BackupRotation
    let interval: TimeInterval
    let clock: any WallClock
    let logger: Logger

    /// The writer `configuration` asks for, if any, as a list to add to the server's services.
    static func services(_ configuration: ShelfmarkConfiguration, library: Library, clock: any WallClock, logger: Logger) -> [any Service] {
        guard let interval = configuration.backups.interval else { return [] }
        return [
            BackupWriter(
                backUp: library.backUp, folder: configuration.backups.folder(for: configuration.databasePath),
                rotation: BackupRotation(database: configuration.databasePath, keep: configuration.backups.keep), interval: interval,
                clock: clock, logger: logger)
        ]
    }

    func run() async throws {
        await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                guard (try? await Task.sleep(for: .seconds(interval))) != nil else { return }
                await backUpOnce()
            }
        }
    }

    /// One backup and the rotation after it; failures are logged, and the next run tries again.
    func backUpOnce() async {
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            let file = URL(fileURLWithPath: folder).appendingPathComponent(rotation.fileName(at: clock.now())).path
            let report = try await backUp.execute(to: file, by: .system)
            logger.info("backed up \(report.summary.events) events to \(file)")
            for name in try rotation.expired(FileManager.default.contentsOfDirectory(atPath: folder)) {
                for suffix in ["", ".key", ".anchors"] {
                    let path = URL(fileURLWithPath: folder).appendingPathComponent(name + suffix).path
                    // Never one of the library's own (found by an outside walk: a chain key kept in the
                    // backup folder under a backup's name went with that backup).
                    guard (try? backUp.refuseOwnFile(path)) != nil else { continue }
                    try? FileManager.default.removeItem(atPath: path)
                }
                logger.info("removed the old backup \(name) (keeping \(rotation.keep))")
            }
        } catch {
            logger.error("backup into \(folder) failed: \(error)")
        }
    }
}

extension Bootstrap {
    /// The restore of the library `configuration` names: its database, chain key and anchor file.
    public static func restoreLibrary(_ configuration: ShelfmarkConfiguration, clock: any WallClock = SystemClock()) -> RestoreLibrary {
        RestoreLibrary(
            restorer: SQLiteRestorer(
                target: configuration.databasePath, keyFile: configuration.chainKeyPath, anchorFile: configuration.anchorPath,
                cipher: SwiftCryptoPersonalCipher()),
            clock: clock)
    }
}
