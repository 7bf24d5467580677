import CloudFolder
import Crypto
import Foundation
import Glibc
import NotesCore
import NotesStore

/// Opening a cloud folder, plain or encrypted (SYNC-FORMAT rule 14): the key an encrypted
/// container needs comes from the data directory (`folder-key.json`, 0600, written once the
/// folder was unlocked unless `"rememberKey": false`), else from the passphrase:
/// `$CLOUDNOTES_PASSPHRASE`, else the config's `passphraseCommand`, else a prompt without echo
/// on the terminal.
enum FolderAccess {
    static let keyFileName = "folder-key.json"

    /// The folder at `root` for this data directory: sealed when its container is encrypted.
    /// A folder that cannot be read yet (unmounted) opens plain or with the remembered key; the
    /// engine then reports it unavailable, and never writes plain files into an encrypted
    /// container (`openContainer` refuses a plain view of one).
    /// `asking: false` (`status`) never asks: without a key the engine reports the folder as
    /// needing its passphrase.
    /// `unlocked`: the key the app's passphrase dialog derived (not remembered).
    static func open(
        _ location: CloudLocation, _ context: Context, _ store: NoteStore, asking: Bool = true,
        unlocked: FolderSeal? = nil
    ) throws -> DirectoryCloudFolder {
        if let seal = unlocked { return try current(location.folder(seal: seal), at: location, context, store, asking) }
        if let seal = try remembered(store, context) {
            return try current(checked(location.folder(seal: seal), store), at: location, context, store, asking)
        }
        let plain = location.folder()
        // Unreadable here: the plain folder is returned and the engine reports the error itself.
        guard asking, let info = try? plain.readContainer(boundTo: nil), info.encrypted else { return plain }
        return location.folder(seal: try unlock(plain, info, context, store))
    }

    /// `folder`, or when the folder's key was changed on another device since its seal was made
    /// (`sync passphrase --new-key`), the folder with every key, from the passphrase (asked for as
    /// at any unlock, and remembered). Not asking (`status`), the folder as it is: the engine's
    /// reads say the key changed.
    static func current(
        _ folder: DirectoryCloudFolder, at location: CloudLocation, _ context: Context, _ store: NoteStore,
        _ asking: Bool
    ) throws -> DirectoryCloudFolder {
        guard asking, let seal = folder.seal, let inForce = keyChanged(folder),
            // Unreadable now: the folder as it is; the engine reports the error itself.
            let info = try? location.folder().readContainer(boundTo: nil), info.encrypted
        else { return folder }
        do {
            return location.folder(
                seal: try unlock(location.folder(), info, context, store, prompt: "New passphrase of the folder: "))
        } catch let error as CLIError {
            throw CLIError(
                "the key of the encrypted cloud folder was changed on another device (key \(inForce); this device "
                    + "holds \(seal.keyNumber)); nothing more is written with the old one: \(error.message)")
        }
    }

    /// The encrypted container at `location` when opening it would need a passphrase typed by
    /// the user (no remembered key, no `$CLOUDNOTES_PASSPHRASE`, no `passphraseCommand`): the
    /// app then asks in its dialog instead of on the terminal before its screen.
    static func lockedContainer(_ location: CloudLocation, _ context: Context, _ store: NoteStore) -> ContainerInfo? {
        let remembered: FolderSeal?
        do {
            remembered = try self.remembered(store, context)
        } catch {
            return nil  // a damaged key file: the engine start says so
        }
        guard context.environment["CLOUDNOTES_PASSPHRASE"] == nil, context.config.passphraseCommand == nil,
            // Unreadable: not known to be locked; the engine start reports the error itself.
            let info = try? location.folder().readContainer(boundTo: nil), info.encrypted
        else { return nil }
        // A remembered key is locked out only when the key was changed on another device.
        if let remembered, keyChanged(location.folder(seal: remembered)) == nil { return nil }
        return info
    }

