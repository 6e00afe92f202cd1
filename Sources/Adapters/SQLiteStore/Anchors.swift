import Application
import Foundation
import GRDB
import LogChain

extension AnchorFile {
    /// Verify's check on SQLite, in the snapshot: every signature right, every anchored head in the log.
    static func check(_ loaded: Loaded, _ chain: ChainHasher, _ db: Database) throws -> AuditCheck {
        let read = AnchorFile.read(loaded, chain)
        var hashes: [Int64: String] = [:]
        for position in Set(read.positions) {
            if let hash = try String.fetchOne(db, sql: "SELECT hash FROM events WHERE position = ?", arguments: [position]) {
                hashes[position] = hash
            }
        }
        return read.check(hashes: hashes, head: try EventRows.head(db))
    }
}

extension LibraryDatabase {
    /// Appends a signed checkpoint of the head to the anchor file at `path`, which may be the
    /// library's own anchor file but no other of its files (`isOwnFile`: its database, its key).
    public func anchor(to path: String, at time: Date) async throws -> LogAnchor {
        if isOwnFile(path), !LibraryFiles.same(path, self.path + ".anchors") { throw BackupRefused(.libraryFile(path)) }
        let tip = try reads.read { db in try SQLiteHashChain.tip(db) }
        try await eventStore.flushNow()  // the head anchored is on disk: a power cut cannot take it back
        let anchor = LogAnchor(position: tip.position, hash: tip.hash, time: Timestamp.format(time))
        guard let signature = chain.sign(AnchorFile.signedText(anchor)) else {
            throw AnchorFileError(.anchorNeedsKey)
        }
        try AnchorFile.append(anchor, signature: signature, to: path)
        return anchor
    }
}
