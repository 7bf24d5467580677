import CloudFolder
import Foundation
import NotesCore
import NotesTestSupport
import Testing

/// `moved.json` (`ForwardPointer`) and following a chain of them (`ForwardChain`), SYNC-FORMAT
/// "Moving": strict, sealed in an encrypted container, checked at every hop.
@Suite("forward pointers")
struct ForwardPointerTests {
    static let containerID = "2aa3300b-2b71-4343-a20d-672b15ad9a9d"

    /// Places `/o`, `/p`, … on one in-memory disk, each holding the container `containerID`.
    static func places(_ names: [String], seal: FolderSeal? = nil) throws -> (InMemoryFileIO, [DirectoryCloudFolder]) {
        let io = InMemoryFileIO()
        let folders = try names.map { name -> DirectoryCloudFolder in
            io.plantDirectory("/" + name)
            let folder = DirectoryCloudFolder(root: "/" + name, io: io, seal: seal)
            _ = try folder.createContainer(
                device: Fixtures.deviceA, hlc: Fixtures.hlc, encrypted: seal != nil, id: containerID)
            return folder
        }
        return (io, folders)
    }

    static func follow(_ folders: [DirectoryCloudFolder], from index: Int = 0) throws -> ForwardChain.End {
        try ForwardChain.follow(from: folders[index], name: folders[index].layout.root, containerID: containerID) {
            place in
            guard let folder = folders.first(where: { $0.layout.root == place }) else {
                throw CloudError(.unknownItem, "no such place")
            }
            return folder
        }
    }

