/// The site's fixed files: its style sheet and its search script (plain JavaScript, no
/// library, nothing loaded from elsewhere).
enum SiteAssets {
    /// A 16×16 square in the site's colour (a PNG), so browsers find an icon and ask for no
    /// `/favicon.ico` the site does not have.
    static let icon: [UInt8] = [
        137, 80, 78, 71, 13, 10, 26, 10, 0, 0, 0, 13, 73, 72, 68, 82, 0, 0, 0, 16, 0, 0, 0, 16, 8, 6, 0, 0, 0, 31, 243,
        255, 97, 0, 0, 0, 25, 73, 68, 65, 84, 120, 218, 99, 208, 74, 91, 245, 159, 18, 204, 48, 106, 192, 168, 1, 163,
        6,
        12, 23, 3, 0, 174, 46, 57, 31, 110, 171, 128, 146, 0, 0, 0, 0, 73, 69, 78, 68, 174, 66, 96, 130,
    ]

    static let styleSheet = """
        body { font-family: system-ui, sans-serif; line-height: 1.5; margin: 0 auto; max-width: 46em; padding: 1em; color: #222; }
        header { display: flex; gap: 1em; align-items: center; justify-content: space-between; border-bottom: 1px solid #ddd; }
        header h1 { font-size: 1.3em; }
        input[type=search] { padding: .3em; min-width: 14em; }
        pre { background: #f4f4f4; padding: .6em; overflow-x: auto; }
        code { background: #f4f4f4; }
        table { border-collapse: collapse; }
        th, td { border: 1px solid #ccc; padding: .2em .5em; }
        li.task { list-style: none; }
        .meta, .unpublished, .refused, .image-text { color: #666; }
        .tag { color: #2a6; }
        img { max-width: 100%; }

        """

    /// Reads `?q=` into the box and searches on load and on every key: every word of the query
    /// must be in a note's title, notebook, tags or words. Results are built with DOM calls
    /// (`textContent`), never from HTML text.
    static let searchScript = """
        // The site's offline search over window.CLOUDNOTES_INDEX (search-index.js).
        (function () {
          "use strict";
          var index = window.CLOUDNOTES_INDEX || [];
          var box = document.getElementById("q");
          var results = document.getElementById("results");
          var status = document.getElementById("search-status");
          if (!box || !results || !status) return;
          function fold(s) { return s.normalize("NFD").replace(/[\\u0300-\\u036f]/g, "").toLowerCase(); }
          var texts = index.map(function (e) { return fold([e.t, e.b, e.g.join(" "), e.w].join(" ")); });
          function run() {
            var words = fold(box.value).split(/\\s+/).filter(Boolean);
            while (results.firstChild) results.removeChild(results.firstChild);
            if (words.length === 0) { status.textContent = ""; return; }
            var count = 0;
            for (var i = 0; i < index.length; i++) {
              if (!words.every(function (w) { return texts[i].indexOf(w) >= 0; })) continue;
              count++;
              if (count > 200) continue;
              var item = document.createElement("li");
              var link = document.createElement("a");
              link.href = index[i].u;
              link.textContent = index[i].t;
              item.appendChild(link);
              results.appendChild(item);
            }
            status.textContent = count === 0 ? "No note matches." : count + (count === 1 ? " note matches." : " notes match.");
          }
          var query = new URLSearchParams(window.location.search).get("q");
          if (query) box.value = query;
          box.addEventListener("input", run);
          run();
        })();

        """
}
