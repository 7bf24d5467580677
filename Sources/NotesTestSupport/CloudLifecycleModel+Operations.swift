import Foundation

/// The random operations of the life-cycle model: edits and syncs, and the once-a-year
/// operations on the container (move, encrypt, passphrase), the latter often killed.
extension CloudLifecycleModel {
    /// One operation drawn by weight: edits and syncs most often, a container operation
    /// about one step in three.
    mutating func randomStep(_ step: Int) {
        let name = devices[random.below(devices.count)]
        let draw = random.below(100)
        switch draw {
        case 0..<12: add(on: name, step: step, notebook: random.below(2) == 0 ? "zqbook\(name)" : nil)
        case 12..<38: edit(on: name, step: step)
        case 38..<70: sync(on: name)
        case 70..<82: move(on: name)
        case 82..<90: encrypt(on: name)
        default: changePassphrase(on: name)
        }
    }

    /// `add` with a title and text holding new marker words; acknowledged when it exits 0.
    mutating func add(on name: String, step: Int, notebook: String? = nil) {
        let marker = nextMarker()
        var arguments = ["add", "zqtitle\(markerCount)", "--body", "\(marker) added on \(name)"]
        if let notebook { arguments += ["--notebook", notebook] }
        guard let result = runChecked(arguments, on: name, what: "add"), result.succeeded else { return }
        let id = result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        notes.append(id)
        edits.append(Edit(note: id, marker: marker, device: name, step: step))
    }

    /// `edit --body` of a note the model knows (the device may not have it yet: then a
    /// one-line refusal, and nothing is acknowledged).
    mutating func edit(on name: String, step: Int) {
        guard !notes.isEmpty else { return add(on: name, step: step) }
        let id = notes[random.below(notes.count)]
        let marker = nextMarker()
        let text = "\(marker) edited on \(name) at step \(step)"
        guard let result = runChecked(["edit", id, "--body", text], on: name, what: "edit"), result.succeeded
        else { return }
        edits.append(Edit(note: id, marker: marker, device: name, step: step))
    }

    /// `sync`, now and then without the passphrase (a device not yet told it) or killed.
    mutating func sync(on name: String) {
        let environment = random.below(4) == 0 ? [:] : passphraseEnvironment()
        let killAfter = random.below(6) == 0 ? Self.killDelay(&random) : nil
        runChecked(["sync"], on: name, environment: environment, killAfter: killAfter, what: "sync")
    }

    /// `sync move` to a fresh, empty place.
    mutating func move(on name: String) {
        let place = freshPlace()
        let result = runKillable(
            ["sync", "move", place], on: name, environment: passphraseEnvironment(), killChance: 75, what: "sync move")
        note("  move to \(place): \(result.acknowledged ? "acknowledged" : "refused: \(result.refusal ?? "?")")")
    }

    /// `sync encrypt` with the current passphrase (refused once the container is encrypted).
    mutating func encrypt(on name: String) {
        let result = runKillable(
            ["sync", "encrypt"], on: name, environment: passphraseEnvironment(), killChance: 75, what: "sync encrypt")
        if result.acknowledged { encryptAcknowledged = true }
        note("  encrypt: \(result.acknowledged ? "acknowledged" : "refused: \(result.refusal ?? "?")")")
    }

    /// `sync passphrase` (with `--new-key` half the time where it exists) to a new passphrase.
    mutating func changePassphrase(on name: String) {
        guard encryptAcknowledged else { return sync(on: name) }
        let new = "lifecycle passphrase \(outcome.operations)"
        var arguments = ["sync", "passphrase"]
        if newKeySupported && random.below(2) == 0 { arguments.append("--new-key") }
        let result = runKillable(
            arguments, on: name, environment: passphraseEnvironment(new: new), killChance: 75,
            what: arguments.joined(separator: " "))
        if result.acknowledged {
            passphrases.removeAll { $0 == new }
            passphrases.insert(new, at: 0)
        } else {
            // A killed change may have gone through: the new passphrase is a candidate too.
            passphrases.append(new)
        }
        note("  passphrase: \(result.acknowledged ? "acknowledged" : "refused: \(result.refusal ?? "?")")")
    }
}
