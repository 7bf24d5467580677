// swift-tools-version:6.1
import Foundation
import PackageDescription

// A path dependency is known by its folder's name, which differs between clones.
let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().lastPathComponent

// Benchmarks live in their own package so their dependencies never enter the app (ARCHITECTURE §1).
let package = Package(
    name: "CloudNotesBenchmarks",
    platforms: [.macOS(.v14)],
    dependencies: [.package(path: "..")],
    targets: [
        .executableTarget(
            name: "cloudnotes-bench",
            dependencies: [
                .product(name: "NotesCore", package: root),
                .product(name: "NotesStore", package: root),
                .product(name: "NotesSync", package: root),
                .product(name: "CloudFolder", package: root),
                .product(name: "TerminalUI", package: root),
                .product(name: "NotesApp", package: root),
                .product(name: "NotesTestSupport", package: root),
            ]
        )
    ],
    swiftLanguageModes: [.v6]
)
