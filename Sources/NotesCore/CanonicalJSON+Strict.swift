import Foundation

extension JSONValue {
    /// What JSONDecoder accepts but the canonical form (or JSON itself) does not: a number with a
    /// fraction or an exponent (`1.0` would become the integer 1), a trailing comma, and a key
    /// that appears twice in one object (one value would be dropped silently, and two readers
    /// could disagree on which). nil when there is none of these.
    static func strictnessProblem(in data: Data) -> String? {
        let bytes = [UInt8](data)
        // One entry per open container: the keys seen so far for an object, nil for an array.
        var containers: [Set<String>?] = []
        var lastSignificant: UInt8 = 0
        var i = 0
        func isSpace(_ b: UInt8) -> Bool { b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0D }
        while i < bytes.count {
            let b = bytes[i]
            if isSpace(b) {
                i += 1
                continue
            }
            switch b {
            case UInt8(ascii: "\""):
                let start = i
                var escaped = false
                i += 1
                while i < bytes.count, bytes[i] != UInt8(ascii: "\"") {
                    if bytes[i] == UInt8(ascii: "\\") { escaped = true; i += 1 }
                    i += 1
                }
                i = min(i + 1, bytes.count)
                var next = i
                while next < bytes.count, isSpace(bytes[next]) { next += 1 }
                if next < bytes.count, bytes[next] == UInt8(ascii: ":"), let last = containers.last, var keys = last {
                    let raw = bytes[(start + 1)..<max(start + 1, i - 1)]
                    let key: String
                    if escaped {
                        guard let decoded = try? JSONDecoder().decode([String].self, from: Data([UInt8(ascii: "[")] + bytes[start..<i] + [UInt8(ascii: "]")])),
                            let first = decoded.first
                        else { return nil }  // malformed: JSONDecoder reports it
                        key = first
                    } else {
                        key = String(decoding: raw, as: UTF8.self)
                    }
                    if !keys.insert(key).inserted { return "the key \"\(key)\" appears twice in one object" }
                    containers[containers.count - 1] = keys
                }
                lastSignificant = b
                continue
            case UInt8(ascii: "{"):
                containers.append([])
            case UInt8(ascii: "["):
                containers.append(nil)
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                if lastSignificant == UInt8(ascii: ",") { return "a trailing comma before \(Character(Unicode.Scalar(b)))" }
                if !containers.isEmpty { containers.removeLast() }
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                let start = i
                while i < bytes.count, "0123456789+-.eE".utf8.contains(bytes[i]) { i += 1 }
                let token = bytes[start..<i]
                if token.contains(where: { $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "e") || $0 == UInt8(ascii: "E") }) {
                    return "\(String(decoding: token, as: UTF8.self)) is not an integer; the canonical form has no fractions or exponents"
                }
                lastSignificant = b
                continue
            default:
                break
            }
            lastSignificant = b
            i += 1
        }
        return nil
    }
}
