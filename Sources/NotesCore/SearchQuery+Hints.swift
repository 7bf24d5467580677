import Foundation

/// A word that looks like an operator but is not one (`crated:2024`), searched as words, and
/// what was likely meant (`did you mean created:?`).
public struct SearchHint: Sendable, Equatable {
    public var word: String
    public var advice: String

    public init(word: String, advice: String) {
        self.word = word
        self.advice = advice
    }

    /// The hint as one line: `crated:2024 is searched as words: did you mean created:?`.
    public var line: String { "\(word) is searched as words: \(advice)" }
}

/// The hint for a word that looks like an operator but is not one (`crated:2024`).
extension SearchQuery {
    /// Every operator key of the query language.
    public static let operators = ["tag", "is", "in", "has", "title", "created", "modified", "sort"]

    /// The operator `key` is most likely a typo of: at most one edit away for keys of up to
    /// three letters, two for longer ones (`crated` → `created`); nil when none is that near, so
    /// `https://…` or `10:30` stay plain words without a hint.
    static func nearestOperator(to key: String) -> String? {
        let key = key.lowercased()
        guard key.count >= 2, key.allSatisfy(\.isLetter) else { return nil }
        let allowed = key.count <= 3 ? 1 : 2
        let scored = operators.map { ($0, editDistance(Array(key), Array($0))) }
            .filter { $0.1 <= allowed }
        return scored.min { $0.1 < $1.1 }?.0
    }

    /// Levenshtein distance, with a swap of two neighbours counting as one edit.
    static func editDistance(_ a: [Character], _ b: [Character]) -> Int {
        guard !a.isEmpty else { return b.count }
        guard !b.isEmpty else { return a.count }
        var rows = [Array(0...b.count)]
        for i in 1...a.count {
            var row = [i] + Array(repeating: 0, count: b.count)
            for j in 1...b.count {
                row[j] = min(rows[i - 1][j] + 1, row[j - 1] + 1, rows[i - 1][j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    row[j] = min(row[j], rows[i - 2][j - 2] + 1)
                }
            }
            rows.append(row)
        }
        return rows[a.count][b.count]
    }
}
