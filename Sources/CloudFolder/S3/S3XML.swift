import Foundation

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// The two XML documents `S3FileIO` reads: an error body and a ListObjectsV2 page. Anything
/// that is not what S3 sends parses as nil, never a crash.
public enum S3XML {
    /// One page of ListObjectsV2.
    public struct ListPage: Sendable, Equatable {
        public var keys: [String] = []
        /// Each key's ETag, quotes and all, in the keys' order; empty when the page did not give
        /// one for every key.
        public var etags: [String] = []
        public var commonPrefixes: [String] = []
        public var isTruncated = false
        public var nextContinuationToken: String?
    }

    /// `<Error><Code>…</Code><Message>…</Message></Error>`: the code and message.
    public static func errorCodeAndMessage(_ body: [UInt8]) -> (code: String, message: String?)? {
        let collector = Collector(paths: ["Error/Code", "Error/Message"])
        guard collector.parse(body), let code = collector.values["Error/Code"]?.first, !code.isEmpty else {
            return nil
        }
        return (code, collector.values["Error/Message"]?.first)
    }

    /// The text of the first element at `path` (slash-separated from the root) of a document,
    /// or nil when the body is not one or has none there.
    public static func value(_ path: String, in body: [UInt8]) -> String? {
        let collector = Collector(paths: [path])
        guard collector.parse(body) else { return nil }
        return collector.values[path]?.first
    }

    /// A ListObjectsV2 result page, or nil for a body that is not one.
    public static func listPage(_ body: [UInt8]) -> ListPage? {
        let collector = Collector(paths: [
            "ListBucketResult/Contents/Key", "ListBucketResult/Contents/ETag", "ListBucketResult/CommonPrefixes/Prefix",
            "ListBucketResult/IsTruncated", "ListBucketResult/NextContinuationToken",
        ])
        guard collector.parse(body), collector.root == "ListBucketResult" else { return nil }
        var page = ListPage()
        page.keys = collector.values["ListBucketResult/Contents/Key"] ?? []
        let etags = collector.values["ListBucketResult/Contents/ETag"] ?? []
        page.etags = etags.count == page.keys.count ? etags : []
        page.commonPrefixes = collector.values["ListBucketResult/CommonPrefixes/Prefix"] ?? []
        page.isTruncated = collector.values["ListBucketResult/IsTruncated"]?.first == "true"
        page.nextContinuationToken = collector.values["ListBucketResult/NextContinuationToken"]?.first
        return page
    }

    /// The bytes to give `XMLParser`, or nil for a body it must never see: Foundation's parser on
    /// Linux traps (kills the process) on a tag or attribute name that is not valid UTF-8, so
    /// only valid UTF-8 without NUL bytes goes in, its XML declaration cut so no other encoding
    /// is declared, and no DOCTYPE (S3 sends none; no entity expansion).
    static func parseable(_ body: [UInt8]) -> [UInt8]? {
        guard !body.contains(0), let text = String(validating: body, as: UTF8.self) else { return nil }
        var rest = Substring(text)
        if rest.hasPrefix("\u{FEFF}") { rest = rest.dropFirst() }
        if rest.hasPrefix("<?xml") {
            guard let end = rest.range(of: "?>") else { return nil }
            rest = rest[end.upperBound...]
        }
        guard !rest.contains("<!DOCTYPE"), !rest.contains("<!ENTITY") else { return nil }
        return Array(rest.utf8)
    }

    /// Collects the text of elements at the given slash-separated paths from the root.
    final class Collector: NSObject, XMLParserDelegate {
        let paths: Set<String>
        var values: [String: [String]] = [:]
        var root: String?
        /// Whether the root element was closed: a cut document is not a document.
        private var complete = false
        private var stack: [String] = []
        private var text = ""

        init(paths: Set<String>) { self.paths = paths }

        func parse(_ body: [UInt8]) -> Bool {
            guard let document = S3XML.parseable(body) else { return false }
            let parser = XMLParser(data: Data(document))
            parser.delegate = self
            parser.shouldResolveExternalEntities = false
            return parser.parse() && root != nil && complete
        }

        func parser(
            _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
            qualifiedName qName: String?, attributes attributeDict: [String: String] = [:]
        ) {
            if stack.isEmpty { root = elementName }
            stack.append(elementName)
            text = ""
        }

        func parser(_ parser: XMLParser, foundCharacters string: String) { text += string }

        func parser(
            _ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName qName: String?
        ) {
            let path = stack.joined(separator: "/")
            if paths.contains(path) { values[path, default: []].append(text) }
            if !stack.isEmpty { stack.removeLast() }
            if stack.isEmpty { complete = true }
            text = ""
        }
    }
}
