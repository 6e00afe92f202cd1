import Application
import Foundation

/// The real clock.
public struct SystemClock: WallClock {
    public init() {}
    public func now() -> Date { Date() }
}

/// Random (version 4) UUIDs.
public struct RandomIDs: IDGenerator {
    public init() {}
    public func next() -> UUID { UUID() }
}

/// The offline default: no geolocation, every address is "unknown".
public struct NoGeolocation: IPGeolocator {
    public init() {}
    public func country(for ip: String) async -> String? { nil }
}
