import Foundation
import NotesCore

/// Side by side: `aws s3 sync` (awscli from the same venv, at the loopback endpoint) of the
/// same notes as Markdown files (`BenchCorpus.markdown`): the initial upload and the upload of
/// one changed note, beside what cloudnotes did for each.
extension S3Benchmark {
    func awsSideBySide() throws {
        let awscli = BenchVenv.path + "/lib/python3.11/site-packages/awscli"
        if !FileManager.default.fileExists(atPath: awscli) {
            try BenchVenv.check(
                Machine.run(BenchVenv.python, ["-m", "pip", "install", "-q", "awscli"]), "pip install awscli")
        }
        let markdown = try BenchCorpus.markdown(count: count, work: work)
        let files = (FileManager.default.enumerator(atPath: markdown)?.allObjects as? [String] ?? [])
            .filter { $0.hasSuffix(".md") }.sorted()
        let configFile = directory + "/aws-config"
        try Data("[default]\nregion = us-east-1\ns3 =\n    addressing_style = path\n".utf8).write(
            to: URL(fileURLWithPath: configFile))
        var environment = server.awsEnvironment
        environment["AWS_CONFIG_FILE"] = configFile
        environment["AWS_SHARED_CREDENTIALS_FILE"] = directory + "/no-credentials"
        environment["HOME"] = directory
        let target = "s3://\(server.bucket)/aws-\(UUID().uuidString.lowercased())/"
        func sync() throws -> (ms: Double, uploaded: Int) {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: BenchVenv.python)
            process.arguments = [
                "-m", "awscli", "s3", "sync", markdown, target, "--endpoint-url", server.url, "--no-progress",
            ]
            process.environment = environment
            let pipe = Pipe()
            process.standardOutput = pipe
            process.standardError = FileHandle.standardError
            let start = Stats.now()
            try process.run()
            let output = pipe.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            let ms = Stats.ms(start, Stats.now())
            try BenchVenv.check(process.terminationStatus, "aws s3 sync")
            return (
                ms,
                String(decoding: output, as: UTF8.self).split(separator: "\n").filter { $0.hasPrefix("upload:") }.count
            )
        }
        let initial = try sync()
        var changed: [Double] = []
        var uploaded: [Int] = []
        for n in 0..<5 {
            let file = URL(fileURLWithPath: markdown + "/" + files[n * 7 % files.count])
            let handle = try FileHandle(forWritingTo: file)
            try handle.seekToEnd()
            try handle.write(contentsOf: Data("one more line \(n)\n".utf8))
            try handle.close()
            let one = try sync()
            changed.append(one.ms)
            uploaded.append(one.uploaded)
        }
        print(
            "aws s3 sync (awscli \(Self.awsVersion()), \(files.count) Markdown files of the corpus): initial upload "
                + "\(Stats.f(initial.ms / 1000, 2)) s (\(initial.uploaded) files uploaded); one changed note: median "
                + "\(Stats.f(Stats.median(changed), 0)) ms of 5 (uploads \(uploaded)), which lists every key under the prefix "
                + "(⌈\(files.count)/1000⌉ = \((files.count + 999) / 1000) LIST pages) before its one PUT")
    }

    static func awsVersion() -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: BenchVenv.python)
        process.arguments = ["-m", "awscli", "--version"]
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        guard (try? process.run()) != nil else { return "?" }
        let text = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return text.split(separator: " ").first.map { String($0.dropFirst("aws-cli/".count)) } ?? "?"
    }
}
