/// The canonical JSON of a revision's fields written member by member: what `json.canonicalBytes`
/// gives, without building the object and sorting its keys first. Every note a sync fetches,
/// publishes or stores, and every save, hashes or stores these bytes, and the store cuts the
/// body out of them (`bodyContents` says where it is, so nothing searches for it).
extension RevisionFields {
    /// `json.canonicalBytes`.
    public var canonicalBytes: [UInt8] { canonicalForm().bytes }

    /// `json.canonicalBytes`, and the range of them that holds the body's contents between its
    /// quotes (escaped as the encoder escapes them).
    public func canonicalForm() -> (bytes: [UInt8], bodyContents: Range<Int>) {
        var out: [UInt8] = []
        out.reserveCapacity(body.utf8.count + title.utf8.count + zone.utf8.count + 160)
        // The keys in the encoder's order, their UTF-8 bytes ascending: attachments, body,
        // createdAt, deletedAt, frontMatter, isFavorite, modifiedAt, tags, title, zone.
        func key(_ name: StaticString, first: Bool = false) {
            out.append(first ? UInt8(ascii: "{") : UInt8(ascii: ","))
            out.append(UInt8(ascii: "\""))
            out.append(contentsOf: UnsafeBufferPointer(start: name.utf8Start, count: name.utf8CodeUnitCount))
            out.append(UInt8(ascii: "\""))
            out.append(UInt8(ascii: ":"))
        }
        func int(_ value: Int64) { out.append(contentsOf: String(value).utf8) }
        if !attachments.isEmpty {
            key("attachments", first: true)
            out += JSONValue.array(attachments.map(\.json)).canonicalBytes
            key("body")
        } else {
            key("body", first: true)
        }
        let start = out.count + 1
        JSONValue.writeString(body, to: &out)
        let bodyContents = start..<(out.count - 1)
        key("createdAt")
        int(createdAt)
        if let deletedAt {
            key("deletedAt")
            int(deletedAt)
        }
        if let frontMatter {
            key("frontMatter")
            JSONValue.writeString(frontMatter, to: &out)
        }
        key("isFavorite")
        out.append(contentsOf: (isFavorite ? "true" : "false").utf8)
        key("modifiedAt")
        int(modifiedAt)
        key("tags")
        out.append(UInt8(ascii: "["))
        for (index, tag) in tags.enumerated() {
            if index > 0 { out.append(UInt8(ascii: ",")) }
            JSONValue.writeString(tag, to: &out)
        }
        out.append(UInt8(ascii: "]"))
        key("title")
        JSONValue.writeString(title, to: &out)
        key("zone")
        JSONValue.writeString(zone, to: &out)
        out.append(UInt8(ascii: "}"))
        return (out, bodyContents)
    }
}
