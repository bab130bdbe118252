"use strict";
// The sighted seat's page: the board the table draws (the desk's SVG, from
// this seat's chair), tapped; the clocks, the last move, the boards' sync,
// the offers asked twice, and the table's announcements as text. What to
// show comes from the table (`/api/state`, the `state` and `said` events);
// this script only lays it out and sends what was tapped.
const $ = (id) => document.getElementById(id);
const boardEl = $("board");
const prompt = $("prompt");
const error = $("error");
const log = $("log");
let st = null;        // the last state
let at = 0;           // when it came (for the running clock)
let tapped = [];      // a path: the piece's square, then landings
let hops = [];        // backgammon: [from, to] each checker
let hopFrom = null;   // backgammon: the checker picked up
let pending = null;   // the moves a promotion's choice is asked for

// The page's own words, in the seat's language (`ui` in the first state:
// page.toml); English until they come.
let W = {};
function w(key, params) {
  let text = W[key] || key;
  for (const [k, v] of Object.entries(params || {})) text = text.split(`{${k}}`).join(String(v));
  return text;
}
function pageWords(ui) {
  W = ui;
  if (ui.lang) document.documentElement.lang = ui.lang;
  if (ui.page_title) document.title = ui.page_title;
  for (const el of document.querySelectorAll("[data-w]")) {
    const t = W[el.dataset.w];
    if (t && el.textContent !== t) el.textContent = t;
  }
}
function said(text) {
  const p = document.createElement("p");
  p.textContent = text;
  log.appendChild(p);
  while (log.children.length > 200) log.removeChild(log.firstElementChild);
  log.scrollTop = log.scrollHeight;
}
function tell(text) { prompt.textContent = text; }

