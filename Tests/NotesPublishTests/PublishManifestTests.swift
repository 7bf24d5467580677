import Foundation
import Testing

@testable import NotesPublish

struct PublishManifestTests {
    @Test func aManifestRoundTripsAndNamesWhatASiteNoLongerHas() throws {
        let manifest = PublishManifest(files: ["notes/b.html", "index.html", "notes/a.html"])
        #expect(PublishManifest.decode(manifest.encoded()) == manifest)
        let site = PublishedSite(files: [
            .init(path: "index.html", content: .bytes([])), .init(path: "notes/a.html", content: .bytes([])),
        ])
        #expect(manifest.removed(by: site) == ["notes/b.html"])
    }

    @Test func aManifestThatNamesAPathOutsideTheFolderIsNotOne() {
        for path in ["../x", "/etc/passwd", "a/../../x", "", "a//b", "./a"] {
            let data = Data("{\"version\":1,\"files\":[\"\(path)\"]}".utf8)
            #expect(PublishManifest.decode(data) == nil, "\(path)")
        }
        #expect(PublishManifest.decode(Data("{\"version\":2,\"files\":[]}".utf8)) == nil)
        #expect(PublishManifest.decode(Data("not json".utf8)) == nil)
    }
}
