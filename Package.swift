// swift-tools-version:6.1
import PackageDescription

let strict: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    // A file sees the members of exactly the modules it imports (SE-0444): the dependencies below
    // are then exactly what the sources import.
    .enableUpcomingFeature("MemberImportVisibility"),
]

/// The test targets and their helpers import what they use, as the sources do (SE-0444).
let testing: [SwiftSetting] = [
    .enableUpcomingFeature("MemberImportVisibility")
]

// Linux only: the sources import Glibc and use Synchronization's Mutex; no other platform is
// declared because none is built or tested.
let package = Package(
    name: "bts",
    products: [
        .executable(name: "bts", targets: ["bts"])
    ],
    dependencies: [
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1"),
        .package(url: "https://github.com/hummingbird-project/hummingbird-websocket.git", from: "2.8.1"),
        .package(url: "https://github.com/swift-server/async-http-client.git", from: "1.37.0"),
        .package(url: "https://github.com/groue/GRDB.swift.git", from: "7.10.0"),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        .package(url: "https://github.com/vapor/multipart-kit.git", from: "4.7.1"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
        .package(url: "https://github.com/LebJe/TOMLKit.git", from: "0.6.0"),
        .package(url: "https://github.com/yaslab/CSV.swift.git", from: "2.5.2"),
        .package(url: "https://github.com/apple/swift-http-types.git", from: "1.8.0"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.13.0"),
    ],
    targets: [
        // libedit through non-variadic static-inline shims (see shim.h).
        .systemLibrary(
            name: "CEditLine",
            pkgConfig: "libedit",
            providers: [.apt(["libedit-dev"])]
        ),
        // ZBar, libpng, TurboJPEG and libwebp for the offline bookshelf scan (see shim.h).
        .systemLibrary(
            name: "CBarcode",
            providers: [.apt(["libzbar-dev", "libpng-dev", "libturbojpeg0-dev", "libwebp-dev"])]
        ),
        // The Swift runtime's global-executor hook, settable from Swift (see hooks.h).
        .systemLibrary(name: "CSwiftRuntimeHooks"),
        // Small building blocks with no dependencies, used on both sides of the wire: the expiring
        // cache, the seeded RNG, the first-outcome race, the FTS5 query builder and the bounded
        // regular expressions of `expect … matches`.
        .target(
            name: "BooksTrackSupport",
            swiftSettings: strict
        ),
        // Wire types shared by client and server: envelopes, DTOs, error codes, ISBN, the API's facts,
        // and the one JSON writer (string literals and values).
        .target(
            name: "BooksTrackContract",
            swiftSettings: strict
        ),
        // The async API core: actor BooksTrackAPI, transport, retries, ledger, SSE, job watcher, disk cache.
        .target(
            name: "BooksTrackClient",
            dependencies: [
                "BooksTrackSupport",
                "BooksTrackContract",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOFoundationCompat", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOWebSocket", package: "swift-nio"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "HummingbirdWSClient", package: "hummingbird-websocket"),
                // The on-disk response cache (ResponseDiskCache).
                .product(name: "GRDB", package: "GRDB.swift"),
            ],
            swiftSettings: strict
        ),
        // The bundled goodbooks-10k catalog in SQLite (GRDB, FTS5) with its vector indexes; semantic search on the sentence model.
        .target(
            name: "BooksTrackCatalog",
            dependencies: [
                "BooksTrackSupport",
                "BooksTrackContract",
                "BooksTrackEmbedding",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "CSV", package: "CSV.swift"),
            ],
            resources: [.copy("Resources")],
            swiftSettings: strict
        ),
        // The offline bookshelf scan: photos (JPEG, PNG, WebP) decoded to gray, ISBN barcodes read by ZBar.
        .target(
            name: "BooksTrackScanning",
            dependencies: ["BooksTrackContract", "CBarcode"],
            swiftSettings: strict
        ),
        // all-MiniLM-L6-v2 in process: WordPiece tokenizer, safetensors weights, BERT forward pass over
        // OpenBLAS, which it loads with dlopen at first use (no link-time dependency).
        .target(
            name: "BooksTrackEmbedding",
            swiftSettings: strict
        ),
        // The user's own library: SQLite (GRDB, WAL, FTS5), merge/de-dup, Goodreads/StoryGraph import, export, stats.
        .target(
            name: "BooksTrackLibrary",
            dependencies: [
                "BooksTrackSupport",
                "BooksTrackContract",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "CSV", package: "CSV.swift"),
            ],
            swiftSettings: strict
        ),
        // Library figures (full-text search on a 10,000-book library) and a writer for the two-process
        // test: a benchmark, kept out of Sources/ (scripts/bench-library builds it by product name).
        .executableTarget(
            name: "bts-library-bench",
            dependencies: ["BooksTrackLibrary", "BooksTrackCatalog"],
            path: "Benchmarks/bts-library-bench",
            swiftSettings: strict
        ),
        // The local BooksTrack-compatible server (Hummingbird 2): routes, limits, faults, jobs.
        .target(
            name: "BooksTrackServer",
            dependencies: [
                "BooksTrackSupport",
                "BooksTrackContract",
                "BooksTrackCatalog",
                "BooksTrackScanning",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "HummingbirdWebSocket", package: "hummingbird-websocket"),
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "MultipartKit", package: "multipart-kit"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "CSV", package: "CSV.swift"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOWebSocket", package: "swift-nio"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
            ],
            swiftSettings: strict
        ),
        // Text for a terminal, at the bottom of the graph: display width and wrapping, the one
        // sanitiser of controls from outside, the one table of ANSI styles.
        .target(
            name: "BTSTerminalText",
            swiftSettings: strict
        ),
        // The command language: lexer, parser, AST, diagnostics with source locations.
        .target(
            name: "BTSLanguage",
            dependencies: ["BTSTerminalText"],
            swiftSettings: strict
        ),
        // The terminal: line editor (libedit through CEditLine), history, prompt rendering, terminal facts.
        .target(
            name: "BTSTerminal",
            dependencies: ["BTSTerminalText", "CEditLine"],
            swiftSettings: strict
        ),
        // Command types and registry, interpreter, renderers, completion engine, REPL. Does not link
        // the server: the executable injects how to start the embedded backend.
        .target(
            name: "BTSShell",
            dependencies: [
                "BTSLanguage",
                "BTSTerminal",
                "BTSTerminalText",
                "BooksTrackSupport",
                "BooksTrackClient",
                "BooksTrackContract",
                "BooksTrackLibrary",
                "BooksTrackCatalog",
                .product(name: "TOMLKit", package: "TOMLKit"),
            ],
            swiftSettings: strict
        ),
        // `bts test`: the runner (each file in a task and a session of its own, stopped on a time
        // limit or a signal), what a file wrote, and the summary and the JUnit, TAP and JSON reports.
        .target(
            name: "BTSScriptTesting",
            dependencies: ["BTSShell", "BTSTerminalText", "BooksTrackContract", "BooksTrackSupport"],
            swiftSettings: strict
        ),
        // Editors: the language server (`bts lsp`: JSON-RPC over stdio, answered from the shell's
        // registry, check, completion, help and the formatter) and the syntax files' generator.
        .target(
            name: "BTSLanguageServer",
            dependencies: ["BTSShell", "BTSLanguage", "BTSTerminal", "BooksTrackContract"],
            swiftSettings: strict
        ),
        // The embedded backend the executable injects into the shell: the local server in-process.
        .target(
            name: "BTSEmbeddedBackend",
            dependencies: [
                "BTSShell",
                "BooksTrackClient",
                "BooksTrackContract",
                "BooksTrackServer",
                "BooksTrackCatalog",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ],
            swiftSettings: strict
        ),
        // The thin executable.
        .executableTarget(
            name: "bts",
            dependencies: [
                "BooksTrackSupport",
                "BTSShell",
                "BTSScriptTesting",
                "BTSLanguage",
                "BTSLanguageServer",
                "BTSTerminal",
                "BTSEmbeddedBackend",
                "BooksTrackServer",
                "BooksTrackCatalog",
                "BooksTrackEmbedding",
                "BooksTrackClient",
                "BooksTrackContract",
                "CSwiftRuntimeHooks",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ],
            swiftSettings: strict
        ),

        // Helpers every test target may use (Foundation, Swift Testing and the catalog only): temp
        // directories, the shared catalog, the off-the-pool runner and work threads, scaled safety
        // deadlines, polling, a manual clock, a closed port, the tmux driver and the recorded
        // contract fixtures. A regular target under Tests/ that only test targets depend on.
        .target(
            name: "TestSupport",
            dependencies: ["BooksTrackCatalog"],
            path: "Tests/TestSupport",
            swiftSettings: testing
        ),
        // Live servers on port 0 for tests: the real local server (plus an API client) and tiny
        // Hummingbird servers for what the real one cannot produce.
        .target(
            name: "ServerTestSupport",
            dependencies: [
                "TestSupport",
                "BooksTrackServer",
                "BooksTrackClient",
                "BooksTrackCatalog",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            path: "Tests/ServerTestSupport",
            swiftSettings: testing
        ),

        .testTarget(
            name: "BooksTrackSupportTests",
            dependencies: ["BooksTrackSupport"],
            swiftSettings: testing
        ),
        .testTarget(
            name: "BooksTrackContractTests",
            dependencies: ["BooksTrackSupport", "TestSupport", "BooksTrackContract"],
            resources: [.copy("Fixtures")],
            swiftSettings: testing
        ),
        .testTarget(
            name: "BooksTrackCatalogTests",
            dependencies: [
                "BooksTrackSupport", "BooksTrackCatalog", "BooksTrackContract", "TestSupport",
                .product(name: "GRDB", package: "GRDB.swift"),
            ],
            resources: [.copy("Fixtures")],
            swiftSettings: testing
        ),
        .testTarget(
            name: "BooksTrackEmbeddingTests",
            dependencies: ["TestSupport", "BooksTrackEmbedding"],
            resources: [.copy("Fixtures")],
            swiftSettings: testing
        ),
        .testTarget(
            name: "BooksTrackClientTests",
            dependencies: [
                "BooksTrackSupport",
                "TestSupport",
                "ServerTestSupport",
                "BooksTrackClient",
                "BooksTrackContract",
                "BooksTrackServer",
                "BooksTrackCatalog",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "HummingbirdWebSocket", package: "hummingbird-websocket"),
                .product(name: "NIOFoundationCompat", package: "swift-nio"),
                .product(name: "NIOEmbedded", package: "swift-nio"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
            ],
            swiftSettings: testing
        ),
        .testTarget(
            name: "BooksTrackLibraryTests",
            dependencies: [
                "BooksTrackSupport", "BooksTrackLibrary", "BooksTrackContract", "TestSupport",
                .product(name: "GRDB", package: "GRDB.swift"),
            ],
            resources: [.copy("Fixtures")],
            swiftSettings: testing
        ),
        .testTarget(
            name: "BooksTrackServerTests",
            dependencies: [
                "BooksTrackSupport",
                "TestSupport",
                "ServerTestSupport",
                "BooksTrackServer",
                "BooksTrackContract",
                "BooksTrackCatalog",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdWebSocket", package: "hummingbird-websocket"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "HummingbirdWSClient", package: "hummingbird-websocket"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOWebSocket", package: "swift-nio"),
                .product(name: "NIOFoundationCompat", package: "swift-nio"),
            ],
            swiftSettings: testing
        ),
        .testTarget(
            name: "BooksTrackScanningTests",
            dependencies: ["TestSupport", "BooksTrackScanning", "BooksTrackContract"],
            swiftSettings: testing
        ),
        .testTarget(
            name: "BTSTerminalTextTests",
            dependencies: ["TestSupport", "BTSTerminalText"],
            swiftSettings: testing
        ),
        .testTarget(
            name: "BTSLanguageTests",
            dependencies: ["BooksTrackSupport", "TestSupport", "BTSLanguage"],
            swiftSettings: testing
        ),
        .testTarget(
            name: "BTSTerminalTests",
            dependencies: ["BooksTrackSupport", "BTSTerminal", "BTSLanguage", "TestSupport"],
            swiftSettings: testing
        ),
        // The real `bts` executable end to end: scripts and one-shots as child processes, the REPL
        // under tmux, the install scripts.
        .testTarget(
            name: "BTSEndToEndTests",
            dependencies: [
                "BTSShell", "BTSLanguage", "BTSTerminal", "BTSTerminalText", "BooksTrackClient", "BooksTrackContract",
                "BooksTrackEmbedding", "BooksTrackServer", "TestSupport", "ServerTestSupport",
                .product(name: "Hummingbird", package: "hummingbird"),
            ],
            swiftSettings: testing
        ),
        .testTarget(
            name: "BTSShellTests",
            dependencies: [
                "BooksTrackSupport", "BTSShell", "BTSTerminal", "BTSTerminalText", "BTSEmbeddedBackend", "BTSLanguage",
                "BooksTrackServer", "BooksTrackCatalog",
                "BooksTrackEmbedding", "BooksTrackClient", "BooksTrackContract", "BooksTrackLibrary", "TestSupport",
                "ServerTestSupport",
                .product(name: "Hummingbird", package: "hummingbird"),
            ],
            swiftSettings: testing
        ),
        .testTarget(
            name: "BTSScriptTestingTests",
            dependencies: ["BTSScriptTesting", "BTSShell", "BTSTerminal", "TestSupport"],
            swiftSettings: testing
        ),
        .testTarget(
            name: "BTSLanguageServerTests",
            dependencies: ["BTSLanguageServer", "BTSShell", "BTSLanguage", "BooksTrackContract", "TestSupport"],
            swiftSettings: testing
        ),
    ]
)
