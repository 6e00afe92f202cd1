import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The middle value of several runs.
func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }

/// The value below which a fraction `p` of the samples fall.
func percentile(_ values: [Double], _ p: Double) -> Double {
    let sorted = values.sorted()
    return sorted[min(sorted.count - 1, Int(Double(sorted.count) * p))]
}

/// Milliseconds since `start` on the monotonic clock.
func milliseconds(since start: UInt64) -> Double { Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6 }

/// fdatasync calls per second on the folder's disk: the ceiling of durable commits.
func fdatasyncRate(in folder: URL, seconds: Double = 2) -> Double {
    let path = folder.appendingPathComponent("fsync.probe").path
    let fd = open(path, O_CREAT | O_WRONLY | O_TRUNC, 0o644)
    defer { close(fd); unlink(path) }
    var block = [UInt8](repeating: 7, count: 4096)
    let start = Date()
    var count = 0
    while Date().timeIntervalSince(start) < seconds {
        _ = pwrite(fd, &block, block.count, 0)
        fdatasync(fd)
        count += 1
    }
    return Double(count) / Date().timeIntervalSince(start)
}

/// A `/proc/PID/status` figure in MiB (VmHWM: peak resident set; VmRSS: current).
func memoryMiB(_ field: String, pid: Int32 = getpid()) -> Double {
    guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
          let line = status.split(separator: "\n").first(where: { $0.hasPrefix(field + ":") }),
          let kib = Double(line.split(separator: " ").dropFirst().first ?? "") else { return 0 }
    return kib / 1024
}

/// One line of the results table.
struct Row {
    var scenario: String
    var result: String
    var p50 = ""
    var p99 = ""
    var ratio = ""
    var target = ""
    var markdown: String { "| \(scenario) | \(result) | \(p50) | \(p99) | \(ratio) | \(target) |" }
}

/// Runs a program to its end; returns its standard output (standard error passes through).
@discardableResult
func run(_ executable: String, _ arguments: [String], environment: [String: String] = [:]) throws -> String {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
    let pipe = Pipe()
    process.standardOutput = pipe
    try process.run()
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else {
        throw BenchError("\(executable) \(arguments.joined(separator: " ")) exited with \(process.terminationStatus)")
    }
    return String(decoding: data, as: UTF8.self)
}

struct BenchError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// Formats a number with thousands separators.
func grouped(_ value: Double) -> String { Int(value.rounded()).formatted(.number.grouping(.automatic)) }
