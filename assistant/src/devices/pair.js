"use strict";
document.getElementById("pair").addEventListener("submit", async (e) => {
  e.preventDefault();
  const status = document.getElementById("status");
  const code = document.getElementById("code").value.trim();
  status.textContent = "Pairing…";
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
    status.textContent = d.error || "refused";
  }
});
