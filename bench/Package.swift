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
    ],
    targets: [
        .executableTarget(
            name: "ShelfmarkBench",
            dependencies: [
                .product(name: "ShelfmarkCore", package: library),
            ],
            path: "Sources/ShelfmarkBench"
        ),
    ],
    swiftLanguageModes: [.v6]
)
