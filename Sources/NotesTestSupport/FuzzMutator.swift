import Foundation

/// The decoders' randomized mutation tests (ARCHITECTURE §7, "untrusted bytes never crash a
/// decoder"): where a run's seed and size come from, and how a valid input is damaged.
///
/// `CLOUDNOTES_FUZZ_SEED` replays a run (its seed is printed), `CLOUDNOTES_FUZZ_ITERATIONS`
/// sets how many inputs each test tries, and `CLOUDNOTES_FUZZ_SEED=random` draws a new seed.
/// Without them a test's seed is fixed (from its name), so CI runs the same inputs every time
/// and a red run always replays; longer and other-seeded runs are for the fuzzing sessions.
public struct FuzzRun: Sendable {
    public let name: String
    public let seed: UInt64
    public let iterations: Int

    public init(_ name: String, defaultIterations: Int = 100_000) {
        let environment = ProcessInfo.processInfo.environment
        self.name = name
        switch environment["CLOUDNOTES_FUZZ_SEED"] {
        case "random": seed = UInt64.random(in: 0...UInt64.max)
        case let value?: seed = UInt64(value) ?? Self.stableSeed(name)
        case nil: seed = Self.stableSeed(name)
        }
        iterations = environment["CLOUDNOTES_FUZZ_ITERATIONS"].flatMap { Int($0) } ?? defaultIterations
        print("fuzz \(name): \(iterations) inputs, replay with CLOUDNOTES_FUZZ_SEED=\(seed)")
    }

    /// FNV-1a of the name: the same in every process (`hashValue` is seeded per process).
    static func stableSeed(_ name: String) -> UInt64 {
        name.utf8.reduce(0xcbf2_9ce4_8422_2325) { ($0 ^ UInt64($1)) &* 0x100_0000_01b3 }
    }

    /// For failure messages: which run and input to replay.
    public func context(_ iteration: Int) -> String {
        "fuzz \(name), input \(iteration) (replay: CLOUDNOTES_FUZZ_SEED=\(seed))"
    }
}

/// Damages byte strings the way storage, replication and hostile writers do: bit flips, bytes
/// inserted, deleted or duplicated, truncation, two inputs spliced, and tokens a decoder must
/// survive (64-bit boundaries, 1e309, huge varints and lengths, deep nesting, invalid UTF-8,
/// lone surrogates).
public struct ByteMutator: Sendable {
    /// Inputs to splice with (the valid seeds, usually).
    public var corpus: [[UInt8]]
    /// Tokens inserted or written over bytes.
    public var dictionary: [[UInt8]]

    public init(corpus: [[UInt8]], extraTokens: [[UInt8]] = []) {
        self.corpus = corpus
        dictionary = Self.commonTokens + extraTokens
    }

    /// Tokens that reach the edges of every decoder we have.
    public static let commonTokens: [[UInt8]] = {
        let texts = [
            "9223372036854775807", "-9223372036854775808", "9223372036854775808", "-9223372036854775809",
            "18446744073709551616", "4294967295", "4294967296", "2147483648", "-1", "-0", "0", "00", "1e309",
            "-1e309", "1.5", "1E2", "NaN", "Infinity", "\\ud800", "\\udc00", "\\ud83d\\ude00", "\\ud800\\u0041",
            "\\u0000", "\\u", "\\x", "\"", "\\", "null", "true", "false", ":", ",", "{}", "[]", "\"\":", "\n",
            "\r\n", "\u{FEFF}", "0000000000000000-0000", "9999999999999999-ffff", "aaaaaaaaaaaaaaaa",
            String(repeating: "[", count: 600), String(repeating: "{\"a\":", count: 600),
            String(repeating: "a", count: 5000),
        ]
        var tokens = texts.map { Array($0.utf8) }
        tokens += [
            [0xC0, 0x80], [0xED, 0xA0, 0x80], [0xED, 0xBF, 0xBF], [0xF4, 0x90, 0x80, 0x80], [0xFF], [0xFE], [0x80],
            [0xE2, 0x82], [0xF0, 0x9F, 0x98], [0x00], [0x7F],
            // Varints: the largest 32-bit value, one past it, and runs that never end.
            [0xFF, 0xFF, 0xFF, 0xFF, 0x0F], [0xFF, 0xFF, 0xFF, 0xFF, 0x1F], [0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x01],
            [UInt8](repeating: 0x80, count: 12), [UInt8](repeating: 0xFF, count: 40),
        ]
        for value in [Int64.max, Int64.min, 0, -1, 1 << 40] {
            tokens.append(withUnsafeBytes(of: value.littleEndian) { Array($0) })
        }
        return tokens
    }()

