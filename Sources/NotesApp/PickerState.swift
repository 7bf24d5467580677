/// The notebook picker (`N`) or tag picker (`#`): a list to choose from, over the list pane.
public struct PickerState: Equatable, Sendable {
    public enum Kind: Equatable, Sendable {
        case notebook, tag
    }

    public var kind: Kind
    /// What can be chosen, in order; the notebook picker starts with "All notebooks" (value "").
    public var items: [PickerItem]
    public var selection = 0
    /// The first item drawn (the picker scrolls when it holds more than fit).
    public var scroll = 0

    public init(kind: Kind, items: [PickerItem], selection: Int = 0) {
        self.kind = kind
        self.items = items
        self.selection = max(0, min(selection, items.count - 1))
    }
}

/// One choice of a picker: shown as `label  count`; `value` is what it filters by (a notebook's
/// zone id, a tag; "" for all notes).
/// A saved search (`query`) shows beneath the notebooks; choosing it searches for its query.
public struct PickerItem: Equatable, Sendable {
    public var label: String
    public var value: String
    public var count: Int
    /// A saved search's query; nil for a notebook or a tag.
    public var query: String?
    /// A line beside the label: how a shared notebook is shared ("shared by Ann · read-only").
    public var detail: String?

    /// The most matches a view's count says exactly; past it the picker shows "1000+".
    public static let maxViewCount = 1000

    public init(label: String, value: String, count: Int, query: String? = nil, detail: String? = nil) {
        self.detail = detail
        self.label = label
        self.value = value
        self.count = count
        self.query = query
    }
}
