import Foundation
import NotesCore
import TerminalUI

/// The sync indicator's text: the phase, then conflicts and pending changes when there are any.
func syncIndicator(_ status: SyncStatus, now: Date) -> String {
    ([syncPhase(status, now: now)] + syncCounts(status)).joined(separator: "  ")
}

/// What sync is doing (its message can be long: it is what gets cut when room is short).
func syncPhase(_ status: SyncStatus, now: Date) -> String {
    var parts: [String] = []
    switch status.phase {
    case .localOnly: parts.append("local only")
    case .idle(let lastSync?) where status.cloudOnThisDisk:
        parts.append("✓ Saved \(RelativeTime.long(lastSync, now: now)) · cloud on this disk")
    case .idle(let lastSync?): parts.append("✓ Synced \(RelativeTime.long(lastSync, now: now))")
    case .idle(nil): parts.append(status.cloudOnThisDisk ? "not saved yet · cloud on this disk" : "not synced yet")
    case .syncing(let done, let total): parts.append("Syncing… \(done)/\(total)")
    case .offline(let reason): parts.append("offline: \(TerminalSafeText.sanitize(reason))")
    case .signInFailed(let reason): parts.append("sign-in failed: \(TerminalSafeText.sanitize(reason))")
    case .error(let message): parts.append("sync error: \(TerminalSafeText.sanitize(message))")
    }
    return parts.joined()
}

/// Conflicts and pending changes, when there are any: always shown whole.
func syncCounts(_ status: SyncStatus) -> [String] {
    var parts: [String] = []
    if status.conflictCount > 0 {
        parts.append("⚠ \(status.conflictCount) conflict\(status.conflictCount == 1 ? "" : "s")")
    }
    if status.pendingCount > 0 { parts.append("↑ \(status.pendingCount) pending") }
    if status.attachmentWaitingCount > 0 {
        parts.append("↻ waiting for attachment")
    }
    if status.damagedChunkCount > 0 {
        let chunks = status.damagedChunkCount
        parts.append("⚠ \(chunks) damaged chunk\(chunks == 1 ? "" : "s"): sync --repair")
    }
    if status.waitingCount > status.attachmentWaitingCount {
        let files = status.waitingCount - status.attachmentWaitingCount
        parts.append("\(files) file\(files == 1 ? "" : "s") waiting")
    }
    return parts
}

/// The saved searches marked to notify that changed since last shown: "  ● work: 3" each
/// (the name cut to 16 columns).
func viewNoticeText(_ notices: [ViewNotice]) -> String {
    notices.filter { $0.count > 0 }.map {
        "  ● " + TextWidth.clip(TerminalSafeText.sanitize($0.name), to: 16, ellipsis: true) + ": \($0.count)"
    }.joined()
}

/// The bottom row: the sync indicator on the left; the status message, or key hints, on the right.
func drawStatusBar(_ state: AppState, in rect: Rect, on buffer: inout Buffer) {
    guard !rect.isEmpty else { return }
    let theme = state.theme
    buffer.fill(rect, style: theme.statusBar)
    // The counts (held notes' too) and the editor's save state are never cut; the phase's text
    // (an offline reason, a sync error) and why notes are held are, and leave a message up to
    // a third of the row.
    let status = state.syncStatus
    let counts =
        syncCounts(status).map { "  " + $0 }.joined() + (status.heldCount > 0 ? " · \(status.heldCount) held" : "")
        + viewNoticeText(state.viewNotices)
    var save = " "
    if state.focus == .editor, case .loaded(let open) = state.editor {
        save += open.savingText != nil ? "· saving " : open.hasUnsavedEdits ? "· edited " : "· saved "
    }
    let room = rect.width
    let messageShare = state.message.map { min(TextWidth.width(of: $0.text) + 2, room / 3) } ?? 0
    let fullPhase = syncPhase(status, now: state.now)
    let shared = room - messageShare - TextWidth.width(of: counts + save) - 1
    // The phase keeps its first word or so ("offline: …"), then the reason takes what is left.
    var reason = ""
    if status.heldCount > 0, let why = status.heldReason {
        let reasonRoom = shared - min(TextWidth.width(of: fullPhase), 10)
        let full = ": " + TerminalSafeText.sanitize(why)
        if reasonRoom >= min(TextWidth.width(of: full), 8) {
            reason = TextWidth.clip(full, to: reasonRoom, ellipsis: true)
        }
    }
    let phaseRoom = max(10, shared - TextWidth.width(of: reason))
    let phase = TextWidth.clip(fullPhase, to: phaseRoom, ellipsis: true)
    let left = TextWidth.clip(" " + phase + counts + reason + save, to: room, ellipsis: true)
    let used = buffer.write(left, at: rect.origin, style: theme.statusBar, clipTo: rect) - rect.x
    let rightRoom = room - used - 1
    guard rightRoom > 0 else { return }
    let right: String
    let style: Style
    if let prompt = purgePrompt(state) ?? state.linkUpdate?.question {
        right = TextWidth.clip(prompt, to: rightRoom - 1, ellipsis: true) + " "
        style = theme.message(.warning)
    } else if state.focus == .editor, state.editor.readLoaded(\.isTrashed) == true,
        (state.message?.severity ?? .info) == .info
    {
        // Said for as long as the note is in the trash, not for a message's few seconds (a
        // warning or an error is shown first, then this again).
        right = TextWidth.clip(trashedNotice, to: rightRoom - 1, ellipsis: true) + " "
        style = theme.message(.warning)
    } else if let message = state.message {
        right = TextWidth.clip(TerminalSafeText.sanitize(message.text), to: rightRoom - 1, ellipsis: true) + " "
        style = theme.message(message.severity)
    } else {
        right = fittingHints(hints(for: state), in: rightRoom - 1) + " "
        style = theme.statusBar
    }
    buffer.write(right, at: Point(x: rect.maxX - TextWidth.width(of: right), y: rect.y), style: style, clipTo: rect)
}

/// The first-run hint while the cloud folder shares the data's disk: how to bind a real one.
let cloudOnThisDiskHint = "cloudnotes sync init PATH keeps a copy off this disk"

/// Key hints by focus, least important first: the ones that do not fit are dropped from the front.
func hints(for state: AppState) -> [String] {
    switch state.focus {
    case .list where state.syncStatus.cloudOnThisDisk:
        [cloudOnThisDiskHint, "/ search", "n new", "? help", "q quit"]
    case .list where state.taskPreview.map { !$0.tasks.isEmpty } == true:
        [previewModeHint(state), "[ ] task", "Space tick", "/ search", "n new", "? help", "q quit"]
    case .list where state.taskPreview != nil: [previewModeHint(state), "/ search", "n new", "? help", "q quit"]
    case .list: ["/ search", "n new", "? help", "q quit"]
    case .search: ["Enter go", "Esc clear"]
    case .editor: ["M-u undo", "^S save", "Esc back"]
    case .help: ["Esc close"]
    case .history: ["Enter restore", "Esc close"]
    case .trash: ["r restore", "X delete forever", "Esc back"]
    case .picker: ["Enter choose", "Esc close"]
    case .resolver(let view):
        view.isEditing ? ["^S resolve", "Esc back"] : ["m mine", "t theirs", "b both", "e edit", "Esc close"]
    }
}

/// The longest tail of `hints` that fits in `columns`, joined by two spaces.
func fittingHints(_ hints: [String], in columns: Int) -> String {
    for start in hints.indices {
        let text = hints[start...].joined(separator: "  ")
        if TextWidth.width(of: text) <= columns { return text }
    }
    return ""
}
