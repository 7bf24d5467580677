/// A benchmark of the built `cloudnotes` binary, run as a user runs it (ExportBenchmark.swift and
/// its neighbours): `count` notes of the corpus under `work`, each figure the median of `runs`.
protocol BinaryBenchmark {
    init(count: Int, work: String, cloudnotes: String, runs: Int)
    func run() throws
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
