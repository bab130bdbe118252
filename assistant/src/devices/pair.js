"use strict";
// The pairing page: what it is doing in the status, a refusal in the alert,
// each inserted as every page says things (announce.js); the focus stays in
// the code's field.
const status = tandemAnnouncer(document.getElementById("status"), 1);
const error = document.getElementById("error");
const refused = tandemAnnouncer(error, 1);
document.getElementById("pair").addEventListener("submit", async (e) => {
  e.preventDefault();
  const code = document.getElementById("code").value.trim();
  error.replaceChildren();
  status("Pairing…");
  const r = await fetch("/api/pair", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ code }),
  });
  if (r.ok) {
    const d = await r.json().catch(() => ({}));
    location.assign(d.page === "/board" ? "/board" : "/seat");
  } else {
    const d = await r.json().catch(() => ({ error: "refused" }));
    refused(d.error || "refused");
  }
});
