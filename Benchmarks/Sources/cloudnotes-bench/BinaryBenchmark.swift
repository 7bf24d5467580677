import Foundation

/// A benchmark of the built `cloudnotes` binary, run as a user runs it (ExportBenchmark.swift and
/// its neighbours): `count` notes of the corpus under `work`, each figure the median of `runs`.
protocol BinaryBenchmark {
    init(count: Int, work: String, cloudnotes: String, runs: Int)
    var count: Int { get }
    var work: String { get }
    func run() throws
}

extension BinaryBenchmark {
    /// `work/NAME-count`, emptied: where one run of the benchmark keeps its stores and folders.
    func freshFolder(_ name: String) throws -> String {
        let base = "\(work)/\(name)-\(count)"
        // Nothing there yet is as good as removed.
        try? FileManager.default.removeItem(atPath: base)
        try FileManager.default.createDirectory(atPath: base, withIntermediateDirectories: true)
        return base
    }
}

extension ExportBenchmark: BinaryBenchmark {}
extension ImportBenchmark: BinaryBenchmark {}
extension PublishBenchmark: BinaryBenchmark {}
extension FolderBenchmark: BinaryBenchmark {}
extension ShareBenchmark: BinaryBenchmark {}

/// The binary benchmark of a `--phase`: its flag, and its type; nil for another phase.
func binaryBenchmark(_ phase: String) -> (flag: String, type: any BinaryBenchmark.Type)? {
    switch phase {
    case "export": ("--export", ExportBenchmark.self)
    case "import-cli": ("--import", ImportBenchmark.self)
    case "publish": ("--publish", PublishBenchmark.self)
    case "folder": ("--folder", FolderBenchmark.self)
    case "share": ("--share", ShareBenchmark.self)
    default: nil
    }
}
