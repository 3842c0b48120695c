// swift-tools-version:6.1
import PackageDescription

/// Settings every target shares: explicit `any`, and imports that stay internal unless marked `public import`.
let strictSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

let package = Package(
    name: "reindex-scheduler",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "scheduler", targets: ["scheduler"]),
        .library(name: "PluginAPI", targets: ["PluginAPI"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/jpsim/Yams", from: "6.2.2"),
    ],
    targets: [
        // The plugin API: the item model and the errors plugins see. Depends on nothing heavy.
        .target(
            name: "PluginAPI",
            dependencies: [.product(name: "Logging", package: "swift-log")],
            swiftSettings: strictSettings
        ),
        // The searchable index: one protocol, an SQLite + FTS5 backend.
        .target(
            name: "Indexing",
            dependencies: [
                "PluginAPI",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strictSettings
        ),
        // YAML configuration, feature gates and A/B experiments: safe loading, validation, evaluation.
        .target(
            name: "Configuration",
            dependencies: [
                "PluginAPI",
                .product(name: "Yams", package: "Yams"),
            ],
            swiftSettings: strictSettings
        ),
        // The reindex engine: due decisions, the reconcile pass, locking, backoff, state and history.
        .target(
            name: "Engine",
            dependencies: [
                "PluginAPI",
                "Indexing",
                "Configuration",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strictSettings
        ),
        // Built-in source plugins: each its own target, depending on the plugin API only.
        .target(
            name: "CommandPlugin",
            dependencies: ["PluginAPI"],
            path: "plugins/CommandPlugin",
            swiftSettings: strictSettings
        ),
        // The `scheduler` command line: thin adapters over the libraries.
        .executableTarget(
            name: "scheduler",
            dependencies: [
                "PluginAPI",
                "Indexing",
                "Configuration",
                "Engine",
                "CommandPlugin",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strictSettings
        ),
        // Index benchmark: prints import throughput, peak memory, search latency and delete time.
        .executableTarget(
            name: "scheduler-bench",
            dependencies: ["PluginAPI", "Indexing"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "PluginAPITests",
            dependencies: ["PluginAPI"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "IndexingTests",
            dependencies: ["Indexing", "PluginAPI"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "ConfigurationTests",
            dependencies: ["Configuration", "PluginAPI", "CommandPlugin"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "EngineTests",
            dependencies: ["Engine", "Configuration", "Indexing", "PluginAPI", .product(name: "Logging", package: "swift-log")],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "CommandLineTests",
            dependencies: ["scheduler"],
            swiftSettings: strictSettings
        ),
    ]
)
