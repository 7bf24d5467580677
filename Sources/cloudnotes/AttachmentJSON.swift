/// An attachment as JSON export lists it in a note's `attachments` and import reads it back:
/// its name, size and SHA-256, and its file relative to the JSON file's folder
/// (`<stem>-attachments/<note id>/<file>`). Import needs the name, and the file or (for content
/// already on this device) the hash and size.
struct AttachmentJSON: Codable, Equatable, Sendable {
    var name: String
    var size: Int64?
    var sha256: String?
    var file: String?
}
