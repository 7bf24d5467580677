import NotesApp

/// The open overlay's state, for assertions: nil when another part of the screen has the keys.
extension AppState {
    var history: HistoryState? { if case .history(let view) = focus { view } else { nil } }
    var resolver: ResolverState? { if case .resolver(let view) = focus { view } else { nil } }
    var trash: TrashState? { if case .trash(let view) = focus { view } else { nil } }
    var picker: PickerState? { if case .picker(let view) = focus { view } else { nil } }
}

/// The note loaded in the editor, for assertions: nil while the pane is closed or loading.
extension EditorSlot {
    var loaded: EditorState? { if case .loaded(let open) = self { open } else { nil } }
}
