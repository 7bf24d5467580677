import Foundation
import NotesTestSupport
import Testing

/// `cloudnotes sync encrypt`: a plain cloud folder encrypted in place while three devices keep
/// working (SYNC-FORMAT "Encrypting in place").
@Suite("sync encrypt: a plain folder encrypted in place")
struct SyncEncryptCLITests {
    static let markers = ["quokka", "zanzibar", "wombat", "koala", "numbat"]

    @Test(
        "one device encrypts, the others follow with the passphrase, edits on both sides survive, a wrong passphrase writes nothing, the plain files go last"
    )
    func threeDevicesMove() throws {
        let runner = try CLIRunner()
        defer { runner.cleanUp() }
        let (cloud, a, b) = try runner.devicesSharingACloudFolder()
        let c = runner.device("c")
        let good = CLIRunner.passphraseEnvironment(CLIRunner.passphrase)
        func cn(_ device: URL, _ environment: [String: String], _ arguments: String...) throws -> CLIRunner.Result {
            try runner.run(arguments + ["--data-dir", device.path], environment: environment)
        }
        #expect(try cn(c, [:], "sync", "init", cloud).status == 0)
        #expect(try cn(a, [:], "add", "Alpha", "--body", "quokka").status == 0)
        #expect(try cn(b, [:], "add", "Beta", "--body", "zanzibar").status == 0)
        #expect(try cn(b, [:], "notebook", "create", "Trips").status == 0)
        #expect(try cn(b, [:], "add", "Packing", "--body", "socks", "--notebook", "Trips").status == 0)
        #expect(try cn(b, [:], "notebook", "rename", "Trips", "Voyages").status == 0)
        for device in [a, b, c, a] { #expect(try cn(device, [:], "sync").status == 0) }
        #expect(try cn(a, [:], "notebooks").stdout.contains("Voyages  (trips)"))

        let encrypted = try cn(a, good, "sync", "encrypt")
        #expect(encrypted.status == 0, "\(encrypted.stderr)")
        #expect(encrypted.stdout.contains("encrypting the cloud folder \(cloud) in place"), "\(encrypted.stdout)")
        let root = URL(fileURLWithPath: cloud)
        let containerFile = root.appendingPathComponent("container.json").path
        #expect(FileManager.default.fileExists(atPath: containerFile), "plain files stay while b and c have not moved")
        #expect(FileManager.default.fileExists(atPath: root.appendingPathComponent("encrypted.json").path))

        // During the transition: b keeps syncing the plain files without a passphrase; a works
        // in the encrypted container.
        #expect(try cn(b, [:], "add", "During b", "--body", "wombat").status == 0)
        let plainSync = try cn(b, [:], "sync")
        #expect(plainSync.status == 0, "\(plainSync.stderr)")
        #expect(plainSync.stderr.contains("keeps syncing its plain files"), "\(plainSync.stderr)")
        #expect(try cn(a, [:], "add", "During a", "--body", "koala").status == 0)
        #expect(try cn(a, [:], "sync").status == 0)

        // A wrong passphrase: exit 1, the folder byte-identical, c still on the plain files.
        let before = EncryptionCLITests.files(cloud)
        let wrong = try cn(c, CLIRunner.passphraseEnvironment("not the passphrase"), "sync")
        #expect(wrong.status == 1, "\(wrong.stdout) \(wrong.stderr)")
        #expect(EncryptionCLITests.files(cloud) == before)
        #expect(try cn(c, [:], "status").stdout.contains(cloud + "/sealed") == false)

        // C follows with the passphrase (its offline edit travels with it); b has not moved, so
        // the plain files stay.
        #expect(try cn(c, [:], "add", "During c", "--body", "numbat").status == 0)
        let follows = try cn(c, good, "sync")
        #expect(follows.status == 0, "\(follows.stderr)")
        #expect(follows.stderr.contains("is encrypted now"), "\(follows.stderr)")
        #expect(FileManager.default.fileExists(atPath: containerFile))

        // B, the last active device, follows: the plain files go.
        let last = try cn(b, good, "sync")
        #expect(last.status == 0, "\(last.stderr)")
        #expect(last.stderr.contains("were removed"), "\(last.stderr)")
        // In place of the plain container.json, one in format 5: every older build refuses the
        // folder as newer; this one says where the notes went.
        let replaced = try String(contentsOfFile: containerFile, encoding: .utf8)
        #expect(replaced.contains("\"format\":5") && replaced.contains("encryptedIn"), "\(replaced)")
        let plainDevices = root.appendingPathComponent("private/devices").path
        #expect(((try? FileManager.default.contentsOfDirectory(atPath: plainDevices)) ?? []).isEmpty)
        let newcomer = try cn(runner.device("d"), [:], "sync", "init", cloud)
        #expect(newcomer.status == 1)
        #expect(newcomer.stderr.contains("encrypted in place"), "\(newcomer.stderr)")
        for device in [a, b, c, a, b, c] { #expect(try cn(device, [:], "sync").status == 0) }
        for device in [a, b, c] {
            let listed = try cn(device, [:], "list").stdout
            for title in ["Alpha", "Beta", "During a", "During b", "During c"] {
                #expect(listed.contains(title), "\(device.lastPathComponent) lacks \(title): \(listed)")
            }
        }
        #expect(try cn(b, [:], "show", "During b").stdout == "wombat")
        // Notebook names are published again into the encrypted container.
        let joined = try cn(runner.device("e"), good, "sync", "init", cloud + "/sealed")
        #expect(joined.status == 0, "\(joined.stderr)")
        let notebooks = try cn(runner.device("e"), [:], "notebooks").stdout
        #expect(notebooks.contains("Voyages  (trips)"), "\(notebooks)")
        // No file left in the folder holds a note's words.
        for (path, data) in EncryptionCLITests.files(cloud) {
            for word in Self.markers {
                #expect(!path.contains(word) && data.range(of: Data(word.utf8)) == nil, "\(path) holds \(word)")
            }
        }
    }
}
