import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Whether any connection, of this process or another (the CLI writes to the same file), has
/// committed since an earlier moment. Read from the wal-index header SQLite keeps at the start of
/// the database's `-shm` file (sqlite.org/walformat.html, "the WAL-index header"): two copies of 48
/// bytes that every commit rewrites (its change counter, frame count, salts and checksums), the
/// second copy first, after the commit's frames are written and synced. The copies are read as
/// SQLite's own readers read them: when they differ (a commit half-way through writing them) or the
/// header is not initialised, there is no stamp, and nothing may be taken as unchanged. One `pread`
/// of 96 bytes, against a read transaction for asking the database. Issue 20.
final class DatabaseChanges: Sendable {
    /// The header as read at one moment: equal stamps mean no commit in between.
    struct Stamp: Equatable, Sendable {
        let a: UInt64, b: UInt64, c: UInt64, d: UInt64, e: UInt64, f: UInt64
    }

    private enum File {
        case unopened, open(Int32), closed
    }

    private let path: String
    private let file = Mutex<File>(.unopened)

    /// The changes of the database at `databasePath` (its `-shm` file is opened at the first stamp).
    init(databasePath: String) {
        path = databasePath + "-shm"
    }

    /// The header now, or nil: closed, no wal-index yet, or a commit is rewriting it.
    func stamp() -> Stamp? {
        file.withLock { file -> Stamp? in
            if case .unopened = file {
                let descriptor = open(path, O_RDONLY | O_CLOEXEC)
                guard descriptor >= 0 else { return nil }
                file = .open(descriptor)
            }
            guard case .open(let descriptor) = file else { return nil }
            return Self.header(descriptor)
        }
    }

    /// Stops answering: every later `stamp()` is nil.
    func close() {
        file.withLock { file in
            if case .open(let descriptor) = file { closeDescriptor(descriptor) }
            file = .closed
        }
    }

    private static let headerSize = 48

    private static func header(_ descriptor: Int32) -> Stamp? {
        withUnsafeTemporaryAllocation(byteCount: 2 * headerSize, alignment: 8) { buffer -> Stamp? in
            guard pread(descriptor, buffer.baseAddress, 2 * headerSize, 0) == 2 * headerSize else { return nil }
            let first = UnsafeRawBufferPointer(rebasing: buffer[0..<headerSize])
            let second = UnsafeRawBufferPointer(rebasing: buffer[headerSize..<2 * headerSize])
            // `isInit` (offset 12) is 1 once the header is valid; both copies equal: not half-written.
            guard first[12] == 1, first.elementsEqual(second) else { return nil }
            func word(_ index: Int) -> UInt64 { first.loadUnaligned(fromByteOffset: index * 8, as: UInt64.self) }
            return Stamp(a: word(0), b: word(1), c: word(2), d: word(3), e: word(4), f: word(5))
        }
    }
}

/// Answers read once and kept while the database has not changed (`DatabaseChanges`): every
/// commit, by any connection of any process, forgets them all. At most `limit` are kept.
final class ReadMemo<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    private struct Kept: ~Copyable {
        var stamp: DatabaseChanges.Stamp?
        var values: [Key: Value] = [:]
    }

    private let kept = Mutex(Kept())
    private let limit: Int

    init(limit: Int = 1_024) { self.limit = limit }

    /// The answer kept for `key` when the database is still as it was at `stamp`.
    func value(_ key: Key, at stamp: DatabaseChanges.Stamp) -> Value? {
        kept.withLock { $0.stamp == stamp ? $0.values[key] : nil }
    }

    /// Keeps `value`, read after `stamp` was taken, for as long as the database stays at `stamp`.
    func keep(_ value: Value, for key: Key, at stamp: DatabaseChanges.Stamp) {
        kept.withLock { kept in
            if kept.stamp != stamp || kept.values.count >= limit {
                kept.stamp = stamp
                kept.values = [:]
            }
            kept.values[key] = value
        }
    }
}

/// The C library's `close(2)`, named apart from `DatabaseChanges.close`.
private func closeDescriptor(_ descriptor: Int32) {
    #if canImport(Glibc)
        _ = Glibc.close(descriptor)
    #else
        _ = Musl.close(descriptor)
    #endif
}
