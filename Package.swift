// swift-tools-version:6.1
import PackageDescription

/// Settings every target shares: explicit `any`, and imports that stay internal unless marked `public import`.
let strictSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

let package = Package(
    name: "reindex-scheduler",
    products: [
        .executable(name: "scheduler", targets: ["scheduler"]),
        .library(name: "PluginAPI", targets: ["PluginAPI"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.3"),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/apple/swift-metrics", from: "2.5.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.37.6"),
        .package(url: "https://github.com/hummingbird-project/swift-mustache", from: "2.1.1"),
        .package(url: "https://github.com/hummingbird-project/hummingbird-auth", from: "2.5.0"),
        .package(url: "https://github.com/apple/swift-async-algorithms", from: "1.1.4"),
        .package(url: "https://github.com/apple/swift-crypto", from: "4.5.2"),
        .package(url: "https://github.com/vapor/jwt-kit", from: "5.8.0"),
    ],
    targets: [
        // Linux system calls Swift cannot call directly (openat2 through the variadic syscall).
        .target(name: "CSystemCalls"),
        // The system libyaml: the distribution's copy, which gets its security updates.
        .systemLibrary(name: "CYAML", pkgConfig: "yaml-0.1", providers: [.apt(["libyaml-dev"])]),
        // The system Zstandard library: the SQLite store keeps items' descriptions compressed with a dictionary.
        .systemLibrary(name: "CZstd", pkgConfig: "libzstd", providers: [.apt(["libzstd-dev"])]),
        // Strict YAML over libyaml's event parser: one document composed into nodes with positions, limits enforced
        // while composing, scalars resolved by the YAML 1.2 core schema.
        .target(name: "YAML", dependencies: ["CYAML"], swiftSettings: strictSettings),
        // Strict TOML 1.0 in Swift, for front matter nobody vetted: a node tree with positions, limits on size, values and
        // depth, no recursion, linear time; every refusal says where and what to write instead.
        .target(name: "TOML", swiftSettings: strictSettings),
        // The system cmark, CommonMark's reference parser: linear time and fuzzed, for Markdown nobody vetted.
        .systemLibrary(name: "CCommonMark", pkgConfig: "libcmark", providers: [.apt(["libcmark-dev"])]),
        // flagd / OpenFeature flag definition files: read strictly (JSON or YAML, with positions), targeting rules
        // checked at load, evaluated as flagd evaluates them (MurmurHash3 `fractional` bucketing).
        .target(name: "Flagd", dependencies: ["YAML"], swiftSettings: strictSettings),
        // What the host's modules share and plugins never see: the wall clock they compare dates by, a read-write lock.
        .target(name: "HostSupport", swiftSettings: strictSettings),
        // The plugin API: the item model and the errors plugins see. Depends on nothing heavy.
        .target(
            name: "PluginAPI",
            dependencies: ["CSystemCalls", .product(name: "Logging", package: "swift-log")],
            swiftSettings: strictSettings
        ),
        // The searchable index without a database: its protocol, batches, queries, text folding, ranking and the
        // result cache, which every backend shares.
        .target(
            name: "Indexing",
            dependencies: ["PluginAPI", .product(name: "Logging", package: "swift-log")],
            swiftSettings: strictSettings
        ),
        // The store's roles: the protocols the engine writes through, the state it keeps per unit and run, where a
        // store lives, and the defaults every backend shares.
        .target(
            name: "Store",
            dependencies: ["PluginAPI", "Indexing"],
            swiftSettings: strictSettings
        ),
        // The embedded store: owns its SQLite file (the FTS5 index and the scheduler's tables, one migrator); the only
        // module that imports GRDB.
        .target(
            name: "SQLiteStore",
            dependencies: [
                "HostSupport", "CSystemCalls", "CZstd", "PluginAPI", "Indexing", "Store",
                .product(name: "GRDB", package: "GRDB.swift"),
                // SQLite's C functions, to read a candidate's text from a statement without a string per field (a build
                // with SQLCipher would import that instead).
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strictSettings
        ),
        // The store for several replicas: owns its PostgreSQL database (the index and the scheduler's tables); the only
        // module that imports PostgresNIO.
        .target(
            name: "PostgresStore",
            dependencies: [
                "HostSupport", "PluginAPI", "Indexing", "Store",
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strictSettings
        ),
        // The memory twin of the stores: the same protocols in this process's memory, for fast tests of the code above.
        .target(
            name: "MemoryStore",
            dependencies: ["HostSupport", "PluginAPI", "Indexing", "Store"],
            swiftSettings: strictSettings
        ),
        // YAML configuration, feature gates and A/B experiments (their own rules or flagd flags): safe loading, validation,
        // evaluation.
        .target(
            name: "SchedulerConfig",
            dependencies: ["HostSupport", "PluginAPI", "Indexing", "Store", "YAML", "Flagd"],
            swiftSettings: strictSettings
        ),
        // The reindex engine: due decisions, the reconcile pass, locking, backoff, state and history.
        .target(
            name: "Engine",
            dependencies: [
                "HostSupport",
                "CSystemCalls",
                "PluginAPI",
                "Indexing",
                "Store",
                "SchedulerConfig",
                .product(name: "AsyncAlgorithms", package: "swift-async-algorithms"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strictSettings
        ),
        // The long-running service: the reconcile loop, config hot reload, the HTTP API and metrics.
        .target(
            name: "SchedulerService",
            dependencies: [
                "HostSupport",
                "PluginAPI",
                "Indexing",
                "SchedulerConfig",
                "Engine",
                "Store",
                "SQLiteStore",
                "PostgresStore",
                "YAML",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdAuth", package: "hummingbird-auth"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "Mustache", package: "swift-mustache"),
                .product(name: "Logging", package: "swift-log"),
                // Search keys' secrets (HMAC-SHA-256) and tenant tokens (JWTs, HS256).
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "JWTKit", package: "jwt-kit"),
                // A new replica fetches another's search copy.
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
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
        .target(
            name: "CategoryFeedPlugin",
            dependencies: [
                "PluginAPI",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ],
            path: "plugins/CategoryFeedPlugin",
            swiftSettings: strictSettings
        ),
        .target(
            name: "PostsPlugin",
            dependencies: [
                "PluginAPI", "YAML", "TOML", "CCommonMark",
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "plugins/PostsPlugin",
            swiftSettings: strictSettings
        ),
        // Checks any source plugin's tests can run: declaration, option refusals, valid items, cancellation.
        .target(
            name: "PluginConformance",
            dependencies: ["PluginAPI"],
            swiftSettings: strictSettings
        ),
        // The `scheduler` command line: thin adapters over the libraries.
        .executableTarget(
            name: "scheduler",
            dependencies: [
                "HostSupport",
                "CSystemCalls",
                "PluginAPI",
                "Indexing",
                "SchedulerConfig",
                "Engine",
                "Store",
                "SQLiteStore",
                "SchedulerService",
                "CommandPlugin",
                "PostsPlugin",
                "CategoryFeedPlugin",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
            ],
            swiftSettings: strictSettings,
            plugins: ["BuildInfo"]
        ),
        // Records the git commit a build comes from, for `scheduler --version`.
        .plugin(name: "BuildInfo", capability: .buildTool()),
        // Index benchmark: prints import throughput, peak memory, search latency and delete time.
        .executableTarget(
            name: "scheduler-bench",
            dependencies: [
                "CSystemCalls", "PluginAPI", "Indexing", "Engine", "SchedulerConfig", "SchedulerService", "Store", "SQLiteStore", "PostgresStore",
                "PostsPlugin", .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strictSettings
        ),
        // Opens a fresh store of each backend (an SQLite file, a PostgreSQL database) for the store and engine tests.
        .target(
            name: "StoreSupport",
            dependencies: [
                "HostSupport", "PluginAPI", "Indexing", "SchedulerConfig", "SchedulerService", "Store", "PostgresStore", "SQLiteStore", "MemoryStore",
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Tests/StoreSupport",
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "StoreTests",
            dependencies: [
                "HostSupport", "StoreSupport", "Store", "Indexing", "PluginAPI", "SchedulerConfig", "SchedulerService", "PostgresStore",
                "SQLiteStore", "ProcessSupport",
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strictSettings
        ),
        // The PostgreSQL backend's own tests, against its driver (the store's behaviour is StoreTests').
        .testTarget(
            name: "PostgresStoreTests",
            dependencies: [
                "PostgresStore", "Store", "StoreSupport", "HostSupport", "Indexing", "PluginAPI",
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strictSettings
        ),
        // Starts programs for the tests without `Foundation.Process` (see ChildProcess.swift for why).
        .target(
            name: "ProcessSupport", dependencies: ["PluginAPI", .product(name: "Logging", package: "swift-log")], path: "Tests/ProcessSupport",
            swiftSettings: strictSettings
        ),
        // Seeded generators and input mutators shared by the property and fuzz tests.
        .target(name: "FuzzSupport", path: "Tests/FuzzSupport", swiftSettings: strictSettings),
        .testTarget(
            name: "YAMLTests",
            dependencies: ["YAML", "FuzzSupport"],
            exclude: ["Fixtures"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "FlagdTests",
            dependencies: ["Flagd", "YAML", "FuzzSupport"],
            exclude: ["Fixtures"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "TOMLTests",
            dependencies: ["TOML", "FuzzSupport"],
            exclude: ["Fixtures"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "PluginAPITests",
            dependencies: ["PluginAPI", "FuzzSupport"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "SQLiteStoreTests",
            dependencies: [
                "HostSupport", "SQLiteStore", "Store", "Indexing", "PluginAPI", "FuzzSupport", "ProcessSupport",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Logging", package: "swift-log"),
            ],
            exclude: ["Fixtures"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "SchedulerConfigTests",
            dependencies: [
                "HostSupport", "SchedulerConfig", "SchedulerService", "PluginAPI", "CategoryFeedPlugin", "CommandPlugin", "PostsPlugin",
                "FuzzSupport",
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "EngineTests",
            dependencies: [
                "HostSupport", "Engine", "SchedulerConfig", "SchedulerService", "Indexing", "Store", "StoreSupport", "PluginAPI", "MemoryStore",
                "ProcessSupport",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "PluginTests",
            dependencies: [
                "PluginAPI", "PluginConformance", "CommandPlugin", "PostsPlugin", "CategoryFeedPlugin", "FuzzSupport", "ProcessSupport",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            exclude: ["Fixtures"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "SchedulerServiceTests",
            dependencies: [
                "HostSupport", "SchedulerService", "SchedulerConfig", "Engine", "Store", "StoreSupport", "Indexing", "PluginAPI", "CommandPlugin",
                "FuzzSupport", "SQLiteStore",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "Prometheus", package: "swift-prometheus"),
            ],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "CommandLineTests",
            dependencies: ["scheduler", "FuzzSupport", "StoreSupport", "SchedulerService", "ProcessSupport", "Store", "PostgresStore"],
            // The Chromium driver the browser tests run with python3 (``ConsoleBrowserTests``).
            exclude: ["OperatorSurface/browser-driver.py"],
            swiftSettings: strictSettings
        ),
    ]
)
