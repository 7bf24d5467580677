import CloudFolder
import Foundation
import NotesCore
import NotesStore
import NotesSync
import NotesTestSupport
import Testing

/// The harness's actions: devices' edits and syncs, and the attacker's mutation classes.
extension HostileFolderHarness {
    enum Attack: CaseIterable {
        /// A real log file's bytes mutated (boundary numbers, truncation, splices) under a forged device id.
        case forgedBytes
        /// A real batch's body mutated and wrapped in an envelope that checks out, under a forged device id.
        case forgedEnvelope
        /// An identical copy beside a real file under a replicator's renamed-copy name.
        case duplicate
        /// A truncated or mutated copy beside a real file under a conflict-copy name.
        case damagedCopy
        /// Junk names in the log folder and in segment folders.
        case junk
        /// Other devices' files withheld during one device's sync (they arrive later).
        case reordered
        /// Other devices' files torn (a partial replica) during one device's sync.
        case torn
        /// Keys files with hostile parameters and forged encryption markers at the root
        /// (`HostileFolderHarness+Keys.swift`).
        case keysAndMarkers
        /// A `moved.json` at the root that does not check out (SYNC-FORMAT "Moving"): damaged,
        /// another container's, naming no valid place, or unsealed in an encrypted folder. No
        /// device may be redirected or stopped by it.
        case forwardPointer
        /// A chunk under `private/assets/` removed, damaged, cut short or grown past the chunk
        /// size (rule 15) during one device's sync; half the time the replicator then delivers
        /// the real bytes, else it stays so until the final round's `sync --repair`.
        case damagedChunk
    }

    func act(_ run: Run, iteration: Int) async throws {
        let index = run.random.below(deviceCount)
        run.devices[index].clock.advance(by: Int64(run.random.below(40)))
        switch run.random.below(10) {
        case 0, 1: try edit(run, index, iteration: iteration)
        case 2: await step(run, index, .sync)
        case 3: await step(run, index, [.send, .fetch].randomElement(using: &run.random)!)
        default: try await attack(run, Attack.allCases.randomElement(using: &run.random)!, syncing: index)
        }
    }

    /// A device writes a token into a new note or a line of an existing one.
    func edit(_ run: Run, _ index: Int, iteration: Int) throws {
        let store = run.devices[index].store
        let token = "s\(seed)-i\(iteration)-d\(index)"
        if run.notes.isEmpty || run.random.below(3) == 0 {
            run.notes.append(try store.create(title: "note \(token)", body: token + "\n").id)
        } else {
            let id = run.notes[run.random.below(run.notes.count)]
            guard try store.note(id) != nil else { return }  // not fetched here yet
            if run.random.below(4) == 0 {
                // An attachment as well, so the folder holds chunks to damage.
                _ = try AttachmentSyncTests.attach(
                    run.devices[index], id, name: token + ".bin", bytes: 1 + run.random.below(3000),
                    seed: UInt64(run.random.below(1 << 30)))
            }
            _ = try store.update(id) { note in
                var lines = note.body.split(separator: "\n").map(String.init)
                lines.insert(token, at: run.random.below(lines.count + 1))
                note.body = lines.map { $0 + "\n" }.joined()
            }
        }
        run.unpublished[index].append(token)
    }

    /// Real log files in the folder (those the attacker did not plant), as path → bytes.
    /// Ordered by the device that wrote them (device ids are random, so never by path) and seq, so
    /// a seed replays the same choices.
    func realLogFiles(_ run: Run) -> [(path: String, bytes: [UInt8])] {
        let log = run.folder.layout.logDirectory(Self.zone) + "/"
        func key(_ path: String) -> (Int, String) {
            let parts = path.split(separator: "/")
            return (run.writers[String(parts[parts.count - 3])] ?? Int.max, String(parts[parts.count - 1]))
        }
        let files = run.io.allPaths().compactMap { path -> (path: String, bytes: [UInt8])? in
            guard path.hasPrefix(log), !run.planted.contains(path),
                let name = path.split(separator: "/").last, CloudName.logFile(String(name)) != nil,
                let bytes = run.io.contents(path)
            else { return nil }
            return (path, bytes)
        }
        return files.sorted { key($0.path) < key($1.path) }
    }

    func forgedDevice(_ run: Run) -> DeviceID {
        let alphabet = Array("abcdefghijklmnopqrstuvwxyz234567")
        return DeviceID(String((0..<16).map { _ in alphabet[run.random.below(32)] }))!
    }

    /// Plants `bytes` at `path`; a log file or renamed copy that does not check out must be reported.
    func plant(_ run: Run, _ path: String, _ bytes: [UInt8], expectation: Envelope.Expectation?) {
        run.io.plantDirectory((path as NSString).deletingLastPathComponent)
        run.io.plantFile(path, bytes)
        run.planted.insert(path)
        run.outcome.planted += 1
        // A path planted again (the same copy name) is judged by its newest bytes.
        for index in run.unreported.indices { run.unreported[index].remove(path) }
        if let expectation, Self.isRefused(run, bytes, expectation) {
            for index in run.unreported.indices { run.unreported[index].insert(path) }
        }
    }

