import Foundation

/// The end of a life-cycle run: every device syncs until quiet, then the promises are
/// checked (one place, the same notes, no acknowledged edit lost, no word in the clear).
extension CloudLifecycleModel {
    /// The most rounds of `sync` on every device that converging may take.
    static let convergeRounds = 8

    /// One new note per device, then rounds of `sync` on every device until a whole round
    /// sends, receives and says nothing.
    mutating func converge() {
        note("— converging")
        for name in devices {
            let before = edits.count
            add(on: name, step: steps)
            if edits.count == before { fail("add on \(name) after the run did not succeed") }
        }
        var lastRound: [String] = []
        for round in 1...Self.convergeRounds {
            var quiet = true
            lastRound = []
            for name in devices {
                let result = finalSync(on: name)
                let line = "\(name): exit \(result.status) \(result.stdout) \(result.stderr)"
                    .replacingOccurrences(of: "\n", with: " ")
                lastRound.append(line)
                let said =
                    result.succeeded && result.stdout.contains("sent 0 change(s)")
                    && result.stdout.contains("received 0,") && result.stdout.contains("pending 0,")
                    && result.stderr.isEmpty
                if !said { quiet = false }
            }
            if quiet {
                note("quiet after \(round) round(s)")
                return
            }
        }
        fail(
            "the devices did not converge in \(Self.convergeRounds) rounds of sync; the last round: "
                + lastRound.joined(separator: " ‖ "))
    }

    /// `sync` with the current passphrase; a refusal naming the passphrase is tried with the
    /// other passphrases a killed change may have left.
    mutating func finalSync(on name: String) -> LifecycleShell.Run {
        var result = shell.run(["sync"], device: device(name), environment: passphraseEnvironment())
        outcome.operations += 1
        if !result.succeeded && result.stderr.contains("passphrase") {
            for other in passphrases.dropFirst() {
                let retried = shell.run(["sync"], device: device(name), environment: passphraseEnvironment(other))
                outcome.operations += 1
                note("\(name): sync with an earlier candidate passphrase → exit \(retried.status)")
                if retried.succeeded {
                    result = retried
                    break
                }
            }
        }
        return result
    }

    /// The checks after convergence; each failure names what diverged.
    mutating func check() {
        let places = statuses()
        let bound = Set(places.values.map(\.folder))
        if bound.count != 1 {
            fail("the devices are bound to different places: \(places.map { "\($0.key) → \($0.value.folder)" })")
        }
        let exported = devices.compactMap { name in exportedNotes(name).map { (name, $0) } }
        if exported.count == devices.count, let (_, first) = exported.first {
            for (name, notes) in exported.dropFirst() where notes != first {
                let differing = Set(first.keys).union(notes.keys).filter { first[$0] != notes[$0] }.sorted()
                let example = differing.first.map {
                    "\($0): a has \(first[$0] ?? "nothing"), \(name) has \(notes[$0] ?? "nothing")"
                }
                fail("device a and device \(name) differ in \(differing.count) note(s); \(example ?? "")")
            }
            checkEdits(first)
        }
        let encrypted = encryptAcknowledged || places.values.contains { $0.encrypted }
        note("encrypted: \(encrypted), bound place(s): \(bound.sorted())")
        if encrypted {
            if let plain = places.first(where: { !$0.value.encrypted }) {
                fail("device \(plain.key) syncs with a plain container after the container was encrypted")
            }
            for folder in bound { checkNoLeak(folder) }
        }
    }

    /// Each device's `status --json`: the bound cloud folder and whether it is encrypted.
    mutating func statuses() -> [String: (folder: String, encrypted: Bool)] {
        var result: [String: (folder: String, encrypted: Bool)] = [:]
        for name in devices {
            let status = shell.run(["status", "--json"], device: device(name))
            guard status.succeeded,
                let object = try? JSONSerialization.jsonObject(with: Data(status.stdout.utf8)) as? [String: Any]
            else {
                fail("status --json on \(name) failed: \(status.stderr)")
                continue
            }
            let folder = object["cloudFolder"] as? String ?? "none"
            result[name] = (folder, object["encrypted"] as? Bool ?? false)
            let warnings = object["warnings"] as? [Any] ?? []
            if !warnings.isEmpty { note("\(name) status warnings: \(warnings)") }
        }
        return result
    }

    /// A device's notes as `export --format json` writes them: id → title, notebook and body.
    mutating func exportedNotes(_ name: String) -> [String: String]? {
        let file = shell.home.appendingPathComponent("export-\(name).json")
        let result = shell.run(["export", file.path, "--format", "json", "--force"], device: device(name))
        guard result.succeeded, let data = try? Data(contentsOf: file),
            let rows = try? JSONSerialization.jsonObject(with: data) as? [[String: Any]]
        else {
            fail("export on \(name) failed: \(result.stderr)")
            return nil
        }
        var notes: [String: String] = [:]
        for row in rows {
            guard let id = row["id"] as? String else { continue }
            let title = row["title"] as? String ?? ""
            let notebook = row["notebook"] as? String ?? ""
            notes[id] = "\(title) [\(notebook)] \(row["body"] as? String ?? "")"
        }
        return notes
    }

    /// Every acknowledged edit's marker is in its note's text now or in one of its revisions
    /// (`history`, which holds both sides of a conflict).
    mutating func checkEdits(_ notes: [String: String]) {
        let missing = edits.filter { notes[$0.note]?.contains($0.marker) != true }
        var found = Set<String>()
        for id in Set(missing.map(\.note)).sorted() {
            let history = shell.run(["history", id, "--json"], device: device("a"))
            let revisions =
                (try? JSONSerialization.jsonObject(with: Data(history.stdout.utf8)) as? [[String: Any]])?
                .compactMap { $0["id"] as? String } ?? []
            for revision in revisions {
                let shown = shell.run(["history", id, "--show", revision], device: device("a"))
                for edit in missing where edit.note == id && shown.stdout.contains(edit.marker) {
                    found.insert(edit.marker)
                }
            }
        }
        for edit in missing where !found.contains(edit.marker) {
            fail(
                "the edit \(edit.marker) that \(edit.device) acknowledged at step \(edit.step) is lost "
                    + "(note \(edit.note) \(notes[edit.note] == nil ? "is missing" : "holds neither it nor a revision with it"))"
            )
        }
        note("\(edits.count) acknowledged edit(s) checked, \(missing.count - found.count) lost")
    }

    /// No file under the encrypted cloud folder (its root, when devices sync with `sealed/`
    /// inside it) holds a marker word in its name or bytes.
    mutating func checkNoLeak(_ folder: String) {
        let root = folder.hasSuffix("/sealed") ? String(folder.dropLast("/sealed".count)) : folder
        var leaks: [String] = []
        let enumerator = FileManager.default.enumerator(atPath: root)
        while let relative = enumerator?.nextObject() as? String {
            let data = FileManager.default.contents(atPath: root + "/" + relative) ?? Data()
            for word in Self.leakWords where relative.contains(word) || data.range(of: Data(word.utf8)) != nil {
                leaks.append("\(relative) (\(word))")
            }
        }
        if !leaks.isEmpty {
            fail(
                "the encrypted cloud folder \(root) holds words in the clear: \(leaks.prefix(5).joined(separator: ", "))"
            )
        }
    }
}
