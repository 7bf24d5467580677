/// `#tag` words in a note's body (config `bodyHashtags`): `#` at the start of a line or after a
/// space, then letters, digits, `_`, `-` or `/` with at least one letter. A Markdown heading
/// (`# Title`, `## x`) is not a tag, nor is `#123` or a `#` inside a word (`a#b`, a URL's
/// fragment).
public enum Hashtags {
    public static func tags(in body: String) -> [String] {
        var found: [String] = []
        var seen: Set<String> = []
        var previous: Character = "\n"
        var index = body.startIndex
        while index < body.endIndex {
            let character = body[index]
            if character == "#", previous.isWhitespace {
                var end = body.index(after: index)
                while end < body.endIndex, isTagCharacter(body[end]) { end = body.index(after: end) }
                var word = body[body.index(after: index)..<end]
                while let last = word.last, last == "-" || last == "/" { word = word.dropLast() }
                if word.contains(where: \.isLetter), seen.insert(String(word)).inserted {
                    found.append(String(word))
                }
                previous = body[body.index(before: end)]
                index = end
                continue
            }
            previous = character
            index = body.index(after: index)
        }
        return found
    }

    static func isTagCharacter(_ character: Character) -> Bool {
        character.isLetter || character.isNumber || character == "_" || character == "-" || character == "/"
    }
}
