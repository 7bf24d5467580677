import NotesCore

/// A zone's change token: the highest contiguous seq read from each device (SYNC-FORMAT rule 4).
///
/// A version vector, so fetch probes `seq + 1` per device and costs what changed. A device
/// absent from the vector has been read up to 0 (nothing).
public struct ChangeToken: Sendable, Equatable, Hashable {
    /// Devices read up to a seq ≥ 1; a device at 0 has no entry, so equal vectors are equal.
    public private(set) var seqByDevice: [DeviceID: Int64]

    public init(_ seqByDevice: [DeviceID: Int64] = [:]) { self.seqByDevice = seqByDevice.filter { $0.value > 0 } }

    public static let empty = ChangeToken()

    /// The seqs a log file's name can hold (`CloudLayout.numberWidth` digits). A token read
    /// with a seq outside is damaged (ARCHITECTURE §7): fetch probes `seq + 1`, which must not
    /// overflow.
    public static let seqRange: ClosedRange<Int64> = 0...CloudLayout.maxSeq

    public subscript(device: DeviceID) -> Int64 {
        get { seqByDevice[device] ?? 0 }
        set { seqByDevice[device] = newValue > 0 ? newValue : nil }
    }

    /// True when this token has read at least everything `other` has.
    public func covers(_ other: ChangeToken) -> Bool {
        other.seqByDevice.allSatisfy { self[$0.key] >= $0.value }
    }

    /// `{"<dev>": seq, ...}`, for the engine's state serialization and device files.
    public var json: JSONValue {
        .object(Dictionary(uniqueKeysWithValues: seqByDevice.map { ($0.key.rawValue, JSONValue.int($0.value)) }))
    }

    public init(json: JSONValue) throws {
        guard case .object(let object) = json else {
            throw CloudError(.invalidArguments, "a change token is not an object")
        }
        var vector: [DeviceID: Int64] = [:]
        for (key, value) in object {
            guard let device = DeviceID(key), let seq = value.intValue, Self.seqRange.contains(seq) else {
                throw CloudError(.invalidArguments, "a change token entry is malformed")
            }
            vector[device] = seq
        }
        self.init(vector)
    }
}
