/// A notebook as the store lists it: its zone id, its display name and how many notes outside
/// the trash it holds (SYNC-FORMAT rule 16).
public struct NotebookInfo: Sendable, Equatable {
    /// The zone id: fixed for the notebook's life, the same on every device.
    public var zone: String
    /// The display name (the zone id until one is set).
    public var name: String
    public var count: Int
    /// How the notebook is shared with this account; nil for a notebook of its own.
    public var sharing: NotebookSharing?

    public init(zone: String, name: String, count: Int, sharing: NotebookSharing? = nil) {
        self.zone = zone
        self.name = name
        self.count = count
        self.sharing = sharing
    }
}