    /// Whether a reader refuses these bytes planted where `expectation` says: in an encrypted
    /// folder they must first open as the log file they claim to be (rule 14), then check out.
    static func isRefused(_ run: Run, _ bytes: [UInt8], _ expectation: Envelope.Expectation) -> Bool {
        var plain = bytes
        if let seal = run.folder.seal, let device = expectation.device.flatMap(DeviceID.init), let seq = expectation.seq
        {
            let path = run.folder.layout.logFile(zone, device: device, seq: seq)
            guard let opened = try? seal.open(bytes, name: String(path.dropFirst(run.folder.layout.root.count + 1)))
            else { return true }
            plain = opened
        }
        return Envelope.verify(plain, expecting: expectation).isRefused
    }

    func attack(_ run: Run, _ attack: Attack, syncing index: Int) async throws {
        let real = realLogFiles(run)
        guard let victim = real.randomElement(using: &run.random) else {
            return await step(run, index, .sync)
        }
        let layout = run.folder.layout
        let mutator = ByteMutator(corpus: real.map(\.bytes))
        switch attack {
        case .forwardPointer:
            let containerID = try run.folder.readContainer(boundTo: nil).containerID
            func pointer(_ id: String, _ place: String) -> [UInt8] {
                Envelope(
                    kind: .moved, device: forgedDevice(run).rawValue, hlc: HLC(millis: 1_700_000_000_000),
                    body: .object(["containerID": .string(id), "movedTo": .string(place)])
                ).encoded
            }
            var candidates: [[UInt8]] = [
                pointer(UUID().lowercasedString, "/elsewhere"),
                pointer(containerID, "relative/place"),
                pointer(containerID, "/a/../b"),
                Array(#"{"movedTo":"\/elsewhere","by":"attacker"}"#.utf8),
                ByteMutator(corpus: [pointer(containerID, "/elsewhere")]).mutate(
                    pointer(containerID, "/elsewhere"), using: &run.random),
            ]
            // Without the key an attacker can only write an unsealed pointer, which an encrypted
            // container refuses however well formed.
            if run.folder.seal != nil {
                candidates += [pointer(containerID, "/elsewhere"), Array(#"{"movedTo":"\/elsewhere"}"#.utf8)]
            }
            let bytes = candidates.randomElement(using: &run.random)!
            if case .valid = ForwardPointer.parse(bytes, containerID: containerID, plain: run.folder.seal == nil) {
                return await step(run, index, .sync)
            }
            plant(run, layout.root + "/" + DirectoryCloudFolder.movedFileName, bytes, expectation: nil)
            await step(run, index, .sync)
        case .forgedBytes, .forgedEnvelope:
            let forger = forgedDevice(run)
            var bytes = mutator.mutate(victim.bytes, using: &run.random)
            if attack == .forgedEnvelope,
                case .valid(let envelope) = Envelope.verify(
                    victim.bytes, expecting: .init(kind: .changes, zone: Self.zone.rawValue)),
                let body = try? JSONValue(
                    parsing: Data(mutator.mutate(envelope.body.canonicalBytes, using: &run.random)))
            {
                bytes =
                    Envelope(
                        kind: .changes, zone: Self.zone.rawValue, device: forger.rawValue, seq: 1, hlc: envelope.hlc,
                        body: body
                    ).encoded
            }
            plant(
                run, layout.logFile(Self.zone, device: forger, seq: 1), bytes,
                expectation: .init(kind: .changes, zone: Self.zone.rawValue, device: forger.rawValue, seq: 1))
        case .duplicate, .damagedCopy:
            let name = String(victim.path.split(separator: "/").last!.dropLast(5))
            let copy =
                (victim.path as NSString).deletingLastPathComponent + "/"
                + Self.conflictNames.randomElement(using: &run.random)!.replacingOccurrences(of: "%@", with: name)
            var bytes = victim.bytes
            if attack == .damagedCopy {
                bytes =
                    run.random.below(2) == 0
                    ? Array(bytes.prefix(run.random.below(bytes.count)))
                    : mutator.mutate(bytes, using: &run.random)
            }
            let parts = victim.path.split(separator: "/")
            plant(
                run, copy, bytes,
                expectation: .init(
                    kind: .changes, zone: Self.zone.rawValue, device: String(parts[parts.count - 3]),
                    seq: CloudName.logFile(String(parts.last!))))
        case .junk:
            let names = ["desktop.ini", ".DS_Store", "NOTES", "...", "Icon\r", "~$000000000001.json"]
            let junk = names.randomElement(using: &run.random)!
            let directory =
                run.random.below(2) == 0
                ? layout.logDirectory(Self.zone) : (victim.path as NSString).deletingLastPathComponent
            plant(run, directory + "/" + junk, Array("junk".utf8), expectation: nil)
        case .keysAndMarkers:
            try attackKeysAndMarkers(run)
        case .damagedChunk:
            try await attackChunk(run, syncing: index)
        case .reordered, .torn:
            let owner = await run.devices[index].engine.device
            let others = real.filter { !$0.path.contains("/\(owner.rawValue)/") }
            let chosen = others.filter { _ in run.random.below(3) == 0 }
            for file in chosen {
                if attack == .reordered {
                    try run.io.remove(file.path)
                } else {
                    run.io.plantFile(file.path, Array(file.bytes.prefix(run.random.below(file.bytes.count))))
                }
            }
            await step(run, index, .sync)
            // The replicator delivers the real bytes (unless the owner's compaction removed them meanwhile).
            for file in chosen where !unfair && (attack == .reordered || run.io.contents(file.path) != nil) {
                run.io.plantFile(file.path, file.bytes)
            }
        }
    }

    /// A real chunk removed, damaged, cut short or grown past the chunk size while one device
    /// syncs. That device must not fail, and must name every note it holds back in a warning.
    func attackChunk(_ run: Run, syncing index: Int) async throws {
        let assets = run.folder.layout.privateDirectory + "/assets/"
        let chunks = run.io.allPaths().filter { $0.hasPrefix(assets) && run.io.contents($0) != nil }.sorted()
        guard let chunk = chunks.randomElement(using: &run.random), let good = run.io.contents(chunk) else {
            return await step(run, index, .sync)
        }
        switch run.random.below(4) {
        case 0: try run.io.remove(chunk)
        case 1:
            var bytes = good
            bytes[run.random.below(bytes.count)] ^= 0x5a
            run.io.plantFile(chunk, bytes)
        case 2: run.io.plantFile(chunk, Array(good.prefix(run.random.below(good.count))))
        default: run.io.plantFile(chunk, good + [UInt8](repeating: 0x41, count: AssetRef.chunkSize + 64))
        }
        run.outcome.planted += 1
        await step(run, index, .sync)
        let engine = run.devices[index].engine
        let warnings = await engine.warnings
        if await !engine.state.waiting.isEmpty { run.outcome.heldByChunks += 1 }
        // The engine names the first ten one by one (`SyncEngine.waitingNamed`) and counts the rest.
        for entry in await engine.state.waiting.prefix(10)
        where !warnings.contains(where: { $0.contains("note \(entry.record.recordID) is waiting for") }) {
            run.outcome.failures.append("\(label): d\(index) holds note \(entry.record.recordID) back unreported")
        }
        if run.random.below(2) == 0 {
            run.io.plantFile(chunk, good)
        } else {
            run.damagedChunks.insert(chunk)
        }
    }

    /// The attacker stops; chunks left damaged are repaired by the devices holding their content
    /// (`sync --repair`); devices sync round-robin until nothing moves, then every published write
    /// must be on every device, nothing may still wait for a chunk, and the devices are identical.
    func finalRound(_ run: Run) async throws {
        if !run.damagedChunks.isEmpty {
            for index in run.devices.indices {
                let engine = run.devices[index].engine
                let failed = await Self.within(deadline) { () -> String? in
                    do { _ = try await engine.repair() } catch { return String(describing: error) }
                    return nil
                }
                if let failed, let error = failed {
                    run.outcome.failures.append("\(label): d\(index) sync --repair failed: \(error)")
                }
            }
        }
        for round in 0..<(deviceCount * 4 + 4) {
            var moved = false
            for index in run.devices.indices {
                let before = (try? run.devices[index].snapshot()) ?? [:]
                await step(run, index, .sync)
                if (try? run.devices[index].snapshot()) != before || (try? run.devices[index].store.pendingCount()) != 0
                {
                    moved = true
                }
            }
            if !run.outcome.failures.isEmpty { return }
            if !moved && round > 0 { break }
        }
        for (index, pending) in run.unpublished.enumerated() where !pending.isEmpty {
            run.outcome.failures.append("\(label): d\(index) never published \(pending)")
        }
        for (index, device) in run.devices.enumerated() {
            let waiting = await device.engine.state.waiting
            if !waiting.isEmpty {
                run.outcome.failures.append(
                    "\(label): d\(index) still waits for \(waiting.map(\.record.reason)) after the repair")
            }
        }
        let first = try run.devices[0].snapshot()
        for device in run.devices {
            let snapshot = try device.snapshot()
            if snapshot != first { run.outcome.failures.append("\(label): \(device.name) differs from d0") }
            var texts = ""
            for id in snapshot.keys {
                texts += String(decoding: snapshot[id]!.body, as: UTF8.self)
                for revision in try device.store.history(id) { texts += revision.fields?.body ?? "" }
            }
            for token in run.ledger where !texts.contains(token + "\n") {
                run.outcome.failures.append("\(label): acknowledged write \(token) lost on \(device.name)")
            }
        }
    }
}

extension Envelope.Verification {
    /// The file does not check out (a reader refuses it and must say so).
    var isRefused: Bool {
        if case .valid = self { return false }
        return true
    }
}
