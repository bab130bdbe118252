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
function named(s) {
  const t = `Your seat: ${s.seat}`;
  if (title.textContent !== t) title.textContent = t;
}
fetch("/api/state").then((r) => r.json()).then(named).catch(() => {});
const events = new EventSource("/events");
events.addEventListener("said", (e) => said(e.data));
events.addEventListener("state", (e) => named(JSON.parse(e.data)));
document.getElementById("command").addEventListener("submit", async (e) => {
  e.preventDefault();
  const line = document.getElementById("line");
  const command = line.value.trim();
  if (!command) return;
  error.textContent = "";
  const r = await fetch("/api/command", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ command }),
  });
  const d = await r.json().catch(() => ({ ok: false, error: "no answer" }));
  if (d.ok) {
    line.value = "";
  } else {
    error.textContent = (d.said && d.said.length ? d.said.join(" ") : d.error) || "refused";
  }
});
