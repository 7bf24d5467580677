/// What a URL written in a note may become on a published page: a link to another web site
/// (`http`, `https`, `mailto`; followed only when a reader clicks), a path inside the site, or
/// nothing (`javascript:`, `data:`, `file:` and every other scheme are shown as text).
enum LinkTarget: Equatable {
    case external(String)
    case relative(String)
    case refused

    /// The schemes a published link may use.
    static let allowedSchemes: Set<String> = ["http", "https", "mailto"]

    /// Classifies `url` as a browser would read it: leading and trailing spaces and controls are
    /// dropped and tabs and line breaks inside removed (WHATWG URL), then the text before the
    /// first `:` is the scheme when no `/`, `?` or `#` comes before it.
    init(_ url: String) {
        let cleaned = String(
            String.UnicodeScalarView(
                url.unicodeScalars.filter { $0 != "\t" && $0 != "\n" && $0 != "\r" }
            )
        ).trimmingControlsAndSpaces()
        guard !cleaned.isEmpty else {
            self = .refused
            return
        }
        for (index, scalar) in cleaned.unicodeScalars.enumerated() {
            if scalar == "/" || scalar == "?" || scalar == "#" { break }
            if scalar == ":" {
                let scheme = String(cleaned.unicodeScalars.prefix(index)).lowercased()
                self = Self.allowedSchemes.contains(scheme) ? .external(cleaned) : .refused
                return
            }
        }
        // `//host/path` is another site without a scheme: not a path inside this one.
        self = cleaned.hasPrefix("//") || cleaned.hasPrefix("\\") ? .refused : .relative(cleaned)
    }
}

extension String {
    /// Without the leading and trailing C0 controls and spaces a URL parser drops.
    fileprivate func trimmingControlsAndSpaces() -> String {
        let scalars = Array(unicodeScalars)
        var start = 0
        var end = scalars.count
        while start < end, scalars[start].value <= 0x20 { start += 1 }
        while end > start, scalars[end - 1].value <= 0x20 { end -= 1 }
        return String(String.UnicodeScalarView(scalars[start..<end]))
    }
}
