import Foundation
import Testing

/// A published site in a real browser (issue 26): Chromium (Debian's package) loads every page
/// from a loopback HTTP server this test starts on the site's folder. Every request must be
/// answered (the server's log has no 404), the console must stay silent (a Content Security
/// Policy violation would mean a note tried to load or run something), links and backlinks must
/// lead to the right pages, the search box must find a note, and hostile notes must show as
/// text. Chromium missing is a failure, not a skip: CI installs it (`.ci/run`).
@Suite(.serialized) struct PublishBrowserTests {
    static let chromium = "/usr/bin/chromium"

    /// A page as the browser left it after loading (`--dump-dom`), and what it said on stderr.
    struct Loaded {
        var dom: String
        var console: [String]
    }

    /// Loads `url` in headless Chromium with a fresh profile and no network of its own.
    static func load(_ url: String, cli: CLIRunner) throws -> Loaded {
        let profile = cli.home.appendingPathComponent("chromium-\(UUID().uuidString)")
        let result = try cli.runProgram(
            chromium,
            [
                "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking",
                "--disable-component-update", "--disable-sync", "--disable-default-apps", "--enable-logging=stderr",
                "--v=0", "--user-data-dir=\(profile.path)", "--dump-dom", url,
            ])
        #expect(result.status == 0, "chromium failed on \(url): \(result.stderr)")
        let console = result.stderr.split(separator: "\n").map(String.init).filter { $0.contains(":CONSOLE") }
        return Loaded(dom: result.stdout, console: console)
    }

    /// `href` values of the `<a>` elements of `dom` with `class`, in order.
    static func links(_ dom: String, inside marker: String? = nil) -> [(href: String, text: String)] {
        var text = Substring(dom)
        if let marker, let start = dom.range(of: marker) { text = dom[start.upperBound...] }
        var found: [(String, String)] = []
        while let open = text.range(of: "<a ") {
            guard let href = text.range(of: "href=\"", range: open.upperBound..<text.endIndex),
                let hrefEnd = text[href.upperBound...].firstIndex(of: "\""),
                let tagEnd = text[hrefEnd...].firstIndex(of: ">"),
                let close = text.range(of: "</a>", range: tagEnd..<text.endIndex)
            else { break }
            found.append(
                (String(text[href.upperBound..<hrefEnd]), String(text[text.index(after: tagEnd)..<close.lowerBound])))
            text = text[close.upperBound...]
        }
        return found
    }

    /// The `<h1 class="title">` of a note page.
    static func title(_ dom: String) -> String? {
        guard let start = dom.range(of: "<h1 class=\"title\">"),
            let end = dom.range(of: "</h1>", range: start.upperBound..<dom.endIndex)
        else { return nil }
        return String(dom[start.upperBound..<end.lowerBound])
    }

    @Test func aPublishedSiteWorksInARealBrowserAndHostileNotesStayText() throws {
        try #require(
            FileManager.default.isExecutableFile(atPath: Self.chromium),
            "chromium is not installed: `apt-get install chromium` (Debian's package; .ci/run installs it)")
        let cli = try CLIRunner()
        defer { cli.cleanUp() }
        try cli.cn("notebook", "create", "Public")
        try cli.cn("notebook", "create", "Private")
        try cli.add("Secret plan", body: "do not publish", "--notebook", "Private")
        let alpha = try cli.add(
            "Alpha",
            body:
                "# Alpha\n\nSee [[Beta]] and [[Secret plan]].\n\n- [x] done\n- [ ] open\n\n| a | b |\n|---|---|\n| 1 | 2 |",
            "--notebook", "Public")
        let beta = try cli.add("Beta", body: "Beta mentions zebracorn.\n\n![dot](dot.png)", "--notebook", "Public")
        let png = cli.home.appendingPathComponent("dot.png")
        try Data(
            base64Encoded:
                "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg=="
        )?.write(to: png)
        #expect(try cli.cn("attach", "Beta", png.path).status == 0)
        let hostileBody = """
            <script>document.title='pwned'</script>
            <img src=x onerror="document.body.appendChild(document.createElement('blink'))">
            [click me](javascript:document.body.appendChild(document.createElement('marquee')))
            <svg onload="document.title='svg'"></svg>
            """
        let hostile = try cli.add(
            "<b>Bold</b><script>document.title='title'</script>", body: hostileBody, "--notebook", "Public", "--tag",
            "<i>tag</i>")
        let site = cli.home.appendingPathComponent("site")
        let published = try cli.cn("publish", "Public", site.path)
        #expect(published.status == 0, "\(published.stderr)")

        let server = try LoopbackServer(directory: site, cli: cli)
        defer { server.stop() }
        let base = "http://127.0.0.1:\(server.port)/"

        // The index: every note, and the search box finds one by a word of its body.
        let index = try Self.load(base + "index.html", cli: cli)
        let pages = Self.links(index.dom, inside: "<section class=\"notebook\">").map(\.href)
        #expect(pages.count == 3)
        let search = try Self.load(base + "index.html?q=zebracorn", cli: cli)
        let results = Self.links(search.dom, inside: "<ul id=\"results\">")
        #expect(results.first?.text == "Beta")
        #expect(results.first?.href == "notes/beta-\(beta.prefix(8)).html")
        #expect(search.dom.contains("<p id=\"search-status\">1 note matches.</p>"))

