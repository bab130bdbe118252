"use strict";
// What both seat pages (`seat.js`, `board.js`) share: the table's live
// stream, the page's own words, a request to the table.

// The page's own words in the seat's language (`ui` in the state fetched
// first: assistant/data/page/LANG.toml); English until they come.
let W = {};
// Takes the words `ui`: the page's language, its title (`ui[titleKey]`),
// every element that names its words (`data-w`).
function pageWords(ui, titleKey) {
  W = ui;
  if (ui.lang) document.documentElement.lang = ui.lang;
  if (ui[titleKey]) document.title = ui[titleKey];
  for (const el of document.querySelectorAll("[data-w]")) {
    const t = W[el.dataset.w];
    if (t && el.textContent !== t) el.textContent = t;
  }
}

// What the page says in its log (`said`, given to `follow`): a refusal
// the table did not word itself is said there too.
let pageSay = () => {};

// Sends a request of the seat's; a refusal shown in the error box and heard
// once (`refusal`).
async function send(path, body) {
  const error = document.getElementById("error");
  error.textContent = "";
  const r = await fetch(path, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  const d = await r.json().catch(() => ({ ok: false, error: "no answer" }));
  if (!d.ok) refusal(d, error, pageSay);
  return d.ok;
}

// The table followed: its state fetched now (and again when the stream is
// back), each state to `show`, each announcement to `said`.
function follow(show, said) {
  pageSay = said;
  const fetchState = () => fetch("/api/state").then((r) => r.json()).then(show).catch(() => {});
  fetchState();
  liveStream(
    { said: (e) => said(e.data), state: (e) => show(JSON.parse(e.data)) },
    said,
    () => W,
    fetchState,
  );
}

// The table's live stream: when
// it breaks (the table stopped, the network gone, the stream refused) it is
// opened again after 1 s, then 2, 4... 30 s at most; the page's log says
// once that the table cannot be reached, and once that it is back (then
// the state is fetched afresh: what was missed meanwhile).
function liveStream(handlers, say, words, refresh) {
  const first = 1000, most = 30000;
  let wait = first;
  let lost = false;
  function open() {
    const source = new EventSource("/events");
    for (const [name, f] of Object.entries(handlers)) source.addEventListener(name, f);
    source.onopen = () => {
      wait = first;
      if (lost) {
        lost = false;
        say(words().table_back || "The table is back.");
        refresh();
      }
    };
    source.onerror = () => {
      // The browser's own retry is not used: it gives up on a refusal.
      source.close();
      if (!lost) {
        lost = true;
        say(words().table_lost || "The table cannot be reached: trying again.");
      }
      setTimeout(open, wait);
      wait = Math.min(wait * 2, most);
    };
  }
  open();
}

// A refusal of the seat's request (`d`, the answer's JSON) shown in `box`
// (not read: `aria-hidden`) and heard once: the table's words (`said`) come
// to the log on the stream as every other announcement; the page's own (no
// answer, not paired) are given to `say` here.
function refusal(d, box, say) {
  const table = d.said && d.said.length ? d.said.join(" ") : "";
  box.textContent = table || d.error || "refused";
  if (!table) say(box.textContent);
}