    /// One to four mutations of `input`.
    public func mutate(_ input: [UInt8], using rng: inout SeededRandom) -> [UInt8] {
        var bytes = input
        for _ in 0..<Int.random(in: 1...4, using: &rng) { mutateOnce(&bytes, using: &rng) }
        return bytes
    }

    private func mutateOnce(_ bytes: inout [UInt8], using rng: inout SeededRandom) {
        let position = Int.random(in: 0...bytes.count, using: &rng)
        guard let token = dictionary.randomElement(using: &rng) else { return }
        switch Int.random(in: 0..<11, using: &rng) {
        case 0 where !bytes.isEmpty:  // flip a bit
            bytes[position % bytes.count] ^= 1 << UInt8.random(in: 0..<8, using: &rng)
        case 1 where !bytes.isEmpty:  // a random byte
            bytes[position % bytes.count] = UInt8.random(in: 0...255, using: &rng)
        case 2:  // insert random bytes
            bytes.insert(
                contentsOf: (0..<Int.random(in: 1...4, using: &rng)).map { _ in UInt8.random(in: 0...255, using: &rng)
                }, at: position)
        case 3:  // delete a run
            bytes.removeSubrange(position..<min(bytes.count, position + Int.random(in: 1...16, using: &rng)))
        case 4:  // duplicate a run
            let end = min(bytes.count, position + Int.random(in: 1...64, using: &rng))
            bytes.insert(contentsOf: bytes[position..<end], at: end)
        case 5:  // truncate
            bytes.removeSubrange(position...)
        case 6:  // splice: this input's start, another's end
            let other = corpus.randomElement(using: &rng) ?? []
            bytes = Array(bytes[..<position]) + other[Int.random(in: 0...other.count, using: &rng)...]
        case 7:  // insert a token
            bytes.insert(contentsOf: token, at: position)
        case 8:  // write a token over bytes
            bytes.replaceSubrange(position..<min(bytes.count, position + token.count), with: token)
        case 9:  // replace a run of digits (a number) with a token
            replaceNumber(&bytes, from: position, with: token)
        default:  // replace a string's content (between two quotes) with a token
            replaceString(&bytes, from: position, with: token)
        }
    }

    private func replaceNumber(_ bytes: inout [UInt8], from position: Int, with token: [UInt8]) {
        func isDigit(_ b: UInt8) -> Bool { b >= 0x30 && b <= 0x39 || b == UInt8(ascii: "-") }
        guard let start = bytes[position...].firstIndex(where: isDigit) ?? bytes.firstIndex(where: isDigit) else {
            return
        }
        let end = bytes[start...].firstIndex { !isDigit($0) } ?? bytes.count
        bytes.replaceSubrange(start..<end, with: token)
    }

    private func replaceString(_ bytes: inout [UInt8], from position: Int, with token: [UInt8]) {
        let quote = UInt8(ascii: "\"")
        guard let open = bytes[position...].firstIndex(of: quote) ?? bytes.firstIndex(of: quote),
            let close = bytes[(open + 1)...].firstIndex(of: quote)
        else { return }
        bytes.replaceSubrange((open + 1)..<close, with: token)
    }
}
