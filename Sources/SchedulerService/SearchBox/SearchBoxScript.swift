/// `GET /search-box.js`: the custom element `<scheduler-search endpoint="https://search.example" token="…">`, one
/// self-contained script without third-party code or a build step. It runs under a strict Content-Security-Policy
/// that allows the script's own origin: no `eval`, no inline style (its styles are a constructed stylesheet adopted by
/// its open shadow root), no `innerHTML` of anything a source wrote (every text is a text node).
///
/// Results come as the user types (debounced; an answer older than the last request is dropped), with their
/// highlights and thumbnails, sections grouped under their page; arrows, Enter and Escape move through them as in an
/// ARIA combobox; each result links through `/open/{id}` so opens are counted; a refused token shows its reason.
/// A site styles it with CSS custom properties: `--scheduler-search-font`, `--scheduler-search-accent`,
/// `--scheduler-search-background`, `--scheduler-search-text`, `--scheduler-search-muted`, `--scheduler-search-border`,
/// `--scheduler-search-radius`, `--scheduler-search-mark`.
enum SearchBoxScript {
    static let source = #"""
(() => {
  "use strict";
  if (customElements.get("scheduler-search")) return;

  const styles = `
    :host { display: block; position: relative; font: var(--scheduler-search-font, 16px/1.4 system-ui, sans-serif);
      color: var(--scheduler-search-text, #1d1d1f); }
    input { box-sizing: border-box; width: 100%; padding: .55em .8em; font: inherit; color: inherit;
      background: var(--scheduler-search-background, #fff); border: 1px solid var(--scheduler-search-border, #c7c7cc);
      border-radius: var(--scheduler-search-radius, 8px); }
    input:focus { outline: 2px solid var(--scheduler-search-accent, #0a66d8); outline-offset: 1px; }
    [role=listbox] { position: absolute; z-index: 10; left: 0; right: 0; margin: .3em 0 0; padding: .3em 0; list-style: none;
      background: var(--scheduler-search-background, #fff); border: 1px solid var(--scheduler-search-border, #c7c7cc);
      border-radius: var(--scheduler-search-radius, 8px); box-shadow: 0 6px 24px rgb(0 0 0 / .12); max-height: 70vh; overflow: auto; }
    [role=listbox][hidden], .status[hidden] { display: none; }
    [role=option] a { display: flex; gap: .6em; align-items: center; padding: .45em .8em; color: inherit; text-decoration: none; }
    [role=option].section a { padding-left: 2.2em; font-size: .92em; }
    [role=option][aria-selected=true] a { background: color-mix(in srgb, var(--scheduler-search-accent, #0a66d8) 12%, transparent); }
    img { width: 2.4em; height: 2.4em; object-fit: cover; border-radius: 4px; flex: none; }
    .title { font-weight: 600; }
    .snippet { display: block; color: var(--scheduler-search-muted, #6e6e73); font-size: .9em; }
    mark { background: var(--scheduler-search-mark, #ffe27a); color: inherit; border-radius: 2px; }
    .status { margin: .3em 0 0; color: var(--scheduler-search-muted, #6e6e73); font-size: .9em; }
    .status.error { color: #b3261e; }
  `;
  let sheet = null;
  let serial = 0;

  class SchedulerSearch extends HTMLElement {
    static observedAttributes = ["endpoint", "token", "placeholder", "limit", "version"];

    constructor() {
      super();
      const root = this.attachShadow({ mode: "open" });
      sheet = sheet || (() => { const made = new CSSStyleSheet(); made.replaceSync(styles); return made; })();
      root.adoptedStyleSheets = [sheet];
      const id = "scheduler-search-" + (++serial);
      this.input = document.createElement("input");
      this.input.type = "search";
      this.input.autocomplete = "off";
      this.input.spellcheck = false;
      this.input.setAttribute("role", "combobox");
      this.input.setAttribute("aria-autocomplete", "list");
      this.input.setAttribute("aria-expanded", "false");
      this.input.setAttribute("aria-controls", id + "-list");
      this.list = document.createElement("ul");
      this.list.id = id + "-list";
      this.list.setAttribute("role", "listbox");
      this.list.hidden = true;
      this.status = document.createElement("p");
      this.status.className = "status";
      this.status.setAttribute("role", "status");
      this.status.hidden = true;
      root.append(this.input, this.list, this.status);
      this.options = [];
      this.active = -1;
      this.sent = 0;
      this.timer = 0;
      this.input.addEventListener("input", () => this.schedule());
      this.input.addEventListener("keydown", (event) => this.key(event));
      this.input.addEventListener("blur", () => setTimeout(() => this.close(), 150));
    }

    attributeChangedCallback(name) {
      if (name === "placeholder") this.input.placeholder = this.getAttribute("placeholder") || "";
      if (name === "placeholder" && !this.input.hasAttribute("aria-label")) this.input.setAttribute("aria-label", this.getAttribute("placeholder") || "Search");
    }

    connectedCallback() {
      if (!this.input.hasAttribute("aria-label")) this.input.setAttribute("aria-label", this.getAttribute("placeholder") || "Search");
    }

    /// The service's address: http(s) only, so that a token never goes to the page's own origin or elsewhere.
    get endpoint() {
      const endpoint = (this.getAttribute("endpoint") || "").replace(/\/+$/, "");
      return /^https?:\/\/[^\s]+$/i.test(endpoint) ? endpoint : null;
    }

    schedule() {
      clearTimeout(this.timer);
      this.timer = setTimeout(() => this.search(this.input.value), 120);
    }

    async search(text) {
      const request = ++this.sent;
      if (!text.trim()) return this.close();
      if (!this.endpoint) return this.fail("the search box needs an endpoint attribute: the service's http(s) address");
      const limit = Math.min(Math.max(parseInt(this.getAttribute("limit") || "8", 10) || 8, 1), 50);
      const version = this.getAttribute("version");
      const url = this.endpoint + "/search?distinct=page&limit=" + limit + "&q=" + encodeURIComponent(text)
        + (version ? "&version=" + encodeURIComponent(version) : "");
      const token = this.getAttribute("token");
      try {
        const response = await fetch(url, { headers: token ? { Authorization: "Bearer " + token } : {} });
        const body = await response.json().catch(() => ({}));
        if (request !== this.sent) return; // a later request was sent: this answer is stale
        if (!response.ok) return this.fail(body.error || ("the search answered " + response.status));
        this.show(body, text);
      } catch (error) {
        if (request === this.sent) this.fail("the search could not be reached");
      }
    }

    show(body, text) {
      this.status.hidden = true;
      this.status.className = "status";
      this.list.replaceChildren();
      this.options = [];
      this.active = -1;
      this.input.removeAttribute("aria-activedescendant");
      const hits = Array.isArray(body.hits) ? body.hits : [];
      for (const group of this.groups(hits)) {
        group.forEach((hit, index) => this.list.append(this.option(hit, text, index > 0)));
      }
      if (!this.options.length) {
        this.close();
        this.status.textContent = "No results";
        this.status.hidden = false;
        return;
      }
      this.list.hidden = false;
      this.input.setAttribute("aria-expanded", "true");
      this.dispatchEvent(new CustomEvent("scheduler-search-results", { detail: { total: body.total, hits } }));
    }

    /// Hits grouped by page: a page first, then its sections (hits naming it their relatedUniqueIdentifier, and
    /// those the service put under a page's hit).
    groups(hits) {
      const byPage = new Map();
      for (const hit of hits.flatMap((hit) => [hit, ...(hit.sections || [])])) {
        const page = hit.domainIdentifier + " " + (hit.relatedUniqueIdentifier || hit.uniqueIdentifier);
        if (!byPage.has(page)) byPage.set(page, []);
        const group = byPage.get(page);
        if (!hit.relatedUniqueIdentifier) group.unshift(hit); else group.push(hit);
      }
      return [...byPage.values()];
    }

    option(hit, text, isSection) {
      const item = document.createElement("li");
      item.setAttribute("role", "option");
      item.id = this.list.id + "-" + this.options.length;
      item.setAttribute("aria-selected", "false");
      if (isSection) item.className = "section";
      const link = document.createElement("a");
      const token = this.getAttribute("token");
      link.href = this.endpoint + "/open/" + encodeURIComponent(hit.uniqueIdentifier) + "?q=" + encodeURIComponent(text)
        + (token ? "&token=" + encodeURIComponent(token) : "");
      link.tabIndex = -1;
      if (hit.thumbnailURL && !isSection) {
        const image = document.createElement("img");
        image.alt = "";
        image.loading = "lazy";
        image.src = this.endpoint + "/items/" + encodeURIComponent(hit.uniqueIdentifier) + "/thumbnail" + (token ? "?token=" + encodeURIComponent(token) : "");
        image.addEventListener("error", () => image.remove());
        link.append(image);
      }
      const words = document.createElement("span");
      const title = document.createElement("span");
      title.className = "title";
      const name = hit.title || hit.displayName || hit.uniqueIdentifier;
      title.append(...this.marked(name, hit.title ? hit.highlights && hit.highlights.title : hit.highlights && hit.highlights.displayName));
      words.append(title);
      if (hit.snippet && hit.snippet.text) {
        const snippet = document.createElement("span");
        snippet.className = "snippet";
        snippet.append(...this.marked(hit.snippet.text, hit.snippet.highlights));
        words.append(snippet);
      }
      link.append(words);
      item.append(link);
      item.addEventListener("mousedown", (event) => event.preventDefault());
      this.options.push(item);
      return item;
    }

    /// `text` as text nodes, its `ranges` ([start, end) in UTF-16 code units) inside <mark>.
    marked(text, ranges) {
      const nodes = [];
      let at = 0;
      for (const [start, end] of (Array.isArray(ranges) ? ranges : [])) {
        if (!(start >= at && end > start && end <= text.length)) continue;
        if (start > at) nodes.push(document.createTextNode(text.slice(at, start)));
        const mark = document.createElement("mark");
        mark.textContent = text.slice(start, end);
        nodes.push(mark);
        at = end;
      }
      if (at < text.length) nodes.push(document.createTextNode(text.slice(at)));
      return nodes;
    }

    key(event) {
      if (event.key === "ArrowDown" || event.key === "ArrowUp") {
        if (!this.options.length) return;
        event.preventDefault();
        const step = event.key === "ArrowDown" ? 1 : -1;
        this.select((this.active + step + this.options.length) % this.options.length);
      } else if (event.key === "Enter" && this.active >= 0) {
        event.preventDefault();
        this.options[this.active].querySelector("a").click();
      } else if (event.key === "Escape") {
        if (this.list.hidden) this.input.value = ""; else this.close();
      }
    }

    select(index) {
      if (this.active >= 0) this.options[this.active].setAttribute("aria-selected", "false");
      this.active = index;
      const option = this.options[index];
      option.setAttribute("aria-selected", "true");
      option.scrollIntoView({ block: "nearest" });
      this.input.setAttribute("aria-activedescendant", option.id);
    }

    fail(message) {
      this.close();
      this.status.textContent = message;
      this.status.className = "status error";
      this.status.hidden = false;
    }

    close() {
      // An answer still on its way must not open the list again.
      clearTimeout(this.timer);
      this.sent++;
      this.list.hidden = true;
      this.input.setAttribute("aria-expanded", "false");
      this.input.removeAttribute("aria-activedescendant");
      this.active = -1;
    }
  }

  customElements.define("scheduler-search", SchedulerSearch);
})();
"""#
}