    @Test("a pointer round-trips; a chain is followed to its end; the pointer stops the engine at the old place")
    func chain() throws {
        let (_, folders) = try Self.places(["o", "p", "q"])
        try folders[0].writeForwardPointer(
            ForwardPointer(place: "/p", containerID: Self.containerID), device: Fixtures.deviceA, hlc: Fixtures.hlc)
        try folders[1].writeForwardPointer(
            ForwardPointer(place: "/q", containerID: Self.containerID), device: Fixtures.deviceA, hlc: Fixtures.hlc)
        #expect(
            folders[0].readForwardPointer(containerID: Self.containerID)
                == .valid(ForwardPointer(place: "/p", containerID: Self.containerID)))
        let end = try Self.follow(folders)
        #expect(end.places == ["/p", "/q"])
        #expect(end.folder.layout.root == "/q")
        #expect(end.ignored == nil)
        #expect(throws: CloudError.self) { try folders[0].openContainer(boundTo: Self.containerID) }
        #expect(try folders[2].openContainer(boundTo: Self.containerID).containerID == Self.containerID)
        // Written once: another place is refused, the same one is fine.
        #expect(throws: CloudError.self) {
            try folders[0].writeForwardPointer(
                ForwardPointer(place: "/q", containerID: Self.containerID), device: Fixtures.deviceA,
                hlc: Fixtures.hlc)
        }
    }

    @Test("a loop, a pointer to a place without the container, or to another account's, is refused, never followed")
    func refusedChains() throws {
        let (io, folders) = try Self.places(["o", "p"])
        try folders[0].writeForwardPointer(
            ForwardPointer(place: "/p", containerID: Self.containerID), device: Fixtures.deviceA, hlc: Fixtures.hlc)
        io.plantFile("/p/moved.json", Array(#"{"movedTo":"\/o"}"#.utf8))
        let loop = #expect(throws: CloudError.self) { try Self.follow(folders) }
        #expect(loop?.message.contains("form a loop: /o → /p → /o") == true, "\(loop?.message ?? "")")

        io.plantFile("/p/moved.json", Array(#"{"movedTo":"\/nowhere"}"#.utf8))
        let missing = #expect(throws: CloudError.self) { try Self.follow(folders) }
        #expect(missing?.message.contains("cannot be opened") == true)

        io.plantDirectory("/x")
        let other = DirectoryCloudFolder(root: "/x", io: io)
        _ = try other.createContainer(device: Fixtures.deviceB, hlc: Fixtures.hlc, encrypted: false)
        io.plantFile("/p/moved.json", Array(#"{"movedTo":"\/x"}"#.utf8))
        let another = #expect(throws: CloudError.self) {
            try ForwardChain.follow(from: folders[0], name: "/o", containerID: Self.containerID) { place in
                place == "/p" ? folders[1] : other
            }
        }
        #expect(another?.message.contains("another account") == true, "\(another?.message ?? "")")
    }

    @Test("pointers that do not check out are refused with a reason and not followed")
    func refusedPointers() throws {
        let (io, folders) = try Self.places(["o", "p"])
        let hostile: [(String, String)] = [
            (#"{"movedTo":"relative/path"}"#, "not a valid place"),
            (#"{"movedTo":"/p/../etc"}"#, "not a valid place"),
            (#"{"movedTo":"/p\n"}"#, "not a valid place"),
            (#"{"movedTo":"/p","extra":1}"#, "neither"),
            (#"{"movedTo":"/p","movedTo":"/q"}"#, "does not check out"),
            (#"{"movedTo":1.0}"#, "does not check out"),
            ("[\"/p\"]", "does not check out"),
            (String(repeating: "x", count: 5000), "too large"),
        ]
        for (bytes, reason) in hostile {
            io.plantFile("/o/moved.json", Array(bytes.utf8))
            guard case .refused(let why) = folders[0].readForwardPointer(containerID: Self.containerID) else {
                Issue.record("accepted: \(bytes)")
                continue
            }
            #expect(why.contains(reason), "\(bytes): \(why)")
            let end = try Self.follow(folders)
            #expect(end.places.isEmpty && end.ignored?.contains("is not followed") == true)
        }
        // Another container's pointer does not redirect this one.
        try io.remove("/o/moved.json")
        try folders[0].writeForwardPointer(
            ForwardPointer(place: "/p", containerID: "another"), device: Fixtures.deviceA, hlc: Fixtures.hlc)
        #expect(
            folders[0].readForwardPointer(containerID: Self.containerID)
                == .refused("it belongs to another container (another)"))
    }

    @Test(
        "in an encrypted container the pointer is sealed: a plain or an older build's pointer, or another key's, is refused"
    )
    func sealedPointers() throws {
        let seal = FolderSeal.withRandomKey(containerID: Self.containerID)
        let (io, folders) = try Self.places(["o", "p"], seal: seal)
        try folders[0].writeForwardPointer(
            ForwardPointer(place: "/p", containerID: Self.containerID), device: Fixtures.deviceA, hlc: Fixtures.hlc)
        let written = try io.read("/o/moved.json", maxBytes: 8192)
        #expect(!String(decoding: written, as: UTF8.self).contains("/p"), "the place is not readable without the key")
        #expect(try Self.follow(folders).places == ["/p"])
        let withoutKey = DirectoryCloudFolder(root: "/o", io: io)
        #expect(withoutKey.readForwardPointer(containerID: Self.containerID) != .none)
        if case .valid = withoutKey.readForwardPointer(containerID: Self.containerID) { Issue.record("read unsealed") }
        let otherKey = DirectoryCloudFolder(
            root: "/o", io: io, seal: FolderSeal.withRandomKey(containerID: Self.containerID))
        #expect(
            otherKey.readForwardPointer(containerID: Self.containerID)
                == .refused("it is not sealed with this encrypted container's key"))
        let plainEnvelope = DirectoryCloudFolder(root: "/q", io: io)
        io.plantDirectory("/q")
        try plainEnvelope.writeForwardPointer(
            ForwardPointer(place: "/p", containerID: Self.containerID), device: Fixtures.deviceA, hlc: Fixtures.hlc)
        for bytes in [try io.read("/q/moved.json", maxBytes: 8192), Array(#"{"movedTo":"\/p"}"#.utf8)] {
            io.plantFile("/o/moved.json", bytes)
            guard case .refused = folders[0].readForwardPointer(containerID: Self.containerID) else {
                Issue.record("an unsealed pointer redirected an encrypted container")
                continue
            }
        }
    }

    @Test func damagedPointersNeverCrashAndNeverNameAnInvalidPlace() throws {
        let run = FuzzRun("forward pointers", defaultIterations: 5_000)
        var rng = SeededRandom(seed: run.seed)
        let envelope = Envelope(
            kind: .moved, device: Fixtures.deviceA.rawValue, hlc: Fixtures.hlc,
            body: .object(["containerID": .string(Self.containerID), "movedTo": .string("/p/q")]))
        let corpus = [envelope.encoded, Array(#"{"movedTo":"\/p\/q"}"#.utf8), Array(#"{"movedTo":"s3://b/p"}"#.utf8)]
        let mutator = ByteMutator(corpus: corpus, extraTokens: [Array("..".utf8), Array("\\u0000".utf8)])
        var valid = 0
        for iteration in 0..<run.iterations {
            let bytes = mutator.mutate(corpus.randomElement(using: &rng)!, using: &rng)
            for plain in [true, false] {
                if case .valid(let pointer) = ForwardPointer.parse(bytes, containerID: Self.containerID, plain: plain) {
                    #expect(ForwardPointer.isValidPlace(pointer.place), "\(run.context(iteration))")
                    #expect(plain || pointer.containerID == Self.containerID, "\(run.context(iteration))")
                    valid += 1
                }
            }
        }
        print("fuzz forward pointers: \(valid) damaged pointers still named a valid place")
    }
}
