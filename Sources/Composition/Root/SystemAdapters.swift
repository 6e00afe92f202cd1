import Application
import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// The real clock.
public struct SystemClock: WallClock {
    public init() {}
    public func now() -> Date { Date() }
}

/// Time-ordered (version 7) UUIDs with 74 random bits from the kernel's CSPRNG (/dev/urandom,
/// kept open, read 4 KiB at a time): Foundation's
/// `UUID()` opens, reads and closes /dev/urandom for each one, and a command makes several.
public struct RandomIDs: IDGenerator {
    private static let pool = Mutex((bytes: [UInt8](repeating: 0, count: 4096), used: 4096))
    /// Opened once for the process's life.
    private static let urandom: Int32 = {
        let fd = open("/dev/urandom", O_RDONLY | O_CLOEXEC)
        precondition(fd >= 0, "cannot open /dev/urandom: errno \(errno)")
        return fd
    }()

    public init() {}

    public func next() -> UUID {
        var b = Self.pool.withLock { pool -> [UInt8] in
            if pool.used + 16 > pool.bytes.count {
                pool.bytes.withUnsafeMutableBytes { buffer in
                    var filled = 0
                    while filled < buffer.count {
                        let got = read(Self.urandom, buffer.baseAddress! + filled, buffer.count - filled)
                        if got > 0 {
                            filled += got
                        } else if got == 0 || errno != EINTR {
                            fatalError("cannot read /dev/urandom (\(got), errno \(errno))")
                        }
                    }
                }
                pool.used = 0
            }
            defer { pool.used += 16 }
            return Array(pool.bytes[pool.used..<pool.used + 16])
        }
        // Version 7 (RFC 9562): the first 48 bits are the Unix time in milliseconds, so ids made
        // one after the other sort together and the indexes keyed by them (events, books, loans)
        // grow at their right edge instead of dirtying a random page per insert.
        let millis = UInt64(max(0, Date().timeIntervalSince1970 * 1000))
        for index in 0..<6 { b[index] = UInt8(truncatingIfNeeded: millis >> (40 - 8 * UInt64(index))) }
        b[6] = b[6] & 0x0f | 0x70  // version 7
        b[8] = b[8] & 0x3f | 0x80  // RFC 9562 variant
        return UUID(uuid: (b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11], b[12], b[13], b[14], b[15]))
    }
}

/// The offline default: no geolocation, every address is "unknown".
public struct NoGeolocation: IPGeolocator {
    public init() {}
    public func country(for ip: String) async -> String? { nil }
}

/// The system's random numbers (Swift's default generator, seeded by the kernel).
public struct SystemRandom: RandomSource {
    public init() {}
    public func unit() -> Double { Double.random(in: 0..<1) }
}
