/// A posting list or document table of the search index that does not decode. Never shown to
/// a user: a search then scans the text, a merge rebuilds the index (ARCHITECTURE §7).
struct SearchIndexDamage: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
