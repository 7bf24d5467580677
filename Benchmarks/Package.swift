// swift-tools-version:6.1
import PackageDescription

// Benchmarks live in their own package so their dependencies never enter the app (DESIGN §1).
let package = Package(
    name: "CloudNotesBenchmarks",
    platforms: [.macOS(.v14)],
    dependencies: [.package(path: "..")],
    targets: [
        .executableTarget(
            name: "cloudnotes-bench",
            dependencies: [
                .product(name: "NotesCore", package: "CloudNotes"),
                .product(name: "NotesStore", package: "CloudNotes"),
            ]
        )
    ],
    swiftLanguageModes: [.v6]
)
