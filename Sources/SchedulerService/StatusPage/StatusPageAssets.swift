/// The status page's style and script, served from `/assets/` so the page's Content-Security-Policy can forbid
/// inline code. The script builds every result with `textContent`, never HTML, and links only http(s) URLs: what
/// a source wrote cannot run in an operator's browser.
enum StatusPageAssets {
    static let css = #"""
    :root { color-scheme: light dark; --bad: #c62828; --ok: #2e7d32; --muted: #6b7280; --line: #d1d5db; --card: rgba(127,127,127,.08); }
    * { box-sizing: border-box; }
    body { font: 15px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; margin: 0 auto; padding: 1rem; max-width: 1200px; }
    h1 { font-size: 1.4rem; margin: 0 0 .75rem; } h2 { font-size: 1.1rem; margin: 1.5rem 0 .5rem; }
    .env { font-size: .8rem; font-weight: 600; padding: .1rem .5rem; border-radius: 1rem; background: var(--card); vertical-align: middle; }
    .muted { color: var(--muted); font-size: .85rem; }
    code { font-size: .85rem; word-break: break-word; white-space: pre-wrap; }
    .bad, .error { color: var(--bad); }
    .alert { border-left: 4px solid var(--bad); background: var(--card); padding: .5rem 1rem; margin: 1rem 0; }
    .summary { display: flex; flex-wrap: wrap; gap: .5rem; list-style: none; padding: 0; }
    .summary li { background: var(--card); padding: .5rem 1rem; border-radius: .5rem; }
    .summary a { color: inherit; text-decoration: none; }
    footer { margin: 2rem 0 1rem; }
    table { width: 100%; border-collapse: collapse; }
    th, td { text-align: left; vertical-align: top; padding: .4rem .5rem; border-bottom: 1px solid var(--line); }
    tr.failing td:first-child { box-shadow: inset 3px 0 var(--bad); }
    .gate-on { color: var(--ok); font-weight: 600; } .gate-off { color: var(--muted); font-weight: 600; }
    .paused { font-size: .8rem; font-weight: 600; padding: 0 .4rem; border-radius: 1rem; background: var(--card); border: 1px solid var(--line); }
    tr.paused td:first-child { box-shadow: inset 3px 0 var(--muted); }
    .console { float: right; font-size: .85rem; } form.inline { display: inline; }
    button { font: inherit; padding: .25rem .75rem; border: 1px solid var(--line); border-radius: .4rem; background: var(--card); cursor: pointer; }
    button.danger { border-color: var(--bad); color: var(--bad); }
    .notice { border-left: 4px solid var(--ok); background: var(--card); padding: .5rem 1rem; }
    #actions form { margin: 0 .5rem .75rem 0; } #purge { margin-top: .5rem; } #purge label { display: block; margin-bottom: .25rem; }
    #signin label { display: block; font-weight: 600; margin-bottom: .25rem; } #token { font-size: 1rem; padding: .4rem .6rem; max-width: 100%; }
    dl.facts { display: grid; grid-template-columns: max-content 1fr; gap: .3rem 1rem; margin: 1rem 0; } dl.facts dt { color: var(--muted); } dl.facts dd { margin: 0; }
    svg.trend { max-width: 100%; height: auto; border-bottom: 1px solid var(--line); } svg.trend rect.ok { fill: var(--ok); } svg.trend rect.failed { fill: var(--bad); }
    .columns { display: grid; grid-template-columns: repeat(auto-fit, minmax(min(320px, 100%), 1fr)); gap: 1rem; }
    .columns > div { min-width: 0; } .scroll { overflow-x: auto; }
    #gates td, #experiments td { overflow-wrap: anywhere; }
    .detail { max-width: 32rem; word-break: break-word; }
    #search label { display: block; font-weight: 600; margin-bottom: .25rem; }
    #q { width: 100%; max-width: 36rem; font-size: 1rem; padding: .5rem .75rem; border: 1px solid var(--line); border-radius: .5rem; }
    #results { padding-left: 1.25rem; max-width: 48rem; } #results li { margin: .4rem 0; }
    #results li *, #search-status { unicode-bidi: isolate; }
    td[data-label="Next due"] .muted, td[data-label="Last success"] .muted, td[data-label="Finished"] .muted { white-space: nowrap; }
    #results .title { font-weight: 600; } #results .where { color: var(--muted); font-size: .8rem; }
    #results mark { background: #ffe58a; color: #111; border-radius: 2px; }
    @media (max-width: 760px) {
      table.units thead, table.runs thead { display: none; }
      table.units tr, table.runs tr { display: block; border: 1px solid var(--line); border-radius: .5rem; margin-bottom: .75rem; padding: .25rem .5rem; }
      table.units td, table.runs td { display: grid; grid-template-columns: 7.5rem 1fr; gap: .5rem; border: none; padding: .2rem 0; }
      table.units td::before, table.runs td::before { content: attr(data-label); color: var(--muted); font-size: .8rem; }
      #gates th, #gates td { padding: .3rem .25rem; font-size: .85rem; }
      .console { float: none; margin-bottom: .5rem; }
    }
    """#

    static let javaScript = #"""
    "use strict";
    (function () {
      const box = document.getElementById("q");
      const list = document.getElementById("results");
      const status = document.getElementById("search-status");
      let latest = 0, timer = null;

      // Every page refreshes what it shows live; a unit's page has no search box, and its forms stay as typed.
      setInterval(async function () {
        try {
          const response = await fetch(location.pathname + location.search, { cache: "no-store" });
          if (!response.ok) return;
          const fresh = new DOMParser().parseFromString(await response.text(), "text/html").getElementById("live");
          const live = document.getElementById("live");
          if (fresh && live) live.replaceWith(fresh);
        } catch (_) { /* the next refresh tries again */ }
      }, 30000);
      if (!box) return;

      // `text` as text nodes, with the [start, end) UTF-16 ranges the search matched in <mark> elements: DOM nodes
      // only, never markup, so a hostile text stays text.
      function marked(text, ranges) {
        const fragment = document.createDocumentFragment();
        let at = 0;
        for (const [start, end] of ranges || []) {
          if (start < at || end > text.length || start >= end) continue;
          fragment.append(text.slice(at, start));
          const mark = document.createElement("mark");
          mark.textContent = text.slice(start, end);
          fragment.append(mark);
          at = end;
        }
        fragment.append(text.slice(at));
        return fragment;
      }

      function show(results, query) {
        list.replaceChildren();
        status.textContent = results.total === 0 ? "No item matches “" + query + "”."
          : results.total + (results.totalIsExact ? "" : "+") + " match" + (results.total === 1 ? "" : "es") + " for “" + query + "”";
        for (const hit of results.hits) {
          const item = document.createElement("li");
          // Through /open, which counts the open and redirects only to the schemes the operator allows.
          const link = hit.contentURL ? "/open/" + encodeURIComponent(hit.uniqueIdentifier) + "?q=" + encodeURIComponent(query) : null;
          const title = document.createElement(link ? "a" : "span");
          title.className = "title";
          const highlights = hit.highlights || {};
          if (hit.title) title.append(marked(hit.title, highlights.title));
          else if (hit.displayName) title.append(marked(hit.displayName, highlights.displayName));
          else title.textContent = hit.uniqueIdentifier;
          if (link) { title.href = link; title.rel = "noopener noreferrer"; }
          item.append(title);
          if (hit.snippet) {
            const text = document.createElement("div");
            text.append(marked(hit.snippet.text, hit.snippet.highlights));
            item.append(text);
          }
          const where = document.createElement("div");
          where.className = "where";
          where.textContent = hit.domainIdentifier + " · " + hit.uniqueIdentifier;
          item.append(where);
          list.append(item);
        }
      }

      async function search(query) {
        const ticket = ++latest;
        if (query.trim() === "") { list.replaceChildren(); status.textContent = ""; return; }
        try {
          const response = await fetch("/search?limit=10&q=" + encodeURIComponent(query), { headers: { Accept: "application/json" } });
          const body = await response.json();
          if (ticket !== latest) return;
          if (!response.ok) { list.replaceChildren(); status.textContent = body.error || ("search failed: HTTP " + response.status); return; }
          show(body, query);
        } catch (error) {
          if (ticket === latest) { list.replaceChildren(); status.textContent = "search failed: " + error; }
        }
      }

      box.addEventListener("input", function () {
        clearTimeout(timer);
        timer = setTimeout(function () { search(box.value); }, 120);
      });
      document.getElementById("search").addEventListener("submit", function (event) { event.preventDefault(); search(box.value); });

      const initial = new URLSearchParams(location.search).get("q");
      if (initial) { box.value = initial; box.dispatchEvent(new Event("input")); }
    })();
    """#
}
