// tandem hall: the desk's page, the spectators' page and a table's page.
// No framework and no build step: the server embeds this file as it is.
"use strict";
(function () {
  const page = document.body.dataset.page;
  const views = new Map(); // table number -> { view, at }
  let sound = false;
  let audio = null;

  function el(tag, attrs, ...kids) {
    const e = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (v === null || v === undefined) continue;
      if (k === "text") e.textContent = v; else e.setAttribute(k, v);
    }
    for (const k of kids) if (k !== null && k !== undefined) e.append(k);
    return e;
  }

  function clock(ms) {
    ms = Math.max(0, ms);
    const s = Math.floor(ms / 1000);
    const h = Math.floor(s / 3600), m = Math.floor((s % 3600) / 60), sec = s % 60;
    const two = (n) => String(n).padStart(2, "0");
    return h > 0 ? `${h}:${two(m)}:${two(sec)}` : `${m}:${two(sec)}`;
  }

  function beep() {
    if (!sound) return;
    try {
      audio = audio || new AudioContext();
      const o = audio.createOscillator(), g = audio.createGain();
      o.frequency.value = 880; g.gain.value = 0.2;
      o.connect(g); g.connect(audio.destination);
      o.start(); o.stop(audio.currentTime + 0.25);
    } catch (e) { /* no sound: the list still says it */ }
  }

  // What the pages say, as every page tandem serves says it (announce.js):
  // each line inserted in a live region that is in the HTML from the start.
  const said = (id, keep, then) => {
    const region = document.getElementById(id);
    return region ? tandemAnnouncer(region, keep, then) : () => false;
  };
  const statusLine = said("status", 1);
  let lastStatus = "";
  function status(text) {
    // The same state again (a snapshot after a reconnection) is not news.
    if (text === lastStatus) return;
    lastStatus = text;
    statusLine(text);
  }
  const commandLine = said("command-status", 3);

  // ---------------------------------------------------------------- commands
  async function command(table, cmd, arg) {
    try {
      const r = await fetch("/api/command", {
        method: "POST",
        headers: { "content-type": "application/json", "x-tandem-desk": "1" },
        body: JSON.stringify({ table: table, cmd: cmd, arg: arg || "" }),
      });
      const j = await r.json();
      const who = table === null ? "every table" : `table ${table}`;
      commandLine(j.ok ? `Sent ${cmd} to ${who}; waiting for the answer.` : `Not sent: ${j.error}`);
    } catch (e) {
      commandLine(`Not sent: ${e}`);
    }
  }

  async function publish(table, on) {
    const r = await fetch("/api/public", {
      method: "POST",
      headers: { "content-type": "application/json", "x-tandem-desk": "1" },
      body: JSON.stringify({ table: table, on: on }),
    });
    const j = await r.json();
    const who = table === null ? "Every table" : `Table ${table}`;
    commandLine(j.ok ? `${who} ${on ? "shown to" : "hidden from"} spectators.` : `Not done: ${j.error}`);
  }

  async function acknowledge(table) {
    const r = await fetch(`/api/tables/${Number(table)}/acknowledge`, {
      method: "POST",
      headers: { "x-tandem-desk": "1" },
    });
    if (r.status === 401) { location.href = "/login"; return; }
    const j = await r.json();
    commandLine(j.ok ? `Table ${table}: the broken chain acknowledged.` : `Not done: ${j.error}`);
  }

  function onReply(d) {
    const r = d.reply;
    commandLine(`Table ${d.table}: ${r.cmd} ${r.ok ? "done" : r.unconfirmed ? "not confirmed" : "refused"}${r.text ? ": " + r.text : ""}`);
  }

  // ---------------------------------------------------------------- alerts
  // Each alert shown once, as plain words (a link inside a live line is
  // read apart). Those from before the page opened (its first snapshot) go
  // to a list that is not live, newest first; every later one (as it comes,
  // or missed while the stream was down and sent in a snapshot) is appended
  // to the assertive log: read once. One already shown is not added again.
  const alertLine = said("alerts", 100, (p) => { p.parentNode.scrollTop = p.parentNode.scrollHeight; });
  const shown = new Set();
  let opened = false;
  function addAlert(table, a, fresh) {
    const key = JSON.stringify([table, a.kind, a.seq, a.wall, a.text]);
    if (shown.has(key)) return;
    shown.add(key);
    const text = `Table ${table}: ${a.text}`;
    if (!opened) {
      const before = document.getElementById("alerts-before");
      if (before) before.prepend(el("li", { text: text }));
      return;
    }
    if (alertLine(text) && fresh) beep();
  }

  // ---------------------------------------------------------------- tables
  function side(s) { return s === "white" ? "White" : s === "black" ? "Black" : "?"; }

  function facts(v) {
    const dl = el("dl", { class: "facts" });
    const add = (k, val, cls) => { dl.append(el("dt", { text: k }), el("dd", { class: cls, text: val })); };
    add("To move", v.result ? "game over" : side(v.turn));
    add("Last move", v.last_move || "none");
    const b = v.boards || {};
    const sync = (b.mismatch ? "boards differ" :
      (b.white_behind || b.black_behind) ? `white's board ${b.white_behind} behind, black's ${b.black_behind} behind` : "both boards up to date");
    add("Boards", sync, b.mismatch || b.white_behind > 1 || b.black_behind > 1 ? "sync-bad" : null);
    add("Result", v.result || "playing");
    if (v.chain_ok !== undefined) add("Journal", `${v.journal_lines} lines, ${v.chain_ok ? "chain intact" : "CHAIN BROKEN"}${v.lacking ? ", catching up" : ""}`, v.chain_ok ? null : "sync-bad");
    // The table's build (its report line): the hash's first 16 digits, as
    // `tandem report --pdf` prints them, to compare at a glance.
    if (v.binary_sha256 !== undefined) {
      const built = v.binary_sha256
        ? `${v.binary_sha256.slice(0, 8)} ${v.binary_sha256.slice(8, 16)}, ${v.rated ? "rated" : "not rated"}`
        : "no report";
      add("Build", built, (v.alerts || []).some((a) => a.kind === "build") ? "sync-bad" : null);
    }
    if (v.online === false) add("Connection", "lost", "sync-bad");
    if (typeof v.seen_ms_ago === "number") add("Heard from", `${Math.round(v.seen_ms_ago / 1000)} s ago`, v.seen_ms_ago > 15000 ? "sync-bad" : null);
    return dl;
  }

  function clocks(v) {
    const p = el("p", { class: "clocks" });
    if (v.clocks.untimed) {
      p.append("No clock in this game");
      return p;
    }
    // The side's name, shortened to its letter on the desk's overview
    // (the full name stays for screen readers).
    const mk = (s, ms) => el("span", {
      class: "clock" + (v.turn === s && !v.result ? " on-move" : "") + (v.clocks.running && v.turn === s ? " running" : ""),
      "data-side": s,
    }, el("span", { class: "side-full", text: side(s) }),
      el("span", { class: "side-short", "aria-hidden": "true", text: side(s)[0] }),
      " ", el("span", { class: "time", text: clock(ms) }));
    p.append(mk("white", v.clocks.white_remaining_ms), " ", mk("black", v.clocks.black_remaining_ms),
      v.clocks.running ? "" : " (clock stopped)");
    return p;
  }

  // What state a table is in, most urgent first: a class for its colour
  // and the words shown (and read) with it.
  function tableStatus(v) {
    const alerts = v.alerts || [];
    const c = v.clocks || {};
    if (v.online === false) return ["offline", "offline"];
    if (v.chain_ok === false) return ["journal", "journal broken"];
    const out = !c.untimed && !v.result && (c.white_remaining_ms <= 0 || c.black_remaining_ms <= 0);
    if (out || (!v.result && alerts.some((a) => a.kind === "flag"))) return ["flag", "flag fell"];
    const b = v.boards || {};
    if (b.mismatch) return ["differ", "boards differ"];
    if (v.result) return ["finished", `finished ${v.result}`];
    if (b.white_behind > 1 || b.black_behind > 1) return ["behind", "boards behind"];
    return ["playing", "playing"];
  }

  // The board: the desk's inline SVG (one element a piece, data-square and
  // data-piece), its label the text alternative; the words below say the same.
  // The board that a view with `board_same` keeps: the one already drawn.
  function boardFigure(v, kept) {
    if (kept) return kept;
    const d = el("div", { class: "board-wrap" });
    if (v.board_svg) d.innerHTML = v.board_svg;
    return d;
  }

  function tableBody(v, keptBoard) {
    const body = el("div", { class: "live" });
    const [cls, words] = tableStatus(v);
    body.append(boardFigure(v, keptBoard), clocks(v),
      el("p", { class: `status status-${cls}`, text: words }));
    // The facts, the position in words and the braille list: on the desk's
    // overview for screen readers only, shown on the other pages.
    const more = el("div", { class: "more" });
    more.append(facts(v));
    if (v.words) more.append(el("p", { class: "words", text: v.words }));
    if (v.braille) {
      const br = el("p", { class: "braille-list" });
      br.append(el("span", { class: "braille", "aria-label": `Braille list: ${v.braille_text}`, text: v.braille }));
      br.append(el("br"), el("span", { class: "braille-text", text: v.braille_text }));
      more.append(br);
    }
    body.append(more);
    return body;
  }

  function heading(v) {
    const players = `${v.white || "White"} against ${v.black || "Black"}`;
    return `Table ${v.table}: ${players}${v.result ? ", " + v.result : ""}`;
  }

  // The fields of a view that show its board. The live stream leaves them
  // out while the board is the one it sent last (`board_same`): the page
  // keeps its own, and draws nothing again.
  const BOARD_FIELDS = ["board_svg", "board", "diagram", "words", "braille", "braille_text"];

  function renderTable(v) {
    const prev = views.get(v.table);
    const same = !!(v.board_same && prev);
    if (same) for (const k of BOARD_FIELDS) if (k in prev.view) v[k] = prev.view[k];
    delete v.board_same;
    views.set(v.table, { view: v, at: Date.now() });
    const main = document.getElementById("tables");
    let art = document.getElementById(`table-${v.table}`);
    if (!art) {
      art = el("article", { id: `table-${v.table}`, class: "table", "aria-labelledby": `table-${v.table}-h` });
      art.append(el("h2", { id: `table-${v.table}-h`, tabindex: "-1" }), el("div", { class: "live" }));
      if (page === "desk") {
        const acts = el("p", { class: "actions" });
        const b = (label, fn) => { const x = el("button", { type: "button", text: label }); x.addEventListener("click", fn); return x; };
        acts.append(
          b(`Pause table ${v.table}`, () => command(v.table, "pause")), " ",
          b(`Resume table ${v.table}`, () => command(v.table, "resume")), " ",
          b(`Say at table ${v.table}…`, () => {
            const text = window.prompt(`What to say at table ${v.table}?`);
            if (text) command(v.table, "say", text);
          }), " ",
          el("button", { type: "button", class: "public-toggle" }), " ",
          el("button", { type: "button", class: "ack", hidden: "", text: `Acknowledge table ${v.table}'s broken chain` }), " ",
          el("a", { href: `/tables/${v.table}`, text: `Details of table ${v.table}` }), " ",
          el("a", { href: `/api/tables/${v.table}/journal`, download: "", text: "Journal" }), " ",
          el("a", { href: `/api/tables/${v.table}/game`, download: "", text: "PDN/PGN" }));
        art.append(acts);
        acts.querySelector(".ack").addEventListener("click", () => acknowledge(v.table));
        acts.querySelector(".public-toggle").addEventListener("click", () => {
          const cur = views.get(v.table);
          publish(v.table, !(cur && cur.view.public));
        });
      } else {
        art.append(el("p", {}, el("a", { href: `/api/tables/${v.table}/game`, text: `Live PDN/PGN of table ${v.table}` })));
      }
      // In table order.
      const after = [...main.children].find((c) => Number(c.id.slice(6)) > v.table);
      main.insertBefore(art, after || null);
    }
    const h2 = art.querySelector("h2");
    if (page === "desk") h2.replaceChildren(el("a", { href: `/tables/${v.table}`, text: heading(v) }));
    else h2.textContent = heading(v);
    const tog = art.querySelector(".public-toggle");
    const ack = art.querySelector(".ack");
    if (ack) ack.hidden = v.chain_ok !== false;
    if (tog) tog.textContent = v.public ? `Hide table ${v.table} from spectators` : `Show table ${v.table} to spectators`;
    const live = art.querySelector(".live");
    live.replaceWith(tableBody(v, same ? live.querySelector(".board-wrap") : null));
    art.classList.toggle("alerting", !!(v.boards && v.boards.mismatch) || v.chain_ok === false);
    art.classList.toggle("done", !!v.result);
    art.dataset.status = tableStatus(v)[0];
    // Alerting tables first on the overview (the DOM keeps table order).
    const urgent = { offline: 1, journal: 1, flag: 1, differ: 1, behind: 2 };
    art.style.order = String(urgent[art.dataset.status] || 3);
  }

  function tick() {
    const now = Date.now();
    for (const { view: v, at } of views.values()) {
      if (!v.clocks.running || v.clocks.untimed || v.result) continue;
      const art = document.getElementById(`table-${v.table}`);
      // The side comes from the table: only these two names make a selector.
      if (v.turn !== "white" && v.turn !== "black") continue;
      const span = art && art.querySelector(`.clock[data-side="${v.turn}"] .time`);
      if (!span) continue;
      const base = v.turn === "white" ? v.clocks.white_remaining_ms : v.clocks.black_remaining_ms;
      span.textContent = clock(base - (now - at));
    }
  }

  function snapshot(d) {
    const ev = document.getElementById("event");
    if (ev) ev.textContent = d.event;
    document.title = `${document.title.split(":")[0]}: ${d.event}`;
    for (const v of d.tables) renderTable(v);
    // Oldest first: the newest ends on top.
    for (const { table, alert } of d.alerts || []) addAlert(table, alert, false);
    opened = true;
    const start = document.getElementById("start-all");
    if (start && !d.can_command) { start.disabled = true; start.title = "no arbiter secret at the desk"; }
    status(`${d.tables.length} tables. Live.`);
  }

  function live() {
    fetch("/api/view").then((r) => {
      if (r.status === 401) { location.href = "/login"; throw new Error("log in"); }
      return r.json();
    }).then(snapshot).catch(() => {});
    const es = new EventSource("/events");
    es.addEventListener("snapshot", (e) => snapshot(JSON.parse(e.data)));
    es.addEventListener("table", (e) => renderTable(JSON.parse(e.data)));
    es.addEventListener("hide", (e) => {
      const n = JSON.parse(e.data).table;
      views.delete(n);
      const art = document.getElementById(`table-${n}`);
      if (art) art.remove();
    });
    es.addEventListener("alert", (e) => { const d = JSON.parse(e.data); addAlert(d.table, d.alert, true); });
    es.addEventListener("reply", (e) => onReply(JSON.parse(e.data)));
    es.onerror = () => {
      status("The connection to the desk was lost; reconnecting…");
      // The stream ends with the arbiter's session: then log in again.
      fetch("/api/stats").then((r) => { if (r.status === 401) location.href = "/login"; }).catch(() => {});
    };
    es.onopen = () => status("Live.");
  }

  // ---------------------------------------------------------------- a table's page
  async function tablePage() {
    const n = Number(location.pathname.split("/").pop());
    document.getElementById("dl-journal").href = `/api/tables/${n}/journal`;
    document.getElementById("dl-game").href = `/api/tables/${n}/game`;
    async function load() {
      const r = await fetch(`/api/tables/${n}/detail`);
      if (!r.ok) { status(await r.text()); return; }
      const d = await r.json();
      const v = d.table;
      document.getElementById("title").textContent = heading(v);
      document.title = heading(v);
      const now = document.getElementById("now");
      now.replaceChildren(tableBody(v));
      const moves = document.getElementById("moves");
      moves.replaceChildren(...(v.moves || []).map((m) => el("li", { text: m })));
      document.getElementById("diff").textContent = d.diff || "No mismatch with a board read back.";
      document.getElementById("ann").textContent = d.announcements;
      const tb = document.getElementById("events");
      tb.replaceChildren(...d.events.map((e) => el("tr", {},
        el("td", { text: String(e.seq) }), el("td", { text: e.wall }),
        el("td", { text: JSON.stringify(e.event) }))));
    }
    document.querySelectorAll("button[data-cmd]").forEach((b) =>
      b.addEventListener("click", () => command(n, b.dataset.cmd)));
    document.getElementById("say-form").addEventListener("submit", (e) => {
      e.preventDefault();
      const t = document.getElementById("say-text");
      if (t.value.trim()) command(n, "say", t.value.trim());
    });
    // The arbiter's own acts (at a table in a hall, only from here): asked to confirm.
    document.getElementById("takeback-form").addEventListener("submit", (e) => {
      e.preventDefault();
      const plies = document.getElementById("takeback-plies").value;
      const why = document.getElementById("takeback-why").value.trim();
      if (window.confirm(`Take back ${plies} plies at table ${n}?`)) command(n, "takeback", `${plies} ${why}`.trim());
    });
    document.getElementById("clock-form").addEventListener("submit", (e) => {
      e.preventDefault();
      const side = document.getElementById("clock-side").value;
      const secs = document.getElementById("clock-seconds").value;
      if (window.confirm(`Set ${side}'s clock at table ${n} to ${secs} seconds?`)) command(n, "clock", `set ${side} ${secs}`);
    });
    document.getElementById("rec-form").addEventListener("submit", async (e) => {
      e.preventDefault();
      const r = await fetch(`/api/tables/${n}/reconcile`, {
        method: "POST", headers: { "x-tandem-desk": "1" },
        body: document.getElementById("rec-text").value,
      });
      const text = await r.text();
      document.getElementById("rec").textContent = text;
      // Its first line said (the whole report is below the form).
      commandLine(text.split("\n")[0]);
    });
    await load();
    const es = new EventSource("/events");
    es.addEventListener("table", (e) => { if (JSON.parse(e.data).table === n) load(); });
    es.addEventListener("reply", (e) => onReply(JSON.parse(e.data)));
  }

  if (page === "table") {
    tablePage();
  } else {
    const s = document.getElementById("sound");
    if (s) s.addEventListener("click", () => {
      sound = !sound;
      s.textContent = sound ? "Sound off" : "Sound on";
      s.setAttribute("aria-pressed", String(sound));
      if (sound) beep();
    });
    const c = document.getElementById("clear-alerts");
    if (c) c.addEventListener("click", () => {
      for (const id of ["alerts", "alerts-before"]) document.getElementById(id).replaceChildren();
    });
    const pa = document.getElementById("public-all");
    if (pa) pa.addEventListener("click", () => publish(null, true));
    const ph = document.getElementById("public-none");
    if (ph) ph.addEventListener("click", () => publish(null, false));
    const st = document.getElementById("start-all");
    if (st) st.addEventListener("click", () => {
      if (window.confirm("Start every clock of the round now?")) command(null, "start");
    });
    live();
    setInterval(tick, 1000);
  }
})();
