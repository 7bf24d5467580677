import Glibc
import Testing

@testable import CloudFolder

/// The power-loss model of the twin itself: what a careless writer would lose.
@Suite struct InMemoryFileIOTests {
    @Test func dataNotFsyncedIsLostAndARenameNotFsyncedIsUndone() throws {
        let io = InMemoryFileIO()
        io.plantDirectory("/d")
        let file = try io.createExclusive("/d/.x.tmp")
        try io.write(file, Array("hello".utf8))
        try io.close(file)
        try io.fsyncDirectory("/d")  // the temp name is durable, its data is not
        try io.rename("/d/.x.tmp", to: "/d/x")
        io.powerLoss()
        #expect(io.contents("/d/x") == nil)
        #expect(io.contents("/d/.x.tmp") == [])
    }

    @Test func fsyncedDataAndAFsyncedFolderSurvive() throws {
        let io = InMemoryFileIO()
        io.plantDirectory("/d")
        let file = try io.createExclusive("/d/.x.tmp")
        try io.write(file, Array("hello".utf8))
        try io.fsync(file)
        try io.close(file)
        try io.rename("/d/.x.tmp", to: "/d/x")
        try io.fsyncDirectory("/d")
        io.powerLoss()
        #expect(io.contents("/d/x") == Array("hello".utf8))
        #expect(io.allPaths() == ["/", "/d", "/d/x"])
    }

    @Test func aFolderWhoseParentWasNotFsyncedVanishesWithItsFiles() throws {
        let io = InMemoryFileIO()
        io.plantDirectory("/d")
        try io.makeDirectory("/d/sub")
        let file = try io.createExclusive("/d/sub/x")
        try io.fsync(file)
        try io.fsyncDirectory("/d/sub")
        io.powerLoss()
        #expect(io.allPaths() == ["/", "/d"])
    }

    @Test func anInjectedFaultFiresOnceAndDoesNothing() throws {
        let io = InMemoryFileIO()
        io.plantDirectory("/d")
        io.fail(.makeDirectory, errno: EACCES)
        #expect(throws: CloudError.self) { try io.makeDirectory("/d/x") }
        #expect(io.allPaths() == ["/", "/d"])
        try io.makeDirectory("/d/x")
        #expect(io.allPaths() == ["/", "/d", "/d/x"])
    }

    @Test func aCrashedProcessDoesNothingUntilRestarted() throws {
        let io = InMemoryFileIO()
        io.plantDirectory("/d")
        io.crash(at: .makeDirectory)
        #expect(throws: InMemoryFileIO.SimulatedCrash.self) { try io.makeDirectory("/d/x") }
        #expect(throws: InMemoryFileIO.SimulatedCrash.self) { try io.makeDirectory("/d/y") }
        io.restart()
        try io.makeDirectory("/d/y")
        #expect(io.allPaths() == ["/", "/d", "/d/y"])
    }
}
