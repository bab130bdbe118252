"use strict";
// The seat's page, screen reader first: every announcement this seat hears
// appended once to the polite log; an error of its own input to the alert;
// focus never moved by the page.
const log = document.getElementById("log");
const error = document.getElementById("error");
const title = document.getElementById("title");
function said(text) {
  const p = document.createElement("p");
  p.textContent = text;
  log.appendChild(p);
  while (log.children.length > 200) log.removeChild(log.firstElementChild);
}
// Each square's words, in the seat's language (from the table).
let squareWords = {};
let lightSquare = "light square";
// The page's own words in the seat's language (`ui` in the state fetched
// first: page.toml); English until they come.
let W = {};
function pageWords(ui) {
  W = ui;
  if (ui.lang) document.documentElement.lang = ui.lang;
  if (ui.seat_page_title) document.title = ui.seat_page_title;
  for (const el of document.querySelectorAll("[data-w]")) {
    const t = W[el.dataset.w];
    if (t && el.textContent !== t) el.textContent = t;
  }
}
function named(s) {
  if (s.ui) pageWords(s.ui);
  const side = W[`${s.seat}_side`] || s.seat;
  const t = (W.seat_title || "Your seat: {side}").split("{side}").join(side);
  if (title.textContent !== t) title.textContent = t;
  if (s.squares) squareWords = s.squares;
  if (s.light_square) lightSquare = s.light_square;
  if (s.board && typeof drawBoard === "function") drawBoard(s.board);
  // The grid drawn: what the page's time to interactive counts.
  if (!performance.getEntriesByName("seat-ready").length) performance.mark("seat-ready");
}
const fetchState = () => fetch("/api/state").then((r) => r.json()).then(named).catch(() => {});
fetchState();
liveStream(
  { said: (e) => said(e.data), state: (e) => named(JSON.parse(e.data)) },
  said,
  () => W,
  fetchState,
);
document.getElementById("command").addEventListener("submit", async (e) => {
  e.preventDefault();
  const line = document.getElementById("line");
  const command = line.value.trim();
  if (!command) return;
  if (await send("/api/command", { command })) line.value = "";
});
// Sends a request of the seat's; an error of its own goes to the alert.
async function send(path, body) {
  error.textContent = "";
  const r = await fetch(path, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  const d = await r.json().catch(() => ({ ok: false, error: "no answer" }));
  if (!d.ok) {
    error.textContent = (d.said && d.said.length ? d.said.join(" ") : d.error) || "refused";
  }
  return d.ok;
}

// The board as a keyboard grid (WAI-ARIA grid pattern): one tab stop, the
// arrow keys, Home and End move between squares; each square is read by its
// name and what stands on it, with a short label for braille displays. The
// grid is drawn from the game's picture in the state and updated in place,
// so focus stays on the square the player is on.
const board = document.getElementById("board");
function cellsOf(picture) {
  const at = {};
  for (const p of picture.pieces || []) at[p.square] = p;
  const layout = picture.layout || {};
  const rows = [];
  if (layout.kind === "grid") {
    for (let r = 0; r < layout.rows; r++) {
      const row = [];
      for (let c = 0; c < layout.cols; c++) {
        const sq = (layout.squares || []).find((s) => s.row === r && s.col === c);
        row.push(sq ? sq.id : null);
      }
      rows.push(row);
    }
  } else {
    const top = [], bottom = [];
    for (let i = 13; i <= 24; i++) top.push(String(i));
    for (let i = 12; i >= 1; i--) bottom.push(String(i));
    rows.push(top, bottom, ["bar", "off"]);
  }
  return { rows, at };
}
// A square's name, its piece's code (seen), and the rest of its words
// (heard: the table's, in the seat's language, after the name).
function words(id, p) {
  if (id === null) return { name: "", code: "", rest: lightSquare, braille: "" };
  // The table's words start with the square's name as this seat calls it
  // (a backgammon point by its own count: black's 24 is white's 1).
  const said = squareWords[id] || id;
  const cut = said.indexOf(", ");
  const name = cut > 0 ? said.slice(0, cut) : id;
  const rest = cut > 0 ? said.slice(cut) : "";
  if (!p) return { name, code: "", rest, braille: `${name}` };
  return { name, code: p.code, rest, braille: `${name}${p.code}` };
}
// A square's content: its name (seen and heard), the piece's code (seen
// only), what stands there (heard only): its accessible name holds its
// visible name.
function fill(c, w) {
  const key = `${w.name}|${w.code}|${w.rest}`;
  if (c.dataset.key === key) return;
  c.dataset.key = key;
  const name = document.createElement("span");
  name.textContent = w.name;
  const code = document.createElement("span");
  code.setAttribute("aria-hidden", "true");
  code.className = "pc";
  code.textContent = w.code ? ` ${w.code}` : "";
  const rest = document.createElement("span");
  rest.className = "sr";
  rest.textContent = w.rest;
  c.replaceChildren(name, code, rest);
}
let focusAt = [0, 0];
function drawBoard(picture) {
  const { rows, at } = cellsOf(picture);
  if (board.children.length !== rows.length) {
    board.replaceChildren(...rows.map(() => {
      const r = document.createElement("div");
      r.setAttribute("role", "row");
      return r;
    }));
  }
  rows.forEach((row, ri) => {
    const r = board.children[ri];
    while (r.children.length > row.length) r.removeChild(r.lastElementChild);
    while (r.children.length < row.length) {
      const c = document.createElement("div");
      c.setAttribute("role", "gridcell");
      c.tabIndex = -1;
      r.appendChild(c);
    }
    row.forEach((id, ci) => {
      const c = r.children[ci];
      const w = words(id, id === null ? null : at[id]);
      fill(c, w);
      if (id === null) delete c.dataset.id;
      else c.dataset.id = id;
      if (id !== null && !c.hasAttribute("aria-selected")) c.setAttribute("aria-selected", "false");
      if (c.getAttribute("aria-braillelabel") !== w.braille) c.setAttribute("aria-braillelabel", w.braille);
      c.dataset.r = ri;
      c.dataset.c = ci;
      const mine = ri === focusAt[0] && ci === focusAt[1];
      c.tabIndex = mine ? 0 : -1;
    });
  });
}
board.addEventListener("keydown", (e) => {
  const rows = [...board.children].map((r) => r.children.length);
  let [r, c] = focusAt;
  switch (e.key) {
    case "ArrowRight": c = Math.min(c + 1, rows[r] - 1); break;
    case "ArrowLeft": c = Math.max(c - 1, 0); break;
    case "ArrowDown": r = Math.min(r + 1, rows.length - 1); c = Math.min(c, rows[r] - 1); break;
    case "ArrowUp": r = Math.max(r - 1, 0); c = Math.min(c, rows[r] - 1); break;
    case "Home": c = 0; break;
    case "End": c = rows[r] - 1; break;
    default: return;
  }
  e.preventDefault();
  const from = board.children[focusAt[0]].children[focusAt[1]];
  const to = board.children[r].children[c];
  from.tabIndex = -1;
  to.tabIndex = 0;
  focusAt = [r, c];
  to.focus();
});
// A move by its squares: the piece's square, then where it goes (a tap or
// a click, or Enter or Space on the focused square): sent as `from-to`,
// which the game reads (a capture by its landing square; the game asks when
// that is not enough). Tapping the chosen square again lets it go.
let chosen = null;
function choose(c) {
  const id = c.dataset.id;
  if (!id) return;
  if (chosen === c) {
    c.setAttribute("aria-selected", "false");
    chosen = null;
    return;
  }
  if (!chosen) {
    chosen = c;
    c.setAttribute("aria-selected", "true");
    return;
  }
  const from = chosen.dataset.id;
  chosen.setAttribute("aria-selected", "false");
  chosen = null;
  send("/api/move", { move: `${from}-${id}` });
}
board.addEventListener("click", (e) => {
  const c = e.target.closest("[role=gridcell]");
  if (!c) return;
  board.children[focusAt[0]].children[focusAt[1]].tabIndex = -1;
  focusAt = [Number(c.dataset.r), Number(c.dataset.c)];
  c.tabIndex = 0;
  choose(c);
});
board.addEventListener("keydown", (e) => {
  if (e.key !== "Enter" && e.key !== " ") return;
  const c = e.target.closest("[role=gridcell]");
  if (!c) return;
  e.preventDefault();
  choose(c);
});