        // Every page: its links lead to the right pages, the unpublished note is text only.
        var loaded: [String: Loaded] = [:]
        for page in pages { loaded[page] = try Self.load(base + page, cli: cli) }
        let alphaPage = try #require(loaded["notes/alpha-\(alpha.prefix(8)).html"])
        let toBeta = Self.links(alphaPage.dom).first { $0.text == "Beta" }
        #expect(toBeta?.href == "beta-\(beta.prefix(8)).html")
        let betaPage = try #require(loaded["notes/" + (toBeta?.href ?? "")])
        #expect(Self.title(betaPage.dom) == "Beta")
        #expect(alphaPage.dom.contains("<span class=\"unpublished\">Secret plan</span>"))
        #expect(alphaPage.dom.contains("<input type=\"checkbox\" checked=\"\" disabled=\"\"> done"))
        #expect(alphaPage.dom.contains("<td>1</td>"))
        // Beta's backlink leads back to Alpha.
        let back = Self.links(betaPage.dom, inside: "<section class=\"backlinks\">")
        #expect(back.map(\.text) == ["Alpha"])
        #expect(Self.title(try Self.load(base + "notes/" + (back.first?.href ?? ""), cli: cli).dom) == "Alpha")
        #expect(betaPage.dom.contains("<img src=\"beta-\(beta.prefix(8))/dot.png\" alt=\"dot\">"))

        // The hostile note: its text is on the page as text, and none of it ran.
        let hostilePage = try #require(
            loaded["notes/b-bold-b-script-document-title-title-script-\(hostile.prefix(8)).html"])
        #expect(
            hostilePage.dom.contains(
                "<title>&lt;b&gt;Bold&lt;/b&gt;&lt;script&gt;document.title='title'&lt;/script&gt; · Notes</title>"))
        #expect(hostilePage.dom.contains("&lt;script&gt;document.title='pwned'&lt;/script&gt;"))
        #expect(hostilePage.dom.contains("&lt;img src=x onerror=\"document.body.appendChild"))
        #expect(hostilePage.dom.contains("<span class=\"refused\">click me</span>"))
        #expect(hostilePage.dom.contains("#&lt;i&gt;tag&lt;/i&gt;"))
        for dom in loaded.values.map(\.dom) + [index.dom, search.dom] {
            #expect(!dom.contains("<blink") && !dom.contains("<marquee") && !dom.contains("<svg"))
            #expect(!dom.contains("pwned</title>") && !dom.contains("<title>svg"))
        }

        // Nothing failed to load, nothing was blocked, nothing came from elsewhere.
        for page in loaded.values + [index, search] { #expect(page.console == [], "console: \(page.console)") }
        let requests = server.requests()
        #expect(requests.contains { $0.path == "/notes/beta-\(beta.prefix(8))/dot.png" && $0.status == 200 })
        #expect(requests.contains { $0.path == "/search.js" && $0.status == 200 })
        #expect(requests.filter { $0.status != 200 && $0.status != 304 }.isEmpty, "\(requests)")
        for file in try FileManager.default.subpathsOfDirectory(atPath: site.path) where !file.hasSuffix(".png") {
            let text = (try? String(contentsOfFile: site.path + "/" + file, encoding: .utf8)) ?? ""
            #expect(!text.contains("http://") && !text.contains("https://") && !text.contains("//cdn"), "\(file)")
        }
    }
}

/// `python3 -m http.server` on 127.0.0.1 (a port the system picks) serving one folder, and the
/// requests it logged. Loopback only: the browser is pointed at nothing else.
final class LoopbackServer {
    struct Request: Equatable {
        var path: String
        var status: Int
    }

    let process = Process()
    let port: Int
    private let log: URL

    init(directory: URL, cli: CLIRunner) throws {
        log = cli.home.appendingPathComponent("http-\(UUID().uuidString).log")
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        let output = Pipe()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [
            "python3", "-u", "-m", "http.server", "0", "--bind", "127.0.0.1", "--directory", directory.path,
        ]
        process.standardOutput = output
        process.standardError = try FileHandle(forWritingTo: log)
        try process.run()
        // The first line says the port: "Serving HTTP on 127.0.0.1 port 40123 (http://…) ...".
        var text = ""
        let deadline = Date().addingTimeInterval(30)
        while !text.contains(" port "), Date() < deadline {
            let data = output.fileHandleForReading.availableData
            if data.isEmpty { break }
            text += String(decoding: data, as: UTF8.self)
        }
        let words = text.split(separator: " ")
        guard let index = words.firstIndex(of: "port"), index + 1 < words.count, let port = Int(words[index + 1]) else {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            throw CocoaError(
                .fileReadUnknown, userInfo: [NSLocalizedDescriptionKey: "the HTTP server did not start: \(text)"])
        }
        self.port = port
    }

    /// Every request logged so far: `"GET /path HTTP/1.1" 200 -`.
    func requests() -> [Request] {
        let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").compactMap { line in
            guard let open = line.range(of: "\"GET "),
                let end = line.range(of: " HTTP/", range: open.upperBound..<line.endIndex)
            else { return nil }
            let after = line[end.upperBound...].split(separator: " ")
            guard after.count >= 2, let status = Int(after[1]) else { return nil }
            return Request(path: String(line[open.upperBound..<end.lowerBound]), status: status)
        }
    }

    func stop() {
        // SIGKILL: the child inherits the test runner's blocked signals, SIGTERM among them.
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }
}
