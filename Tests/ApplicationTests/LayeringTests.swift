import Foundation
import Testing

/// The inner layers import only what their targets declare. SwiftPM's plain `swift build` does not
/// refuse an undeclared import of a module built for another target (all modules share one
/// folder), so `import Crypto` in Application would compile; this reads the sources instead.
@Suite("Layering")
struct LayeringTests {
    static let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Sources")

    /// The modules each inner target may import: its declared dependencies and the toolchain's own.
    static let allowed: [String: Set<String>] = [
        "Domain": ["Foundation"],
        "Application": ["Domain", "Foundation", "Logging", "Synchronization", "Dispatch"],
    ]

    /// Every module a target's Swift files import, with the files importing it.
    static func imports(of target: String) throws -> [String: [String]] {
        let folder = sources.appendingPathComponent(target)
        let files = try #require(FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil))
        var found: [String: [String]] = [:]
        for case let file as URL in files where file.pathExtension == "swift" {
            for line in try String(contentsOf: file, encoding: .utf8).split(separator: "\n") {
                let words = line.split(separator: " ").filter { !$0.hasPrefix("@") }
                guard words.first == "import", let module = words.last?.split(separator: ".").first else { continue }
                found[String(module), default: []].append(file.lastPathComponent)
            }
        }
        return found
    }

    @Test(arguments: ["Domain", "Application"])
    func anInnerTargetImportsOnlyItsDeclaredDependencies(_ target: String) throws {
        let imports = try Self.imports(of: target)
        #expect(imports["Foundation"] != nil, "the sources were not found at \(Self.sources.path)")
        for (module, files) in imports where !Self.allowed[target]!.contains(module) {
            Issue.record("\(target) imports \(module) in \(files.sorted().joined(separator: ", "))")
        }
    }
}