async function send(path, body) {
  error.textContent = "";
  const r = await fetch(path, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  const d = await r.json().catch(() => ({ ok: false, error: "no answer" }));
  if (!d.ok) error.textContent = (d.said && d.said.length ? d.said.join(" ") : d.error) || "refused";
  return d.ok;
}
const command = (c) => send("/api/command", { command: c });
async function play(text) {
  clearTaps();
  tell("");
  await send("/api/move", { move: text });
}

// ---- the state ----
function mine() {
  if (!st || st.result) return false;
  const a = st.taps ? st.taps.actor : st.turn;
  return a === null || a === undefined ? true : a === st.seat;
}
function show(s) {
  // The state fetched first may come after a newer one from the stream:
  // its words are taken, the newer state kept.
  if (st && s.ui && s.t_ms < st.t_ms) s = Object.assign({}, st, { ui: s.ui });
  const first = !st;
  // The page's words came (the first state fetched): everything said afresh.
  const fresh = !!s.ui;
  const moved = !st || fresh || st.ply !== s.ply || JSON.stringify(st.taps) !== JSON.stringify(s.taps);
  st = s;
  at = performance.now();
  if (s.ui) pageWords(s.ui);
  const title = w("title", { side: w(`${s.seat}_side`) });
  if ($("title").textContent !== title) $("title").textContent = title;
  if (moved || first) { clearTaps(); drawBoard(); }
  const last = s.moves && s.moves.length ? s.moves[s.moves.length - 1] : w("none_yet");
  $("last").textContent = last;
  const behind = ["white", "black"].filter((c) => s.boards && s.boards[c].behind > 0)
    .map((c) => w(s.boards[c].behind > 1 ? "behind_many" : "behind_one", { side: w(`${c}_side`), n: s.boards[c].behind }));
  $("sync").textContent = behind.length ? behind.join("; ") : w("in_sync");
  const dice = s.board && s.board.dice && s.board.dice.length ? s.board.dice.join("–") : null;
  const cube = s.board && s.board.cube ? w("cube", { n: s.board.cube.value }) : null;
  const extra = [dice, cube].filter(Boolean).join(", ");
  $("extra").textContent = extra; $("extra").hidden = !extra; $("extra-label").hidden = !extra;
  controls();
  clocks();
  if (s.result) tell(w("over", { result: s.result }));
  else if (moved) tell(mine() ? yourTurn() : w("their_turn"));
  // The board drawn and tappable: what the page's time to interactive counts.
  if (first) performance.mark("board-ready");
}
function yourTurn() {
  const t = st.taps || { moves: [], actions: [] };
  if (t.actions.includes("take")) return w("take_or_pass");
  if (t.actions.includes("roll") && !t.moves.length) return w("enter_your_roll");
  if (t.actions.includes("roll-here") && !t.moves.length) return w("roll_your_dice");
  if (t.hops) return t.moves.length ? w("tap_checker") : w("no_move_pass");
  return w("tap_piece");
}
function fmt(ms) {
  const s = Math.max(0, Math.ceil(ms / 1000));
  const h = Math.floor(s / 3600), m = Math.floor((s % 3600) / 60), x = s % 60;
  const mm = h ? `${h}:${String(m).padStart(2, "0")}` : `${m}`;
  return `${mm}:${String(x).padStart(2, "0")}`;
}
function clocks() {
  if (!st || !st.clocks) return;
  for (const c of ["white", "black"]) {
    const on = st.clocks.running && st.turn === c && !st.result;
    const left = st.clocks[c].remaining_ms - (on ? performance.now() - at : 0);
    const t = fmt(left);
    if ($(`time-${c}`).textContent !== t) $(`time-${c}`).textContent = t;
    $(`clock-${c}`).classList.toggle("on", on);
  }
}
setInterval(clocks, 250);

// ---- the board ----
function drawBoard() {
  boardEl.innerHTML = st.svg;
  const svg = boardEl.querySelector("svg");
  if (!svg) return;
  // Tapped, not only looked at: a group of buttons, one a square.
  svg.setAttribute("role", "group");
  for (const g of svg.querySelectorAll(".piece, text, .die, .cube")) g.setAttribute("aria-hidden", "true");
  for (const sq of svg.querySelectorAll(".square[data-square]")) {
    const id = sq.getAttribute("data-square");
    sq.setAttribute("role", "button");
    sq.setAttribute("tabindex", "0");
    sq.setAttribute("aria-label", (st.squares && st.squares[id]) || id);
  }
}
function mark(ids, cls, colour) {
  const svg = boardEl.querySelector("svg");
  if (!svg) return;
  for (const m of svg.querySelectorAll(`.${cls}`)) m.remove();
  for (const id of ids) {
    const sq = svg.querySelector(`.square[data-square="${CSS.escape(id)}"]`);
    if (!sq) continue;
    const b = sq.getBBox();
    const r = document.createElementNS("http://www.w3.org/2000/svg", "rect");
    r.setAttribute("class", cls);
    r.setAttribute("x", b.x + 2); r.setAttribute("y", b.y + 2);
    r.setAttribute("width", Math.max(0, b.width - 4)); r.setAttribute("height", Math.max(0, b.height - 4));
    r.setAttribute("fill", "none"); r.setAttribute("stroke", colour);
    r.setAttribute("stroke-width", "4"); r.setAttribute("pointer-events", "none");
    r.setAttribute("aria-hidden", "true");
    svg.appendChild(r);
  }
}
function clearTaps() {
  tapped = []; hops = []; hopFrom = null; pending = null;
  $("promotion").hidden = true;
  mark([], "chosen"); mark([], "target");
  hopsShown();
}
// Whether `a` comes in `b` in order (landings tapped, some left out).
function within(a, b) {
  let i = 0;
  for (const x of b) if (i < a.length && x === a[i]) i++;
  return i === a.length;
}
function tap(id) {
  if (!st) return;
  if (!mine()) { tell(w("not_your_turn")); return; }
  const t = st.taps || { moves: [] };
  if (t.hops) { tapHop(id, t); return; }
  const starts = (sq) => t.moves.some((m) => m.squares[0] === sq);
  if (!tapped.length || (tapped.length === 1 && id === tapped[0])) {
    if (tapped.length) { clearTaps(); tell(yourTurn()); return; }
    if (!starts(id)) { tell(w("no_move_from", { square: id })); return; }
    return pick(id, t);
  }
  const path = [...tapped, id];
  const ways = t.moves.filter((m) => m.squares[0] === path[0] && within(path.slice(1), m.squares.slice(1)));
  if (!ways.length) {
    if (starts(id)) return pick(id, t);
    tell(w("cannot_go", { from: tapped[0], to: id }));
    return;
  }
  const done = ways.filter((m) => m.squares[m.squares.length - 1] === id);
  const texts = [...new Set(done.map((m) => m.text))];
  if (texts.length === 1) { play(texts[0]); return; }
  if (done.length && done.every((m) => m.choice)) { askChoice(done); return; }
  if (done.length) {
    // Two ways to the same square: the landings in between, in order.
    tapped = [path[0]];
    mark([path[0]], "chosen", "#1a5fb4");
    tell(w("two_ways", { square: id }));
    return;
  }
  tapped = path;
  mark(path, "chosen", "#1a5fb4");
  tell(w("through", { squares: path.slice(1).join(", ") }));
}
function pick(id, t) {
  tapped = [id];
  mark([id], "chosen", "#1a5fb4");
  const to = [...new Set(t.moves.filter((m) => m.squares[0] === id).map((m) => m.squares[m.squares.length - 1]))];
  mark(to, "target", "#0b6e2e");
  tell(w("chosen", { square: id }));
}
function askChoice(moves) {
  pending = moves;
  const box = $("choices");
  box.replaceChildren(...moves.map((m) => {
    const b = document.createElement("button");
    b.type = "button";
    b.textContent = w(m.choice);
    b.addEventListener("click", () => play(m.text));
    return b;
  }));
  $("promotion").hidden = false;
  tell(w("choose_promotion"));
}
$("choice-cancel").addEventListener("click", () => { clearTaps(); tell(yourTurn()); });

// ---- backgammon: each checker, its point ----
function pointName(t, id) { return (t.names && t.names[id]) || id; }
function hopsShown() {
  const t = st && st.taps;
  const on = !!(t && t.hops && hops.length);
  $("hops").hidden = !on;
  if (on) $("hops-text").textContent = w("tapped", { hops: hops.map((h) => `${pointName(t, h[0])}/${pointName(t, h[1])}`).join(" ") });
}
function pairs(squares) {
  const out = [];
  for (let i = 0; i + 1 < squares.length; i += 2) out.push([squares[i], squares[i + 1]]);
  return out;
}
// Whether the tapped hops are checkers of a play's steps (a hop may use
// more than one die: 24 to 13 with six-five): -1 not, 0 the whole play,
// else how many steps are left.
function fits(hops, steps) {
  if (!hops.length) return steps.length;
  const [a, b] = hops[0];
  let best = -1;
  const chain = (at, left) => {
    for (let i = 0; i < left.length; i++) {
      if (left[i][0] !== at) continue;
      const rest = left.slice(0, i).concat(left.slice(i + 1));
      const r = left[i][1] === b ? fits(hops.slice(1), rest) : chain(left[i][1], rest);
      if (r === 0) return 0;
      if (r > 0 && (best < 0 || r < best)) best = r;
    }
    return best;
  };
  return chain(a, steps);
}
// The pips a hop moves, in the mover's count (the bar 25, off 0).
function pips(t, h) {
  const n = (id) => { const x = pointName(t, id); return x === "bar" ? 25 : x === "off" ? 0 : Number(x); };
  return Math.max(0, n(h[0]) - n(h[1]));
}
function tapHop(id, t) {
  if (!t.moves.length) { tell(yourTurn()); return; }
  if (hopFrom === null) {
    const own = (st.board.pieces || []).some((p) => p.square === id && p.side === st.seat);
    const reached = hops.some((h) => h[1] === id);
    if (!own && !reached) { tell(w("no_checker", { point: pointName(t, id) })); return; }
    hopFrom = id;
    mark([id], "chosen", "#1a5fb4");
    tell(w("checker_on", { point: pointName(t, id) }));
    return;
  }
  if (id === hopFrom) { hopFrom = null; mark(hops.map((h) => h[1]), "chosen", "#1a5fb4"); tell(yourTurn()); return; }
  hops.push([hopFrom, id]);
  hopFrom = null;
  mark(hops.map((h) => h[1]), "chosen", "#1a5fb4");
  hopsShown();
  const ways = t.moves.map((m) => ({ m, left: fits(hops, pairs(m.squares)) })).filter((w) => w.left >= 0);
  const whole = ways.find((w) => w.left === 0);
  if (whole) { play(whole.m.text); return; }
  if (ways.length) { tell(w("next_checker")); return; }
  // Not as the table lists the play (the same play by other points on
  // the way): sent when the dice are used, the table reads it.
  const dice = (st.board && st.board.dice) || [];
  const all = dice.length === 2 && dice[0] === dice[1] ? 4 * dice[0] : dice.reduce((a, b) => a + b, 0);
  const used = hops.reduce((a, h) => a + pips(t, h), 0);
  if (used >= all) { playHops(); return; }
  tell(w("next_or_play"));
}
function playHops() {
  const t = st.taps;
  play(hops.map((h) => `${pointName(t, h[0])}/${pointName(t, h[1])}`).join(" "));
}
$("hops-play").addEventListener("click", playHops);
$("hops-undo").addEventListener("click", () => {
  hops.pop(); hopFrom = null;
  mark(hops.map((h) => h[1]), "chosen", "#1a5fb4");
  hopsShown();
  tell(yourTurn());
});

boardEl.addEventListener("click", (e) => {
  const sq = e.target.closest("[data-square]");
  if (sq) tap(sq.getAttribute("data-square"));
});
boardEl.addEventListener("keydown", (e) => {
  if (e.key !== "Enter" && e.key !== " ") return;
  const sq = e.target.closest("[data-square]");
  if (!sq) return;
  e.preventDefault();
  tap(sq.getAttribute("data-square"));
});

// ---- the game's actions, offers asked twice ----
const actions = ["roll-here", "double", "take", "pass"];
const sent = { "roll-here": "roll" };
function controls() {
  const t = (st && st.taps) || { actions: [] };
  const now = mine() ? t.actions : [];
  $("roll").hidden = !now.includes("roll");
  $("actions").replaceChildren(...now.filter((a) => actions.includes(a)).map((a) => {
    const b = document.createElement("button");
    b.type = "button";
    b.textContent = w(a);
    b.addEventListener("click", () => (a === "pass" ? ask(w("ask_pass"), w("yes_pass"), () => command("pass")) : command(sent[a] || a)));
    return b;
  }));
  const theirs = st && st.draw_offer && st.draw_offer !== st.seat;
  $("accept").hidden = !theirs;
  $("decline").hidden = !theirs;
  $("draw").hidden = !!theirs || !!(st && st.result);
  $("resign").hidden = !!(st && st.result);
}
$("roll-enter").addEventListener("click", () => command(`roll ${$("die1").value} ${$("die2").value}`));
function ask(question, yes, then) {
  $("confirm-text").textContent = question;
  $("confirm-yes").textContent = yes;
  $("confirm").hidden = false;
  $("offers").hidden = true;
  confirmThen = then;
  $("confirm-no").focus();
}
let confirmThen = null;
function closeAsk() {
  $("confirm").hidden = true;
  $("offers").hidden = false;
  confirmThen = null;
}
$("confirm-yes").addEventListener("click", () => { const f = confirmThen; closeAsk(); if (f) f(); });
$("confirm-no").addEventListener("click", () => closeAsk());
$("draw").addEventListener("click", () => ask(w("ask_offer"), w("yes_offer"), () => command("draw offer")));
$("accept").addEventListener("click", () => ask(w("ask_accept"), w("yes_accept"), () => command("draw accept")));
$("decline").addEventListener("click", () => command("draw decline"));
$("resign").addEventListener("click", () => ask(w("ask_resign"), w("yes_resign"), () => command("resign")));

const fetchState = () => fetch("/api/state").then((r) => r.json()).then(show).catch(() => {});
fetchState();
liveStream(
  { said: (e) => said(e.data), state: (e) => show(JSON.parse(e.data)) },
  said,
  () => W,
  fetchState,
);
