/* forgebench item viewer: static, works from file:// (data arrives through <script> tags). */
(function () {
  "use strict";
  var FB = window.FB || {};
  var IDX = FB.index || { meta: { models: [], probes: [], conditions: [], verdicts: [], levels: [], n_pages: 0, benchmarks: [], groups: [] }, rows: [] };
  var META = IDX.meta;
  var ROWS = IDX.rows; // [id, list line, group 1, group 2, benchmark, thumb, codes, "", page]
  /* The index arrives in chunks: the first with the page (the list shows at once), the others
     (data/rows-NNNN.js) several at a time, each appended to ROWS in chunk order and filtered as
     it comes. */
  var N_ROWS = META.n_rows !== undefined ? META.n_rows : ROWS.length;
  var N_CHUNKS = META.row_chunks || 1;
  var chunksIn = 1;
  var pendingOpen = null;  // an item asked for (#item=...) before its chunk arrived
  function complete() { return chunksIn >= N_CHUNKS; }
  var GROUPS = META.groups || [];  // per grouping facet: {label, of: {benchmark: its name for it}}
  var MIXED = [false, false];  // facet values of several benchmarks: option values are "benchmark/value"
  var LIST_PAGE = 100;
  var state = { filtered: [], listPage: 0, cursor: -1, current: null };
  var waiting = {};

  function $(id) { return document.getElementById(id); }
  function el(tag, attrs, text) {
    var e = document.createElement(tag);
    if (attrs) { for (var k in attrs) { if (attrs[k] !== null && attrs[k] !== undefined) e.setAttribute(k, attrs[k]); } }
    if (text !== undefined && text !== null) e.textContent = String(text);
    return e;
  }
  function fill(select, values) {
    select.appendChild(el("option", { value: "" }, "any"));
    values.forEach(function (v) { select.appendChild(el("option", { value: v }, v)); });
  }
  function groupKey(r, g) { return MIXED[g] ? r[4] + "/" + r[2 + g] : r[2 + g]; }
  /* A grouping facet's dropdown: its values; in a run where several benchmarks give values, one
     option group per benchmark, named by the benchmark and its name for the facet. */
  function fillGroup(g) {
    var select = $("f-group" + (g + 1));
    var info = GROUPS[g] || { label: "", of: {}, values: {} };
    var by = info.values || {};  // benchmark -> its values of the facet (every item's, from the index)
    var benches = Object.keys(by);
    var wrap = $("g-group" + (g + 1));
    if (!benches.length) { wrap.style.display = "none"; return; }
    $("f-group" + (g + 1) + "-name").textContent = info.label || "Group " + (g + 1);
    MIXED[g] = benches.length > 1;
    if (!MIXED[g]) { fill(select, by[benches[0]].slice().sort()); return; }
    select.appendChild(el("option", { value: "" }, "any"));
    (META.benchmarks || benches).forEach(function (b) {
      if (!by[b]) return;
      var og = el("optgroup", { label: b + (info.of && info.of[b] ? ": " + info.of[b] : "") });
      by[b].slice().sort().forEach(function (v) { og.appendChild(el("option", { value: b + "/" + v }, v)); });
      select.appendChild(og);
    });
  }

  function filters() {
    return {
      text: $("f-text").value.trim().toLowerCase(),
      model: $("f-model").value, group1: $("f-group1").value, group2: $("f-group2").value,
      probe: $("f-probe").value, condition: $("f-condition").value,
      verdict: $("f-verdict").value, level: $("f-level").value
    };
  }
  function answerFilter(f) {
    var want = [
      f.model ? META.models.indexOf(f.model) : -1,
      f.probe ? META.probes.indexOf(f.probe) : -1,
      f.condition ? META.conditions.indexOf(f.condition) : -1,
      f.verdict ? META.verdicts.indexOf(f.verdict) : -1,
      f.level ? META.levels.indexOf(f.level) : -1
    ];
    var active = want.some(function (w) { return w >= 0; });
    return { active: active, want: want };
  }
  var RADIX = META.code_radix || [1, 1, 1, 1, 1];
  function codeMatches(code, want) {  // an answer's facets, packed mixed-radix (model first)
    for (var i = 4; i >= 0; i--) {
      var digit = code % RADIX[i];
      if (want[i] >= 0 && digit !== want[i]) return false;
      code = (code - digit) / RADIX[i];
    }
    return true;
  }
  /* The search text of every item is its own file, loaded the first time a search is typed. */
  var searchState = FB.search ? "ready" : "none";
  function searchReady() {
    if (searchState === "ready") return true;
    if (searchState === "none") {
      searchState = "loading";
      var s = document.createElement("script");
      s.src = "data/search.js";
      s.onload = function () { searchState = "ready"; apply(); document.documentElement.setAttribute("data-search", "ready"); };
      s.onerror = function () { searchState = "failed"; };
      document.body.appendChild(s);
    }
    return false;
  }
  function textOf(i) { return (FB.search && FB.search[i]) || ""; }
  function answerMatches(a, f) {
    return (!f.model || a.m === f.model) && (!f.probe || a.p === f.probe) && (!f.condition || a.c === f.condition) &&
      (!f.verdict || a.v === f.verdict) && (!f.level || a.l === f.level);
  }

  function passes(i, f, af, searching) {
    var r = ROWS[i];
    if (f.group1 && groupKey(r, 0) !== f.group1) return false;
    if (f.group2 && groupKey(r, 1) !== f.group2) return false;
    if (f.text && (!searching || textOf(i).indexOf(f.text) < 0) && r[0].toLowerCase().indexOf(f.text) < 0) return false;
    if (af.active && !r[6].some(function (c) { return codeMatches(c, af.want); })) return false;
    return true;
  }
  function countText() {
    var n = state.filtered.length;
    return complete() ? "(" + n + " of " + ROWS.length + ")" : "(" + n + " of the first " + ROWS.length + " of " + N_ROWS + ", loading…)";
  }

  function apply() {
    var f = filters();
    var af = answerFilter(f);
    var searching = f.text ? searchReady() : false;  // until it is loaded, ids are searched
    state.filtered = [];
    for (var i = 0; i < ROWS.length; i++) {
      if (passes(i, f, af, searching)) state.filtered.push(i);
    }
    state.cursor = state.filtered.length ? 0 : -1;
    if (state.current) {  // keep the open item under the cursor when it still passes the filters
      for (var j = 0; j < state.filtered.length; j++) {
        if (ROWS[state.filtered[j]][0] === state.current) { state.cursor = j; break; }
      }
    }
    state.listPage = state.cursor > 0 ? Math.floor(state.cursor / LIST_PAGE) : 0;
    $("count").textContent = countText();
    renderList();
    if (state.current) renderDetail(state.current);
  }

  /* A chunk of the index arrived: its rows join ROWS and, when they pass the filters, the list
     (redrawn only while its shown page still has room); the next chunk is asked for. */
  function addRows(rows) {
    var f = filters();
    var af = answerFilter(f);
    var searching = f.text ? searchState === "ready" : false;
    var room = state.filtered.length < (state.listPage + 1) * LIST_PAGE;
    for (var k = 0; k < rows.length; k++) {
      ROWS.push(rows[k]);
      if (passes(ROWS.length - 1, f, af, searching)) state.filtered.push(ROWS.length - 1);
    }
    chunksIn++;
    if (state.cursor < 0 && state.filtered.length) state.cursor = 0;
    $("count").textContent = countText();
    if (room) renderList(); else { $("page-info").textContent = "page " + (state.listPage + 1) + " / " + Math.max(1, Math.ceil(state.filtered.length / LIST_PAGE)); }
    if (pendingOpen !== null && (rowById(pendingOpen) || complete())) { var id = pendingOpen; pendingOpen = null; openItem(id); }
    if (complete()) { document.documentElement.setAttribute("data-viewer", "ready"); } else { loadRows(); }
  }
  /* Up to CHUNKS_AHEAD chunks are asked for at once (read in parallel, run in the order asked:
     async=false); a chunk that runs early waits in FB.rowChunks until those before it are in. */
  var CHUNKS_AHEAD = 8;
  var chunksAsked = 1;
  function loadRows() {
    while (chunksAsked < N_CHUNKS && chunksAsked < chunksIn + CHUNKS_AHEAD) {
      var s = document.createElement("script");
      s.async = false;
      s.src = "data/rows-" + ("000" + chunksAsked).slice(-4) + ".js";
      s.onerror = function (e) { $("count").textContent = "(could not load " + e.target.src + ")"; };
      document.body.appendChild(s);
      chunksAsked++;
    }
  }
  FB.onrows = function () {
    while (FB.rowChunks[chunksIn]) { var rows = FB.rowChunks[chunksIn].rows; delete FB.rowChunks[chunksIn]; addRows(rows); }
  };

  function renderList() {
    var list = $("list");
    list.innerHTML = "";
    var start = state.listPage * LIST_PAGE;
    var slice = state.filtered.slice(start, start + LIST_PAGE);
    slice.forEach(function (rowIndex, k) {
      var r = ROWS[rowIndex];
      var li = el("li", { "data-id": r[0], "data-pos": String(start + k), tabindex: "-1" });
      if (r[5]) li.appendChild(el("img", { src: r[5], alt: "", loading: "lazy", width: "60" }));
      var span = el("span", { "class": "li-text" });
      span.appendChild(el("b", null, r[0]));
      span.appendChild(el("small", null, r[1]));
      li.appendChild(span);
      li.addEventListener("click", function () { state.cursor = start + k; openItem(r[0]); });
      if (start + k === state.cursor) li.classList.add("cursor");
      if (state.current === r[0]) li.classList.add("open");
      list.appendChild(li);
    });
    var pages = Math.max(1, Math.ceil(state.filtered.length / LIST_PAGE));
    $("page-info").textContent = "page " + (state.listPage + 1) + " / " + pages;
  }

  /* A page holds its items' answers column-wise (facets as positions in META's lists); each
     item gets them back as one object per answer, as the detail view shows them. */
  function unpack(page) {
    var A = page.answers;
    if (!A) return page;
    var k = 0;
    page.items.forEach(function (it, j) {
      var list = [];
      for (var q = 0; q < A.n[j]; q++, k++) {
        var a = { m: META.models[A.m[k]], p: META.probes[A.p[k]], c: META.conditions[A.c[k]], t: A.t[k],
                  v: META.verdicts[A.v[k]], l: META.levels[A.l[k]], r: A.r[k], e: A.e[k] };
        if (A.s && A.s[k]) a.s = META.notes[A.s[k]];
        if (A.i && A.i[k] >= 0) a.i = A.iv[A.i[k]];
        if (A.o && A.o[k]) a.o = A.o[k];
        list.push(a);
      }
      it.answers = list;
    });
    delete page.answers;
    return page;
  }

  function loadPage(n, done) {
    FB.pages = FB.pages || {};
    if (FB.pages[n]) { done(FB.pages[n]); return; }
    (waiting[n] = waiting[n] || []).push(done);
    if (waiting[n].length > 1) return;
    var s = document.createElement("script");
    s.src = "data/page-" + ("000" + n).slice(-4) + ".js";
    s.onerror = function () { $("detail").textContent = "Could not load " + s.src; };
    document.body.appendChild(s);
  }
  FB.onpage = function (n) {
    unpack(FB.pages[n]);
    var cbs = waiting[n] || [];
    delete waiting[n];
    cbs.forEach(function (cb) { cb(FB.pages[n]); });
  };

  function rowById(id) {
    for (var i = 0; i < ROWS.length; i++) { if (ROWS[i][0] === id) return ROWS[i]; }
    return null;
  }

  function openItem(id) {
    var r = rowById(id);
    if (!r && !complete()) { pendingOpen = id; return; }  // its chunk of the index is still on its way
    if (!r) { $("detail").textContent = "No item " + id + " in this run."; return; }
    state.current = id;
    if (location.hash !== "#item=" + encodeURIComponent(id)) history.replaceState(null, "", "#item=" + encodeURIComponent(id));
    loadPage(r[8], function () { renderDetail(id); });
    renderList();
  }

  function figure(src, caption, box, size) {
    var fig = el("figure", { "class": "pic" });
    var wrap = el("div", { "class": "pic-wrap" });
    wrap.appendChild(el("img", { src: src, alt: caption }));
    if (box && size) {
      var b = el("div", { "class": "edit-box", title: "edit region" });
      b.style.left = (100 * box[0] / size[0]) + "%";
      b.style.top = (100 * box[1] / size[1]) + "%";
      b.style.width = (100 * (box[2] - box[0]) / size[0]) + "%";
      b.style.height = (100 * (box[3] - box[1]) / size[1]) + "%";
      wrap.appendChild(b);
    }
    fig.appendChild(wrap);
    fig.appendChild(el("figcaption", null, caption));
    return fig;
  }

  function dl(pairs) {
    var d = el("dl", { "class": "truth" });
    pairs.forEach(function (p) {
      if (p[1] === null || p[1] === undefined || p[1] === "") return;
      d.appendChild(el("dt", null, p[0]));
      d.appendChild(el("dd", null, p[1]));
    });
    return d;
  }

  function renderDetail(id) {
    var r = rowById(id);
    var page = FB.pages && FB.pages[r[8]];
    if (!page) return;
    var it = null;
    page.items.forEach(function (x) { if (x.id === id) it = x; });
    var d = $("detail");
    d.innerHTML = "";
    d.appendChild(el("h3", { id: "detail-title" }, it.id));
    d.appendChild(el("p", { "class": "tags" }, (it.tags || []).join(" · ")));
    var pics = el("div", { "class": "pics" });
    if (it.img && it.img.view) pics.appendChild(figure(it.img.view, it.caption || "image", it.outline, it.size));
    if (it.img && it.img.original) pics.appendChild(figure(it.img.original, "original"));
    if (it.img && it.img.diff) pics.appendChild(figure(it.img.diff, "difference heatmap"));
    var vars = (it.img && it.img.variants) || {};
    Object.keys(vars).forEach(function (k) { pics.appendChild(figure(vars[k], k)); });
    d.appendChild(pics);
    d.appendChild(dl(it.rows || []));  // the item's details, as its suite gives them
    if (it.facts && it.facts.length) { var facts = dl(it.facts); facts.id = "facts"; d.appendChild(facts); }
    var f = filters();
    var shown = it.answers.filter(function (a) { return answerMatches(a, f); });
    d.appendChild(el("h4", null, "Answers (" + shown.length + " of " + it.answers.length + ", judge: " + (META.judge || "none") + ")"));
    var t = el("table", { "class": "answers" });
    var head = el("tr");
    var notes = it.answers.some(function (a) { return a.s; });  // how a suite's verdict was found
    var made = it.answers.some(function (a) { return a.o && a.o.length; });  // a predicted mask...
    var cols = ["model", "probe", "condition", "shown"].concat(made ? ["answer's picture"] : [], ["verdict"], notes ? ["found by"] : [], ["level", "answer", "judge reason"]);
    cols.forEach(function (h) { head.appendChild(el("th", null, h)); });
    t.appendChild(head);
    shown.forEach(function (a) {
      var tr = el("tr", { "class": "v-" + a.v });
      tr.appendChild(el("td", null, a.m));
      tr.appendChild(el("td", null, a.p));
      tr.appendChild(el("td", null, a.c));
      tr.appendChild(shownCell(a));
      if (made) tr.appendChild(madeCell(a));
      tr.appendChild(el("td", { "class": "verdict" }, a.v));
      if (notes) tr.appendChild(el("td", { "class": "found-by" }, a.s || ""));
      tr.appendChild(el("td", { "class": "level" }, a.l === "none" ? "" : a.l));
      tr.appendChild(el("td", { "class": "answer" }, a.t !== null ? a.t : (a.e ? "error: " + a.e : "(no answer yet)")));
      tr.appendChild(el("td", null, a.r || ""));
      t.appendChild(tr);
    });
    d.appendChild(t);
  }

  function shownCell(a) {  // the picture(s) this task showed the model, in order
    var td = el("td", { "class": "shown" });
    (a.i || []).forEach(function (src, k) {
      if (!src) { td.appendChild(el("span", { "class": "muted" }, "(not in cache)")); return; }
      var link = el("a", { href: src, target: "_blank" });
      var label = a.c + ((a.i.length > 1) ? " (image " + (k + 1) + " of " + a.i.length + ")" : "");
      link.appendChild(el("img", { src: src, alt: label, title: label, loading: "lazy" }));
      td.appendChild(link);
    });
    return td;
  }

  function madeCell(a) {  // the pictures the answer made (a predicted mask), each named
    var td = el("td", { "class": "made" });
    if (!a.o || !a.o.length) { td.appendChild(el("span", { "class": "muted" }, "none")); return td; }
    a.o.forEach(function (p) {
      var fig = el("figure", { "class": "pic" });
      var link = el("a", { href: p[1], target: "_blank" });
      link.appendChild(el("img", { src: p[1], alt: p[0] + " (" + a.m + ")", title: p[0], loading: "lazy" }));
      fig.appendChild(link);
      fig.appendChild(el("figcaption", null, p[0]));
      td.appendChild(fig);
    });
    return td;
  }

  function move(delta) {
    if (!state.filtered.length) return;
    state.cursor = Math.max(0, Math.min(state.filtered.length - 1, state.cursor + delta));
    var page = Math.floor(state.cursor / LIST_PAGE);
    if (page !== state.listPage) state.listPage = page;
    openItem(ROWS[state.filtered[state.cursor]][0]);
  }

  /* ---- judge calibration ---- */
  var CAL = FB.calibration || { rows: [], columns: [] };
  var calPos = 0;
  function calKey() { return "forgebench-calib:" + (CAL.file || "sample") + ":" + META.run; }
  function calLoad() {
    try { var saved = JSON.parse(localStorage.getItem(calKey()) || "{}");
      CAL.rows.forEach(function (r) { if (saved[r.sample_id] !== undefined && !r.human_level) r.human_level = saved[r.sample_id]; });
    } catch (e) { /* storage unavailable from file:// in some browsers */ }
  }
  function calStore() {
    var saved = {};
    CAL.rows.forEach(function (r) { if (r.human_level !== undefined && r.human_level !== "") saved[r.sample_id] = r.human_level; });
    try { localStorage.setItem(calKey(), JSON.stringify(saved)); } catch (e) { /* ignore */ }
  }
  function csvCell(v) {
    v = v === undefined || v === null ? "" : String(v);
    return /[",\n\r]/.test(v) ? '"' + v.replace(/"/g, '""') + '"' : v;
  }
  function calCsv() {
    var cols = CAL.columns.slice();
    if (cols.indexOf("human_level") < 0) cols.push("human_level");
    var lines = [cols.map(csvCell).join(",")];
    CAL.rows.forEach(function (r) { lines.push(cols.map(function (c) { return csvCell(r[c]); }).join(",")); });
    return lines.join("\n") + "\n";
  }
  function renderCalib() {
    var box = $("calib");
    box.innerHTML = "";
    if (!CAL.rows.length) {
      box.appendChild(el("p", { "class": "muted" }, "No calibration sample in this report. Run: forgebench calibrate sample RUN --n 210, then forgebench report RUN."));
      return;
    }
    var r = CAL.rows[calPos];
    var graded = CAL.rows.filter(function (x) { return x.human_level !== undefined && x.human_level !== ""; }).length;
    box.appendChild(el("p", { id: "calib-progress" }, "Answer " + (calPos + 1) + " of " + CAL.rows.length + " · graded " + graded));
    var wrap = el("div", { "class": "calib-row" });
    if (r._view) wrap.appendChild(figure(r._view, r.item_id));
    var skip = { _view: 1, human_level: 1, answer: 1 };
    var pairs = CAL.columns.filter(function (c) { return !skip[c]; }).map(function (c) { return [c, r[c]]; });
    var side = el("div");
    side.appendChild(el("h4", null, "Answer"));
    side.appendChild(el("pre", { "class": "answer", id: "calib-answer" }, r.answer || ""));
    side.appendChild(dl(pairs));
    wrap.appendChild(side);
    box.appendChild(wrap);
    var bar = el("div", { "class": "grade-bar" });
    ["0", "1", "2", "3", "4"].forEach(function (l) {
      var b = el("button", { type: "button", "data-level": l, "class": String(r.human_level) === l ? "picked" : "" }, "E" + l);
      b.addEventListener("click", function () { grade(l); });
      bar.appendChild(b);
    });
    var prev = el("button", { type: "button" }, "◀ previous");
    prev.addEventListener("click", function () { calPos = Math.max(0, calPos - 1); renderCalib(); });
    var next = el("button", { type: "button" }, "next ▶");
    next.addEventListener("click", function () { calPos = Math.min(CAL.rows.length - 1, calPos + 1); renderCalib(); });
    var save = el("button", { type: "button", id: "calib-save" }, "Save CSV");
    save.addEventListener("click", function () {
      var blob = new Blob([calCsv()], { type: "text/csv" });
      var a = el("a", { href: URL.createObjectURL(blob), download: (CAL.file || "calibration_sample.csv").replace(/\.csv$/, "") + "_graded.csv" });
      document.body.appendChild(a); a.click(); a.remove();
    });
    bar.appendChild(prev); bar.appendChild(next); bar.appendChild(save);
    box.appendChild(bar);
    box.appendChild(el("p", { "class": "muted" }, "Keys: 0-4 grade, n / p next / previous."));
  }
  function grade(l) {
    CAL.rows[calPos].human_level = l;
    calStore();
    if (calPos < CAL.rows.length - 1) calPos++;
    renderCalib();
  }
  FB.calibCsv = calCsv;

  function inCalib() { return location.hash === "#calibrate"; }

  document.addEventListener("keydown", function (e) {
    var typing = e.target && (e.target.tagName === "INPUT" || e.target.tagName === "SELECT" || e.target.tagName === "TEXTAREA");
    if (e.key === "/" && !typing) { e.preventDefault(); $("f-text").focus(); return; }
    if (e.key === "Escape") { if (typing) e.target.blur(); return; }
    if (typing) return;
    if (inCalib() && CAL.rows.length) {
      if ("01234".indexOf(e.key) >= 0 && e.key.length === 1) { grade(e.key); return; }
      if (e.key === "n") { calPos = Math.min(CAL.rows.length - 1, calPos + 1); renderCalib(); return; }
      if (e.key === "p") { calPos = Math.max(0, calPos - 1); renderCalib(); return; }
      return;
    }
    if (e.key === "j" || e.key === "ArrowDown") { e.preventDefault(); move(1); }
    else if (e.key === "k" || e.key === "ArrowUp") { e.preventDefault(); move(-1); }
    else if (e.key === "Enter" && state.cursor >= 0) { openItem(ROWS[state.filtered[state.cursor]][0]); }
  });

  function fromHash() {
    var m = /^#item=(.+)$/.exec(location.hash);
    if (m) { openItem(decodeURIComponent(m[1])); document.getElementById("items").scrollIntoView(); }
  }

  function init() {
    fill($("f-model"), META.models); fillGroup(0); fillGroup(1);
    fill($("f-probe"), META.probes); fill($("f-condition"), META.conditions);
    fill($("f-verdict"), META.verdicts.filter(function (v) { return v !== "PENDING"; }).concat(["PENDING"]));
    fill($("f-level"), META.levels);
    // a run whose suites grade nothing on a level scale (Forensics letters) has no Level filter
    if (!META.levels.some(function (l) { return l !== "unscored" && l !== "none"; })) { $("g-level").style.display = "none"; }
    // nor a calibration view when no suite has a rubric and no sample was given
    var rubric = document.querySelector("pre.rubric");
    if (!CAL.rows.length && !(rubric && rubric.textContent.trim())) {
      $("nav-calibrate").style.display = "none"; $("calibrate").style.display = "none";
    }
    ["f-model", "f-group1", "f-group2", "f-probe", "f-condition", "f-verdict", "f-level"].forEach(function (id) { $(id).addEventListener("change", apply); });
    $("f-text").addEventListener("input", apply);
    $("f-clear").addEventListener("click", function () { $("filters").reset(); apply(); });
    $("prev-page").addEventListener("click", function () { if (state.listPage > 0) { state.listPage--; renderList(); } });
    $("next-page").addEventListener("click", function () { if ((state.listPage + 1) * LIST_PAGE < state.filtered.length) { state.listPage++; renderList(); } });
    window.addEventListener("hashchange", function () { if (!inCalib()) fromHash(); });
    calLoad();
    apply();
    renderCalib();
    fromHash();
    if (complete()) document.documentElement.setAttribute("data-viewer", "ready");  // for scripts driving the page
    else loadRows();
  }
  init();
})();
