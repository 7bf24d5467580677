// swift-tools-version:6.1
import PackageDescription

let package = Package(
    name: "CloudNotes",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "cloudnotes", targets: ["cloudnotes"]),
        .library(name: "NotesCore", targets: ["NotesCore"]),
        .library(name: "NotesStore", targets: ["NotesStore"]),
        .library(name: "NotesSync", targets: ["NotesSync"]),
        .library(name: "CloudFolder", targets: ["CloudFolder"]),
        .library(name: "TerminalUI", targets: ["TerminalUI"]),
        .library(name: "NotesApp", targets: ["NotesApp"]),
    ],
    dependencies: [
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-crypto", from: "4.5.2"),
        .package(url: "https://github.com/jpsim/Yams", from: "6.2.2"),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/JohnSundell/Ink", from: "0.6.0"),
    ],
    targets: [
        .target(
            name: "NotesCore",
            dependencies: [.product(name: "Crypto", package: "swift-crypto"), .product(name: "Yams", package: "Yams")]
        ),
        .target(
            name: "NotesStore",
            dependencies: [
                "NotesCore",
                .product(name: "GRDB", package: "GRDB.swift"),
                // SQLite's C API, for rows a search reads in place (`CurrentRow`).
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .target(name: "TerminalUI"),
        .target(name: "NotesApp", dependencies: ["NotesCore", "TerminalUI"]),
        // In-memory twins and helpers for tests (ARCHITECTURE §7); linked by test targets and the
        // benchmarks only.
        .target(name: "NotesTestSupport"),
        .target(
            name: "CloudFolder",
            dependencies: [
                "NotesCore", .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "CryptoExtras", package: "swift-crypto"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ]
        ),
        .target(
            name: "NotesSync",
            dependencies: ["NotesCore", "CloudFolder", .product(name: "Logging", package: "swift-log")]
        ),
        // `publish`'s site as values: notes to HTML pages (Ink), search index, manifest; no I/O.
        .target(
            name: "NotesPublish",
            dependencies: [
                "NotesCore", .product(name: "Ink", package: "Ink"),
            ]),
        // The live notes folder (`files`): notes as Markdown files, kept in step both ways.
        .target(
            name: "NotesFiles",
            dependencies: ["NotesCore", "NotesStore", .product(name: "Crypto", package: "swift-crypto")]
        ),
        .systemLibrary(name: "CNCurses", pkgConfig: "ncursesw", providers: [.apt(["libncursesw5-dev"])]),
        .target(name: "TerminalNcurses", dependencies: ["CNCurses", "TerminalUI"]),
        .target(
            name: "NotesRuntime",
            dependencies: ["NotesCore", "NotesStore", "NotesApp", "TerminalUI", "TerminalNcurses"]
        ),
        .executableTarget(
            name: "cloudnotes",
            dependencies: [
                "NotesCore",
                "NotesStore",
                "TerminalUI",
                "NotesRuntime",
                "NotesApp",
                "NotesSync",
                "CloudFolder",
                "NotesPublish",
                "NotesFiles",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),
        // The benchmarks (Benchmarks/README.md): a target of this package, so CI's one build
        // compiles them and keeps them from rotting; the app never links it.
        .executableTarget(
            name: "cloudnotes-bench",
            dependencies: [
                "NotesCore", "NotesStore", "NotesSync", "CloudFolder", "TerminalUI", "NotesApp", "NotesTestSupport",
                // Publish's Markdown parser, timed beside the preview's (PreviewBenchmark).
                .product(name: "Ink", package: "Ink"),
            ],
            path: "Benchmarks/Sources/cloudnotes-bench"
        ),
        .testTarget(
            name: "NotesCoreTests",
            dependencies: ["NotesCore", "NotesTestSupport", .product(name: "Yams", package: "Yams")]),
        .testTarget(
            name: "NotesStoreTests",
            dependencies: [
                "NotesCore", "NotesStore", "NotesTestSupport", .product(name: "GRDB", package: "GRDB.swift"),
            ],
            // Databases written by earlier builds, read by path (SchemaFixtureTests).
            exclude: ["Fixtures"]
        ),
        .testTarget(name: "CLITests", dependencies: ["cloudnotes", "NotesCore", "CloudFolder", "NotesTestSupport"]),
        .testTarget(
            name: "CloudFolderTests",
            dependencies: [
                "CloudFolder", "NotesCore", "NotesTestSupport", .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "CryptoExtras", package: "swift-crypto"),
            ]
        ),
        .testTarget(
            name: "NotesSyncTests",
            dependencies: [
                "NotesSync", "NotesStore", "CloudFolder", "NotesCore", "NotesTestSupport",
                .product(name: "Logging", package: "swift-log"), .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),
        .testTarget(
            name: "NotesRuntimeTests",
            dependencies: [
                "NotesRuntime", "NotesApp", "NotesStore", "NotesCore", "NotesSync", "NotesFiles", "TerminalUI",
                "NotesTestSupport",
            ]
        ),
        .testTarget(name: "TerminalNcursesTests", dependencies: ["TerminalNcurses", "TerminalUI", "NotesTestSupport"]),
        .testTarget(name: "TUIEndToEndTests", dependencies: ["cloudnotes", "NotesTestSupport"]),
        .testTarget(name: "TerminalUITests", dependencies: ["TerminalUI", "NotesTestSupport"]),
        .testTarget(
            name: "NotesFilesTests",
            dependencies: ["NotesFiles", "NotesStore", "NotesSync", "NotesCore", "NotesTestSupport"]
        ),
        .testTarget(name: "NotesPublishTests", dependencies: ["NotesPublish", "NotesCore", "NotesApp"]),
        .testTarget(name: "NotesAppTests", dependencies: ["NotesApp", "NotesCore", "TerminalUI", "NotesTestSupport"]),
    ],
    swiftLanguageModes: [.v6]
)
