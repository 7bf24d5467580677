import NotesCore

/// A member's role in a shared place (SYNC-FORMAT "Shared containers", Roles).
public enum ShareRole: String, Sendable, CaseIterable, Comparable {
    case owner
    case admin
    case readWrite = "read-write"
    case readOnly = "read-only"

    /// Whether this role may write notes (rule 20): owner, admin, read-write.
    public var canWrite: Bool { self != .readOnly }
    /// Whether this role may sign membership entries and key boxes (rules 18, 19): owner, admin.
    public var canInvite: Bool { self == .owner || self == .admin }

    public static func < (lhs: ShareRole, rhs: ShareRole) -> Bool {
        allCases.firstIndex(of: lhs) ?? 0 < allCases.firstIndex(of: rhs) ?? 0
    }
}

/// A member's status as a membership entry states it.
public enum MemberStatus: String, Sendable, CaseIterable {
    case invited, accepted, removed
}

/// One line of a membership entry: who (their identity code), their role and status, and for a
/// removed member the cutoff of rule 20 (per device, the last seq of theirs still accepted).
public struct ShareMember: Sendable, Equatable {
    public static let maxCutoffDevices = 1024

    public var code: IdentityCode
    public var role: ShareRole
    public var status: MemberStatus
    /// Present exactly when `status` is `removed`.
    public var cutoff: [String: Int64]?

    public init(code: IdentityCode, role: ShareRole, status: MemberStatus, cutoff: [String: Int64]? = nil) {
        self.code = code
        self.role = role
        self.status = status
        self.cutoff = status == .removed ? (cutoff ?? [:]) : nil
    }

    public var id: String { code.memberID }

    /// Whether the member may write notes now: a writing role, not removed.
    public var canWrite: Bool { role.canWrite && status != .removed }
    /// Whether the member may sign entries and key boxes now: owner or admin, not removed.
    public var canInvite: Bool { role.canInvite && status != .removed }

    var json: JSONValue {
        var object: [String: JSONValue] = [
            "code": .string(code.text), "id": .string(id), "role": .string(role.rawValue),
            "status": .string(status.rawValue),
        ]
        if let cutoff { object["cutoff"] = .object(cutoff.mapValues { .int($0) }) }
        return .object(object)
    }

    /// A member line; `checked` holds the identity codes already verified while reading one log
    /// (each entry lists every member again: each code's signature is verified once, not once per
    /// entry).
    init(json: JSONValue, checked: inout [String: IdentityCode]) throws(ShareError) {
        func malformed(_ why: String) -> ShareError { ShareError(.malformed, "a member line \(why)") }
        guard case .object(let fields) = json, let codeText = json["code"]?.stringValue,
            let id = json["id"]?.stringValue, let role = json["role"]?.stringValue.flatMap(ShareRole.init),
            let status = json["status"]?.stringValue.flatMap(MemberStatus.init)
        else { throw malformed("lacks its code, id, role or status") }
        guard fields.count == (status == .removed ? 5 : 4) else {
            throw malformed("has extra fields, or a cutoff where none belongs or none where one does")
        }
        let code: IdentityCode
        if let known = checked[codeText] {
            code = known
        } else {
            do {
                code = try IdentityCode(text: codeText)
            } catch {
                throw malformed("holds an identity code that does not check out (\(error))")
            }
            checked[codeText] = code
        }
        guard code.text == codeText, code.memberID == id else { throw malformed("has an id that is not its code's") }
        var cutoff: [String: Int64]?
        if status == .removed {
            guard case .object(let devices) = json["cutoff"], devices.count <= Self.maxCutoffDevices else {
                throw malformed("is removed without a cutoff object")
            }
            var read: [String: Int64] = [:]
            for (device, seq) in devices {
                guard DeviceID(device) != nil, let seq = seq.intValue, (0...CloudLayout.maxSeq).contains(seq) else {
                    throw malformed("has a cutoff that is not device ids and seqs")
                }
                read[device] = seq
            }
            cutoff = read
        }
        self.init(code: code, role: role, status: status, cutoff: cutoff)
    }
}
