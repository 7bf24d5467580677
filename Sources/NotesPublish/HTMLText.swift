/// Escaping for text that goes into a published page: every string that comes from a note
/// (title, tags, notebook name, link text) passes through here before it meets HTML.
enum HTMLText {
    /// `text` as HTML text or a double-quoted attribute value: `&`, `<`, `>`, `"` and `'` as
    /// character references, so it can open no tag and close no attribute.
    static func escape(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// Undoes the references `escape` and Ink write (`&amp;` `&lt;` `&gt;` `&quot;` `&#39;`), to
    /// read back a URL that went through them; any other reference stays as it is.
    static func unescape(_ html: String) -> String {
        guard html.contains("&") else { return html }
        return
            html
            .replacingOccurrences(of: "&lt;", with: "<")
            .replacingOccurrences(of: "&gt;", with: ">")
            .replacingOccurrences(of: "&quot;", with: "\"")
            .replacingOccurrences(of: "&#39;", with: "'")
            .replacingOccurrences(of: "&amp;", with: "&")
    }
}
