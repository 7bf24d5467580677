import Testing

@testable import CloudFolder

@Suite struct SalvageNameTests {
    @Test(arguments: [
        ("000000000007 (conflicted copy).json", SalvageName.Replicator.conflictedCopy),
        ("000000000007 (Bob's conflicted copy 2024-01-01).json", .conflictedCopy),
        ("000000000007 (conflicted copy 2024-01-01 120000).json", .conflictedCopy),
        ("000000000007.sync-conflict-20240101-120000-ABCDEFG.json", .syncthingConflict),
        ("000000000007 2.json", .numberedCopy),
        ("000000000007 13.json", .numberedCopy),
    ])
    func renamedCopiesAreRecognised(name: String, replicator: SalvageName.Replicator) {
        #expect(SalvageName(name) == SalvageName(original: "000000000007.json", replicator: replicator))
    }

    @Test(arguments: [
        "000000000007.json", "desktop.ini", ".DS_Store", ".000000000007.json.tmp-aaaaaaaaaaaaaaaa-1f",
        "000000000007 (copy).json", " 2.json", "notes.txt", "000000000007 two.json",
    ])
    func otherNamesAreNotSalvage(name: String) {
        #expect(SalvageName(name) == nil)
    }
}