    /// The number of keys the folder's keys files say are in force when it is more than
    /// `folder`'s seal holds (`sync passphrase --new-key` on another device), else nil. A folder
    /// that cannot be read says nothing here: the engine reports it.
    static func keyChanged(_ folder: DirectoryCloudFolder) -> Int? {
        // Unreadable now: not known to have changed; the engine's reads find out.
        guard let seal = folder.seal, let inForce = try? folder.keyCountInForce(), inForce > seal.keyNumber else {
            return nil
        }
        return inForce
    }

    /// Unlocks an encrypted container with the passphrase (`passphrase`, else asked as
    /// `Passphrase.obtain` does), remembering the key when the config says so.
    static func unlock(
        _ folder: DirectoryCloudFolder, _ info: ContainerInfo, _ context: Context, _ store: NoteStore,
        passphrase given: String? = nil, prompt: String = "Passphrase for the encrypted cloud folder: "
    ) throws -> FolderSeal {
        let passphrase = try given ?? Passphrase.obtain(context, prompt: prompt)
        let keyring: Keyring
        do {
            keyring = try folder.unlockKeyring(passphrase: passphrase, containerID: info.containerID)
        } catch let error as CloudError {
            throw CLIError(error.message)
        }
        if context.config.rememberKey { try remember(keyring, containerID: info.containerID, store) }
        return FolderSeal(keyring: keyring, containerID: info.containerID)
    }

    // MARK: The remembered key

    static func keyFile(_ store: NoteStore) -> URL { store.directory.appendingPathComponent(keyFileName) }

    /// The remembered key, or nil when there is none.
    static func remembered(_ store: NoteStore) throws -> FolderSeal? {
        try rememberedKey(store).map { FolderSeal(keyring: $0.keyring, containerID: $0.containerID) }
    }

    /// The remembered key when the config lets this data directory remember one. With
    /// `"rememberKey": false` a key file left from before is removed (with a warning), never
    /// used: the passphrase is asked for instead.
    static func remembered(_ store: NoteStore, _ context: Context) throws -> FolderSeal? {
        guard !context.config.rememberKey else { return try remembered(store) }
        if FileManager.default.fileExists(atPath: keyFile(store).path) {
            forget(store)
            Output.warn(
                "\(keyFile(store).path) was removed: the config says \"rememberKey\": false, so the key of the "
                    + "encrypted cloud folder is not kept on this device")
        }
        return nil
    }

    /// `folder` when the remembered key opens what is sealed in it (`checkSeal`); a key that
    /// does not (damaged on disk, or another container's) is refused before anything is written.
    static func checked(_ folder: DirectoryCloudFolder, _ store: NoteStore) throws -> DirectoryCloudFolder {
        do {
            try folder.checkSeal()
        } catch let error as CloudError where error.code == .notAuthenticated {
            throw CLIError(
                "the key remembered in \(keyFile(store).path) does not open the encrypted cloud folder (damaged, or "
                    + "another folder's); nothing was written: remove that file and run `cloudnotes sync` to be asked "
                    + "the passphrase")
        } catch {
            // Not a verdict on the key (the folder cannot be listed now): the engine reports the
            // folder unavailable, and the key is checked again on the next start.
        }
        return folder
    }

    /// The remembered data keys and their container, or nil when there is none. The file holds
    /// `{"containerID", "key": hex}`, or `"keys": [hex, …]` (oldest first) once the folder has had
    /// more than one key (`sync passphrase --new-key`).
    static func rememberedKey(_ store: NoteStore) throws -> (keyring: Keyring, containerID: String)? {
        let url = keyFile(store)
        guard let data = FileManager.default.contents(atPath: url.path) else { return nil }
        // A damaged key file is no remembered key: the passphrase is asked for (nothing is written with it).
        guard data.count < 16_384, let json = try? JSONValue(parsing: data),
            let containerID = json["containerID"]?.stringValue,
            case let hexes = json["keys"]?.arrayValue ?? [json["key"]].compactMap({ $0 }),
            case let keys = hexes.compactMap({ $0.stringValue.flatMap(FolderSeal.unhex) }).filter({ $0.count == 32 }),
            keys.count == hexes.count, let keyring = Keyring(keys.map { SymmetricKey(data: $0) })
        else {
            throw CLIError(
                "\(url.path) is damaged; remove it and run `cloudnotes sync` to be asked the passphrase again")
        }
        return (keyring, containerID)
    }

