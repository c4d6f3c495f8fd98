/* adr-memory site: filters on the home page, search in the page, the version diff.
   Record text reaches the page only through textContent: nothing here parses it as HTML. */
(function () {
  "use strict";

  function el(tag, attrs, text) {
    var node = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (k) { node.setAttribute(k, attrs[k]); });
    if (text !== undefined) node.textContent = text;
    return node;
  }

  function words(text) {
    return (String(text).toLowerCase().normalize("NFKD").replace(/[\u0300-\u036f]/g, "")
      .match(/[\p{L}\p{N}]+/gu) || []);
  }

  function setQuery(params) {
    var query = params.toString();
    try { history.replaceState(null, "", query ? "?" + query : location.pathname); } catch (e) { /* file:// may refuse */ }
  }

  function home() {
    var table = document.querySelector("table.decisions");
    if (!table) return;
    var body = table.tBodies[0];
    var rows = Array.prototype.slice.call(body.rows);
    rows.forEach(function (row, i) { row.dataset.order = i; });
    var status = document.getElementById("f-status"), tag = document.getElementById("f-tag");
    var sort = document.getElementById("f-sort"), shown = document.getElementById("f-shown");
    var badges = document.querySelectorAll(".counts button");
    document.querySelector(".controls").hidden = false;
    var params = new URLSearchParams(location.search);
    [[status, "status"], [tag, "tag"], [sort, "sort"]].forEach(function (pair) {
      var wanted = params.get(pair[1]);
      if (wanted && Array.prototype.some.call(pair[0].options, function (o) { return o.value === wanted; })) pair[0].value = wanted;
    });

    function apply() {
      var n = 0;
      rows.forEach(function (row) {
        var tags = JSON.parse(row.dataset.tags || "[]");
        var keep = (!status.value || row.dataset.status === status.value) && (!tag.value || tags.indexOf(tag.value) >= 0);
        row.hidden = !keep;
        if (keep) n += 1;
      });
      var byDate = sort.value === "date";
      rows.slice().sort(function (a, b) {
        var order = a.dataset.order - b.dataset.order;
        if (!byDate) return order;
        return (b.dataset.date || "").localeCompare(a.dataset.date || "") || order;
      }).forEach(function (row) { body.appendChild(row); });
      badges.forEach(function (b) { b.setAttribute("aria-pressed", String(b.dataset.status === status.value)); });
      shown.textContent = n + " of " + rows.length + " shown";
      var p = new URLSearchParams();
      if (status.value) p.set("status", status.value);
      if (tag.value) p.set("tag", tag.value);
      if (byDate) p.set("sort", "date");
      setQuery(p);
    }

    [status, tag, sort].forEach(function (s) { s.addEventListener("change", apply); });
    badges.forEach(function (b) {
      b.addEventListener("click", function () {
        status.value = status.value === b.dataset.status ? "" : b.dataset.status;
        apply();
      });
    });
    apply();
  }

  function prepared(doc) {
    var text = words(doc.text);
    return {
      doc: doc,
      title: words(doc.id + " " + doc.title + " " + doc.tags.join(" ")),
      text: Array.from(new Set(text)).sort(),
      lower: doc.text.toLowerCase()
    };
  }

  function hasPrefix(sorted, prefix) {
    var lo = 0, hi = sorted.length;
    while (lo < hi) { var mid = (lo + hi) >> 1; if (sorted[mid] < prefix) lo = mid + 1; else hi = mid; }
    return lo < sorted.length && sorted[lo].indexOf(prefix) === 0 ? sorted[lo] === prefix ? 2 : 1 : 0;
  }

  function score(entry, terms) {
    var total = 0, matched = 0;
    terms.forEach(function (term) {
      var s = 0;
      if (/^\d+$/.test(term) && entry.doc.number === parseInt(term, 10)) s += 8;
      if (entry.title.indexOf(term) >= 0) s += 5;
      else if (term.length > 2 && entry.title.some(function (w) { return w.indexOf(term) === 0; })) s += 3;
      var inText = hasPrefix(entry.text, term);
      if (inText === 2) s += 1; else if (inText === 1 && term.length > 2) s += 0.5;
      if (s) matched += 1;
      total += s;
    });
    return { matched: matched, total: total };
  }

  function snippet(entry, terms) {
    var text = entry.doc.text, at = -1, term = "";
    terms.some(function (t) { var i = entry.lower.indexOf(t); if (i >= 0) { at = i; term = t; } return i >= 0; });
    var p = el("p");
    if (at < 0) { p.textContent = text.slice(0, 180) + (text.length > 180 ? "…" : ""); return p; }
    var start = Math.max(0, at - 80), end = Math.min(text.length, at + term.length + 100);
    p.appendChild(document.createTextNode((start ? "…" : "") + text.slice(start, at)));
    p.appendChild(el("mark", {}, text.slice(at, at + term.length)));
    p.appendChild(document.createTextNode(text.slice(at + term.length, end) + (end < text.length ? "…" : "")));
    return p;
  }

  function search() {
    var box = document.getElementById("q"), list = document.getElementById("results"), said = document.getElementById("said");
    var entries = (window.ADR_SEARCH || []).map(prepared);

    function run() {
      var q = box.value.trim(), terms = words(q);
      list.replaceChildren();
      var p = new URLSearchParams();
      if (q) p.set("q", q);
      setQuery(p);
      if (!terms.length) { said.textContent = entries.length + " decisions to search."; return; }
      var found = [];
      entries.forEach(function (entry) {
        var s = score(entry, terms);
        if (s.matched) found.push({ entry: entry, s: s });
      });
      found.sort(function (a, b) { return b.s.matched - a.s.matched || b.s.total - a.s.total || a.entry.doc.order - b.entry.doc.order; });
      var all = found.filter(function (f) { return f.s.matched === terms.length; });
      var shown = all.length ? all : found;
      said.textContent = !found.length ? "Nothing matches “" + q + "”." :
        all.length ? all.length + " decision" + (all.length === 1 ? "" : "s") + " match every word." :
        "No decision holds every word; these hold some of them.";
      shown.slice(0, 50).forEach(function (f) {
        var d = f.entry.doc, li = el("li");
        li.appendChild(el("a", { href: d.url }, d.id + ": " + d.title));
        li.appendChild(document.createTextNode(" "));
        li.appendChild(el("span", { "class": "badge s-" + d.status }, d.status));
        li.appendChild(snippet(f.entry, terms));
        list.appendChild(li);
      });
    }

    box.value = new URLSearchParams(location.search).get("q") || "";
    box.addEventListener("input", run);
    box.form.addEventListener("submit", function (e) { e.preventDefault(); run(); });
    run();
  }

  /* A line diff (longest common subsequence), shown with three lines of context. */
  function lineDiff(a, b) {
    var n = a.length, m = b.length, i, j, table = [];
    for (i = 0; i <= n; i++) { table.push(new Uint32Array(m + 1)); }
    for (i = n - 1; i >= 0; i--) for (j = m - 1; j >= 0; j--)
      table[i][j] = a[i] === b[j] ? table[i + 1][j + 1] + 1 : Math.max(table[i + 1][j], table[i][j + 1]);
    var out = [];
    i = 0; j = 0;
    while (i < n || j < m) {
      if (i < n && j < m && a[i] === b[j]) { out.push([" ", a[i]]); i++; j++; }
      else if (j < m && (i === n || table[i][j + 1] >= table[i + 1][j])) { out.push(["+", b[j]]); j++; }
      else { out.push(["-", a[i]]); i++; }
    }
    return out;
  }

  function versions() {
    var all = window.ADR_VERSIONS, box = document.getElementById("diff");
    if (!all || !box || all.length < 2) return;
    var from = document.getElementById("from"), to = document.getElementById("to"), out = box.querySelector("pre");
    all.forEach(function (v, i) { from.add(new Option(v.label, String(i))); to.add(new Option(v.label, String(i))); });
    from.value = "1"; to.value = "0";
    function show() {
      out.replaceChildren();
      var lines = lineDiff(all[from.value].text.split("\n"), all[to.value].text.split("\n"));
      var near = lines.map(function () { return false; });
      lines.forEach(function (l, k) { if (l[0] !== " ") for (var c = Math.max(0, k - 3); c <= Math.min(lines.length - 1, k + 3); c++) near[c] = true; });
      var skipped = false;
      lines.forEach(function (l, k) {
        if (!near[k]) { if (!skipped) out.appendChild(el("span", { "class": "same" }, "…")); skipped = true; return; }
        skipped = false;
        out.appendChild(el("span", { "class": l[0] === "+" ? "ins" : l[0] === "-" ? "del" : "same" }, l[0] + " " + l[1]));
      });
      if (!lines.some(function (l) { return l[0] !== " "; })) out.replaceChildren(el("span", { "class": "same" }, "no differences"));
    }
    from.addEventListener("change", show);
    to.addEventListener("change", show);
    box.hidden = false;
    show();
  }

  document.addEventListener("DOMContentLoaded", function () {
    var page = document.body.dataset.page;
    if (page === "index") home();
    else if (page === "search") search();
    else if (page === "decision") versions();
  });
})();
