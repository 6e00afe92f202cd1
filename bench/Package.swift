// swift-tools-version:6.1
// The benchmarks: a package of their own, so `swift test` of the library never builds them.
import Foundation
import PackageDescription

/// SwiftPM names a path dependency after its folder: whatever the clone is called.
let library = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().lastPathComponent.lowercased()

let package = Package(
    name: "ShelfmarkBench",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(path: ".."),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        // The same SQLite the library uses, for the floor of a durable commit (scenario 1).
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
    ],
    targets: [
        // The scenarios and the table.
        .executableTarget(
            name: "ShelfmarkBench",
            dependencies: [
                .product(name: "ShelfmarkCore", package: library),
                .product(name: "ShelfmarkServer", package: library),
                .product(name: "GRDB", package: "GRDB.swift"),
            ],
            path: "Sources/ShelfmarkBench"
        ),
        // `shelfmark` itself, built in release mode by this package (its main is the same one line).
        .executableTarget(
            name: "BenchServer",
            dependencies: [.product(name: "ShelfmarkServer", package: library)],
            path: "Sources/BenchServer"
        ),
        // The framework's ceiling: one Hummingbird route answering "hello".
        .executableTarget(
            name: "HelloServer",
            dependencies: [.product(name: "Hummingbird", package: "hummingbird")],
            path: "Sources/HelloServer"
        ),
    ],
    swiftLanguageModes: [.v6]
)