    /// Writes the key file, readable by the owner only, atomically.
    static func remember(_ dataKey: SymmetricKey, containerID: String, _ store: NoteStore) throws {
        try remember(Keyring(dataKey), containerID: containerID, store)
    }

    /// Writes the key file for every key of the ring, readable by the owner only, atomically.
    static func remember(_ keyring: Keyring, containerID: String, _ store: NoteStore) throws {
        let hexes = keyring.keys.map { JSONValue.string(FolderSeal.hex($0.withUnsafeBytes { Array($0) })) }
        let json: JSONValue = .object(
            hexes.count == 1
                ? ["containerID": .string(containerID), "key": hexes[0]]
                : ["containerID": .string(containerID), "keys": .array(hexes)])
        try PrivateFile.write(json.canonicalBytes + [0x0A], to: keyFile(store))
    }

    static func forget(_ store: NoteStore) { unlink(keyFile(store).path) }
}

/// Where a passphrase comes from: the environment, a command, or the terminal.
enum Passphrase {
    /// The passphrase: `$CLOUDNOTES_PASSPHRASE`, else `passphraseCommand`'s first line, else a
    /// prompt on the terminal (`confirm`: asked twice, for a new one).
    static func obtain(
        _ context: Context, prompt: String, variable: String = "CLOUDNOTES_PASSPHRASE", confirm: Bool = false,
        useCommand: Bool = true
    ) throws -> String {
        if let value = context.environment[variable] {
            guard !value.isEmpty else { throw CLIError("$\(variable) is empty") }
            return value
        }
        if useCommand, let command = context.config.passphraseCommand { return try run(command) }
        guard let first = try ask(prompt) else {
            throw CLIError(
                "this encrypted cloud folder needs its passphrase: set $\(variable) or passphraseCommand in the config, "
                    + "or run this in a terminal")
        }
        guard !first.isEmpty else { throw CLIError("an empty passphrase is not accepted") }
        if confirm {
            guard try ask("Again: ") == first else { throw CLIError("the two passphrases differ; nothing was changed") }
        }
        return first
    }

    /// Runs the configured command and takes its first line.
    static func run(_ command: String) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", command]
        let out = Pipe()
        process.standardOutput = out
        do {
            try process.run()
        } catch {
            throw CLIError("passphraseCommand could not start: \(error.localizedDescription)")
        }
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw CLIError("passphraseCommand failed (exit \(process.terminationStatus)): \(command)")
        }
        let line = String(decoding: data, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false).first
        guard let line, !line.isEmpty else { throw CLIError("passphraseCommand printed no passphrase: \(command)") }
        return String(line)
    }

    /// Reads a line from the terminal with echo off; nil when there is no terminal.
    static func ask(_ prompt: String) throws -> String? {
        let tty = Glibc.open("/dev/tty", O_RDWR | O_CLOEXEC)
        guard tty >= 0 else { return nil }
        defer { Glibc.close(tty) }
        var saved = termios()
        guard tcgetattr(tty, &saved) == 0 else { return nil }
        var quiet = saved
        quiet.c_lflag &= ~tcflag_t(ECHO)
        _ = prompt.withCString { Glibc.write(tty, $0, strlen($0)) }
        tcsetattr(tty, TCSAFLUSH, &quiet)
        defer {
            tcsetattr(tty, TCSAFLUSH, &saved)
            _ = Glibc.write(tty, "\n", 1)
        }
        var line: [UInt8] = []
        var byte: UInt8 = 0
        while Glibc.read(tty, &byte, 1) == 1, byte != 0x0A, byte != 0x0D {
            line.append(byte)
            if line.count > 4096 { throw CLIError("the passphrase is too long") }
        }
        return String(decoding: line, as: UTF8.self)
    }
}
