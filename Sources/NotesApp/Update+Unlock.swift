import TerminalUI

extension AppState {
    /// The runtime found the cloud folder encrypted and its key not remembered: sync waits for
    /// the passphrase, asked in the dialog (and again by `s` after Esc).
    mutating func unlockNeeded() -> [Effect] {
        syncLocked = true
        unlock = UnlockPrompt()
        return []
    }

    /// The answer to `Effect.unlock`: nil, sync runs; else the dialog says why and asks again.
    mutating func unlockFinished(error: String?) -> [Effect] {
        guard let error else {
            syncLocked = false
            unlock = nil
            return show("Unlocked: syncing")
        }
        unlock?.checking = false
        unlock?.error = error
        return []
    }

    /// Keys while the dialog is open: text is the passphrase; Enter sends it, Esc puts the
    /// dialog away (sync stays off until `s` opens it again).
    mutating func unlockKey(_ key: InputEvent.Key, _ modifiers: InputEvent.Modifiers) -> [Effect] {
        guard var prompt = unlock, !prompt.checking else { return [] }
        switch key {
        case .escape:
            unlock = nil
            return show("Sync is off until the folder is unlocked: s asks again")
        case .enter:
            guard !prompt.entered.isEmpty else {
                prompt.error = "Type the passphrase, then Enter"
                unlock = prompt
                return []
            }
            let passphrase = prompt.entered
            prompt.entered = ""
            prompt.error = nil
            prompt.checking = true
            unlock = prompt
            return [.unlock(passphrase: passphrase)]
        case .backspace:
            if !prompt.entered.isEmpty { prompt.entered.removeLast() }
        case .character("u") where modifiers == .control:
            prompt.entered = ""
        case .character(let c) where modifiers.isEmpty || modifiers == .shift:
            prompt.entered.append(c)
        default:
            return []
        }
        prompt.error = nil
        unlock = prompt
        return []
    }

    /// A paste into the dialog is typed text up to its first line break.
    mutating func unlockPaste(_ text: String) -> [Effect] {
        guard unlock?.checking == false else { return [] }
        unlock?.entered += String(text.prefix { $0 != "\n" && $0 != "\r" && $0 != "\r\n" })
        return []
    }
}
