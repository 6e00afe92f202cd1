import Application
import Foundation
import Logging
import ServiceLifecycle

/// Where the log's integrity secrets and checkpoints live, and how often `serve` anchors.
public struct IntegritySettings: Sendable, Equatable {
    /// The chain key file (`$SHELFMARK_CHAIN_KEY`); nil: `<database>.key`, beside the database.
    public var chainKeyPath: String?
    /// Seconds between the anchors `serve` appends (`$SHELFMARK_ANCHOR_INTERVAL`; one more at a clean stop).
    public var anchorInterval: TimeInterval = 3600

    public init() {}

    /// The settings from the environment, each checked once: a bad one is one line naming it.
    static func resolve(environment: [String: String]) throws -> IntegritySettings {
        var settings = IntegritySettings()
        settings.chainKeyPath = environment["SHELFMARK_CHAIN_KEY"].flatMap { $0.isEmpty ? nil : $0 }
        if let value = try Settings.anchorInterval.read(environment) { settings.anchorInterval = value }
        return settings
    }
}

extension ShelfmarkConfiguration {
    /// The chain key file: configured, else beside the database.
    public var chainKeyPath: String { integrity.chainKeyPath ?? databasePath + ".key" }
    /// The data folder's anchor file, beside the database.
    public var anchorPath: String { databasePath + ".anchors" }
}

/// Appends a signed checkpoint of the log's head to the data folder's anchor file every
/// `interval`, and once more when `serve` stops cleanly: it is listed after `DatabaseCloser`, and
/// services stop in reverse order, so the database is still open for the last one.
struct AnchorWriter: Service {
    let verifyLog: VerifyLog
    let interval: TimeInterval
    let logger: Logger

    func run() async throws {
        await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                guard (try? await Task.sleep(for: .seconds(interval))) != nil else { return }
                await anchor()
            }
        }
        await anchor()
    }

    private func anchor() async {
        do {
            let (anchor, file) = try await verifyLog.anchor(by: .system)
            logger.info("anchored position \(anchor.position) in \(file)")
        } catch {
            logger.error("cannot anchor the log: \(error)")
        }
    }
}
