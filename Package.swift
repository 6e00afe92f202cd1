// swift-tools-version:6.1
import PackageDescription

let grdb = Target.Dependency.product(name: "GRDB", package: "GRDB.swift")
let logging = Target.Dependency.product(name: "Logging", package: "swift-log")
let metrics = Target.Dependency.product(name: "CoreMetrics", package: "swift-metrics")

let package = Package(
    name: "Shelfmark",
    defaultLocalization: "en",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "shelfmark", targets: ["shelfmark"]),
        // For the benchmarks in bench/, a package of their own.
        .library(name: "ShelfmarkCore", targets: ["Domain", "Application", "LogChain", "SQLiteStore", "Security"]),
        // The whole server as a library, so bench/ runs the same code it measures in its own release build.
        .library(name: "ShelfmarkServer", targets: ["Composition"]),
    ],
    dependencies: [
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/apple/swift-openapi-generator", from: "1.14.3"),
        .package(url: "https://github.com/apple/swift-openapi-runtime", from: "1.13.4"),
        .package(url: "https://github.com/hummingbird-project/swift-openapi-hummingbird", from: "2.1.0"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird-auth", from: "2.5.0"),
        .package(url: "https://github.com/apple/swift-crypto", from: "3.12.3"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        .package(url: "https://github.com/jpsim/Yams", from: "6.2.2"),
        .package(url: "https://github.com/hummingbird-project/swift-mustache", from: "2.1.1"),
        .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.37.6"),
    ],
    targets: [
        // Pure domain: aggregates, commands, events, rules. Depends on nothing.
        .target(name: "Domain", path: "Sources/Domain"),
        // Use cases and ports. Knows the domain, never an adapter, and does no cryptography: the codec
        // decides what is sealed and the `PersonalCipher` port (the Security adapter) seals it.
        .target(name: "Application", dependencies: ["Domain", logging], path: "Sources/Application"),

        // Adapters: each depends on Application only (plus its own libraries).
        // The log's tamper evidence, the same for every store: the hash chain's canonical form,
        // the chain key file and its keyed hashes.
        .target(
            name: "LogChain", dependencies: ["Application", .product(name: "Crypto", package: "swift-crypto"), metrics],
            path: "Sources/Adapters/LogChain"
        ),
        .target(
            name: "SQLiteStore",
            dependencies: ["Application", "LogChain", grdb, .product(name: "Crypto", package: "swift-crypto"), metrics],
            path: "Sources/Adapters/SQLiteStore"
        ),
        // The event store and read models on PostgreSQL, for several servers on one library.
        .target(
            name: "PostgresStore",
            dependencies: [
                "Application", "LogChain", .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"), logging, metrics,
            ],
            path: "Sources/Adapters/PostgresStore"
        ),
        .target(name: "InMemory", dependencies: ["Application"], path: "Sources/Adapters/InMemory"),
        // The library's words for every message, in English and French (`en.lproj`, `fr.lproj`), and
        // the reader's language: what every driving adapter words the use cases' answers with.
        .target(
            name: "Wording", dependencies: ["Application"], path: "Sources/Adapters/Wording",
            resources: [.process("en.lproj"), .process("fr.lproj")]
        ),
        .target(
            name: "Security",
            dependencies: [
                "Application",
                .product(name: "HummingbirdBcrypt", package: "hummingbird-auth"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ],
            path: "Sources/Adapters/Security"
        ),
        .target(
            name: "RESTCountries",
            dependencies: ["Application", .product(name: "AsyncHTTPClient", package: "async-http-client")],
            path: "Sources/Adapters/RESTCountries"
        ),
        .target(
            name: "OpenLibrary",
            dependencies: ["Application", .product(name: "AsyncHTTPClient", package: "async-http-client"), logging, metrics],
            path: "Sources/Adapters/OpenLibrary"
        ),
        .target(
            name: "IPinfo",
            dependencies: ["Application", .product(name: "AsyncHTTPClient", package: "async-http-client")],
            path: "Sources/Adapters/IPinfo"
        ),
        .target(
            name: "Countries",
            dependencies: ["Application"],
            path: "Sources/Adapters/Countries",
            exclude: ["generate-countries.py"],
            resources: [.copy("countries.json")]
        ),
        // The HTTP contract's types (generated from openapi.yaml), their mapping from the
        // application's values, and problem documents: one JSON vocabulary for the API and the CLI.
        .target(
            name: "APIContract",
            dependencies: [
                "Application", "Wording",
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
            ],
            path: "Sources/Adapters/APIContract",
            resources: [.process("en.lproj"), .process("fr.lproj")],
            plugins: [.plugin(name: "OpenAPIGenerator", package: "swift-openapi-generator")]
        ),
        .target(
            name: "HTTPAPI",
            dependencies: [
                "Application", "APIContract", "Wording", .product(name: "Yams", package: "Yams"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "OpenAPIHummingbird", package: "swift-openapi-hummingbird"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                logging,
            ],
            path: "Sources/Adapters/HTTPAPI",
            resources: [.copy("openapi.yaml")],
            plugins: [.plugin(name: "OpenAPIGenerator", package: "swift-openapi-generator")]
        ),
        .target(
            name: "CLI",
            dependencies: ["Application", "APIContract", "Wording", .product(name: "ArgumentParser", package: "swift-argument-parser")],
            path: "Sources/Adapters/CLI", resources: [.process("en.lproj"), .process("fr.lproj")]
        ),
        // The web pages: server-rendered HTML forms over the same use cases, templates and static files
        // as resources. Knows no other adapter.
        .target(
            name: "Web",
            dependencies: [
                "Application", "Wording", .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Mustache", package: "swift-mustache"), .product(name: "Crypto", package: "swift-crypto"), logging,
            ],
            path: "Sources/Adapters/Web",
            resources: [.copy("Templates"), .copy("Static"), .process("en.lproj"), .process("fr.lproj")]
        ),

        // The Prolific catalogue apps' REST API under `/{key}/`: one more driving adapter over the same use cases.
        .target(
            name: "ProlificAPI",
            dependencies: ["Application", "Wording", .product(name: "Hummingbird", package: "hummingbird")],
            path: "Sources/Adapters/ProlificAPI"
        ),

        // The BitBooks line protocol over TCP (SwiftNIO): one more driving adapter over the same use cases.
        .target(
            name: "BitBooks",
            dependencies: [
                "Application", "Wording", .product(name: "NIOCore", package: "swift-nio"), .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"), logging,
            ],
            path: "Sources/Adapters/BitBooks"
        ),

        // `GET /metrics` in Prometheus's text format, and the HTTP requests' own metrics (swift-metrics).
        .target(
            name: "Monitoring",
            dependencies: [
                "Application", .product(name: "Hummingbird", package: "hummingbird"), metrics,
                .product(name: "Prometheus", package: "swift-prometheus"), .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ],
            path: "Sources/Adapters/Monitoring"
        ),

        // Composition: the only code that names concrete adapters.
        .target(
            name: "Composition",
            dependencies: [
                "Application", "LogChain", "SQLiteStore", "PostgresStore", "InMemory", "Security", "Countries", "RESTCountries", "IPinfo",
                "OpenLibrary", "HTTPAPI",
                "CLI", "Web", "BitBooks", "ProlificAPI", "Wording", "Monitoring", metrics,
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"), .product(name: "NIOPosix", package: "swift-nio"),
                logging,
            ],
            path: "Sources/Composition/Root"
        ),
        .executableTarget(name: "shelfmark", dependencies: ["Composition"], path: "Sources/Composition/Main"),

        // Tests, one target per layer.
        .testTarget(name: "DomainTests", dependencies: ["Domain"], path: "Tests/DomainTests"),
        // The PostgreSQL server the tests may use (SHELFMARK_TEST_POSTGRES_URL) and a fresh database on it per test.
        .target(
            name: "PostgresTestSupport",
            dependencies: ["PostgresStore", "Security", .product(name: "PostgresNIO", package: "postgres-nio"), logging],
            path: "Tests/PostgresTestSupport"
        ),
        .testTarget(
            name: "ApplicationTests",
            dependencies: [
                "Application", "LogChain", "SQLiteStore", "PostgresStore", "PostgresTestSupport", "InMemory", "Countries", "Security",
                "Composition", "Wording", grdb,
            ],
            path: "Tests/ApplicationTests"
        ),
        .testTarget(
            name: "AdapterTests",
            dependencies: [
                "Composition", "APIContract", "HTTPAPI", "LogChain", "SQLiteStore", "PostgresStore", "PostgresTestSupport", "InMemory",
                "Security", "CLI",
                "RESTCountries",
                "IPinfo",
                "OpenLibrary", "Web", "BitBooks", "ProlificAPI", "Wording", "Monitoring", grdb,
                .product(name: "HummingbirdTesting", package: "hummingbird"),
            ],
            path: "Tests/AdapterTests"
        ),
    ],
    swiftLanguageModes: [.v6]
)
