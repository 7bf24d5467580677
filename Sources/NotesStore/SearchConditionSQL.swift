import Foundation
import GRDB
import NotesCore

/// A `SearchExpression` as an SQL condition on one note, `note n` (ARCHITECTURE §5): words are
/// `instr` on the folded title (`sortTitle`) and on the folded body and tags
/// (`cn_search_body`), tags and notebooks are lookups, dates compare milliseconds.
struct SearchConditionSQL {
    var sql: String
    var arguments: [any DatabaseValueConvertible]
    /// Whether the condition reads a note's text (a word or `title:`): checked per candidate.
    var readsText: Bool

    /// The SQL function that tells whether a note's body has an open task (`TaskItem`).
    static let hasOpenTask = DatabaseFunction("cn_has_open_task", argumentCount: 1, pure: true) { values in
        guard let body = String.fromDatabaseValue(values[0]) else { return false }
        return !TaskItem.open(in: body).isEmpty
    }

    /// The SQL function that gives the text a search checks words in besides the title: a
    /// note's body and tags (its `body` and `tags` columns) folded (`IndexedText.foldedBody`).
    static let searchBody = DatabaseFunction("cn_search_body", argumentCount: 2, pure: true) { values in
        let body = String.fromDatabaseValue(values[0]) ?? ""
        let tags = String.fromDatabaseValue(values[1]).map(NoteStore.decodeTags) ?? []
        return String(decoding: IndexedText.foldedBody(body, tags: tags), as: UTF8.self)
    }

    init(sql: String, arguments: [any DatabaseValueConvertible], readsText: Bool) {
        self.sql = sql
        self.arguments = arguments
        self.readsText = readsText
    }

    /// - Parameters:
    ///   - zones: the zone of each notebook reference the expression names (`notebookZones`).
    ///   - now: what relative dates (`today`, `7d`) count from.
    init(
        _ expression: SearchExpression, zones: [String: String], now: Date, timeZone: TimeZone
    ) {
        var arguments: [any DatabaseValueConvertible] = []
        var readsText = false
        func compile(_ expression: SearchExpression) -> String {
            switch expression {
            case .term(let text):
                let folded = SearchPlan.foldedTerm(text)
                guard !folded.isEmpty else { return "1" }
                readsText = true
                arguments += [folded, folded]
                return "(instr(n.sortTitle, ?) > 0 OR instr(cn_search_body(n.body, n.tags), ?) > 0)"
            case .title(let text):
                let folded = SearchPlan.foldedTerm(text)
                guard !folded.isEmpty else { return "1" }
                readsText = true
                arguments.append(folded)
                return "instr(n.sortTitle, ?) > 0"
            case .tag(let tag):
                arguments.append(TextFolding.fold(tag))
                return "n.id IN (SELECT noteID FROM note_tag WHERE foldedTag = ?)"
            case .favorite:
                return "n.isFavorite = 1"
            case .notebook(let name):
                arguments.append(zones[name] ?? name)
                return "n.zone = ?"
            case .openTasks:
                // Every open task has a box; the function reads only the notes with one.
                return "(instr(n.body, '[ ]') > 0 AND cn_has_open_task(n.body))"
            case .attachment:
                return "EXISTS (SELECT 1 FROM attachment WHERE attachment.noteID = n.id)"
            case .conflict:
                return "n.syncState = 'conflict'"
            case .date(let filter):
                let (lower, upper) = filter.interval(now: now, in: timeZone)
                let column = filter.field == .created ? "n.createdAt" : "n.modifiedAt"
                var parts: [String] = []
                if let lower {
                    parts.append("\(column) >= ?")
                    arguments.append(lower)
                }
                if let upper {
                    parts.append("\(column) < ?")
                    arguments.append(upper)
                }
                return parts.isEmpty ? "1" : "(" + parts.joined(separator: " AND ") + ")"
            case .not(let inner):
                return "NOT (" + compile(inner) + ")"
            case .all(let parts):
                return parts.isEmpty ? "1" : "(" + parts.map(compile).joined(separator: " AND ") + ")"
            case .any(let parts):
                return parts.isEmpty ? "0" : "(" + parts.map(compile).joined(separator: " OR ") + ")"
            }
        }
        sql = compile(expression)
        self.arguments = arguments
        self.readsText = readsText
    }
}
