/// A set of keys that is cheap to empty and refill, one text after another: a slot belongs
/// to the current fill only when it carries the current generation. (Unsafe buffers: this
/// runs once per byte of every note indexed.)
struct KeySet: ~Copyable {
    /// generation << 32 | key, linear probing.
    private var slots: UnsafeMutableBufferPointer<UInt64>
    private var mask: Int
    private var generation: UInt64 = 1
    private var stored: UnsafeMutableBufferPointer<UInt32>
    private(set) var count = 0

    /// `capacity`: slots to start with, a power of two of at least 2 (the mask of linear
    /// probing and the half of it that holds keys need one).
    init(capacity: Int = 4096) {
        precondition(Self.isValid(capacity: capacity), "KeySet capacity \(capacity) is not a power of two ≥ 2")
        slots = .allocate(capacity: capacity)
        slots.initialize(repeating: 0)
        mask = capacity - 1
        stored = .allocate(capacity: capacity / 2)
    }

    deinit {
        slots.deallocate()
        stored.deallocate()
    }

    static func isValid(capacity: Int) -> Bool { capacity >= 2 && capacity & (capacity - 1) == 0 }

    /// The keys inserted since the last `removeAll`, in insertion order.
    var keys: UnsafeBufferPointer<UInt32> { UnsafeBufferPointer(rebasing: stored[0..<count]) }

    mutating func removeAll() {
        count = 0
        generation += 1
    }

    mutating func insert(_ key: UInt32) {
        let tagged = generation << 32 | UInt64(key)
        var i = Self.hash(key) & mask
        while true {
            let slot = slots[i]
            if slot == tagged { return }
            if slot >> 32 != generation { break }
            i = (i + 1) & mask
        }
        slots[i] = tagged
        stored[count] = key
        count += 1
        if count * 2 >= slots.count { grow() }
    }

    private mutating func grow() {
        let capacity = slots.count * 2
        slots.deallocate()
        slots = .allocate(capacity: capacity)
        slots.initialize(repeating: 0)
        mask = capacity - 1
        let larger = UnsafeMutableBufferPointer<UInt32>.allocate(capacity: capacity / 2)
        _ = larger.initialize(fromContentsOf: stored[0..<count])
        stored.deallocate()
        stored = larger
        for key in stored[0..<count] {
            var i = Self.hash(key) & mask
            while slots[i] >> 32 == generation { i = (i + 1) & mask }
            slots[i] = generation << 32 | UInt64(key)
        }
    }

    private static func hash(_ key: UInt32) -> Int {
        Int(truncatingIfNeeded: (UInt64(key) &* 0x9E37_79B9_7F4A_7C15) >> 40)
    }
}
