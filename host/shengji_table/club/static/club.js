// The live club pages: one EventSource; each page draws the event it cares about.
"use strict";
function esc(s) { return String(s).replace(/[&<>"]/g, c => ({"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;"}[c])); }
function standingsTable(rows) {
  if (!rows.length) return "<p>No hands recorded yet.</p>";
  return "<table><thead><tr><th>#</th><th>Partnership</th><th>Score</th><th>Hands</th></tr></thead><tbody>" +
    rows.map(r => `<tr><td>${r.rank}</td><td>${esc(r.label)}</td><td class="score">${r.score}</td><td>${r.hands}</td></tr>`).join("") +
    "</tbody></table>";
}
function drawStandings(data) {
  const el = document.getElementById("standings");
  if (!el) return;
  const how = data.scoring === "duplicate" ? "duplicate: cross-IMPs per board" : "levels gained";
  let html = `<p id="hands">${data.hands} hand(s) recorded</p><p id="scoring">scored by ${esc(how)}</p>` +
    `<h2>All sessions</h2>` + standingsTable(data.overall);
  for (const s of data.sessions) html += `<h2>${esc(s.session)}</h2>` + standingsTable(s.standings);
  el.innerHTML = html;
}
function drawOverview(data) {
  const el = document.getElementById("overview");
  if (!el) return;
  el.innerHTML = data.tables.map(t => {
    const p = t.public;
    let inner = `<h2>Table ${esc(t.table)}</h2><p class="small">rows received: ${t.seq}` +
      (t.match ? `, match ${esc(t.match)}` : "") + ` · <a href="/tables/${encodeURIComponent(t.table)}/sheet">score sheet</a></p>`;
    if (t.withdrawn) inner += `<p class="refused">withdrawn: ${esc(t.withdrawn_reason || "")}</p>`;
    if (t.refused) inner += `<p class="refused">not counted: ${esc(t.refused)}</p>`;
    if (t.flagged) inner += `<p class="refused">flagged: ${esc(t.flagged)}</p>`;
    if (p) {
      inner += `<p>Hand ${p.hand} · ${esc(p.phase)} · level ${esc(p.level || "-")} · trump ${esc(p.trump || "?")}</p>` +
        (p.live ? `<p class="small">${esc(p.live)}</p>` :
         `<p>Attackers ${p.points.attackers} / ${p.points.total} · tricks ${p.tricks_played}</p>`) +
        `<p class="small">${p.seats.map(s => `${esc(s.name)} (${esc(s.level)})`).join(" · ")}</p>`;
    }
    return `<div class="table${t.withdrawn ? " withdrawn" : ""}">${inner}</div>`;
  }).join("") || "<p>No tables yet (shengji-table club tables add).</p>";
}
const source = new EventSource("/events");
source.addEventListener("standings", e => drawStandings(JSON.parse(e.data)));
source.addEventListener("overview", e => drawOverview(JSON.parse(e.data)));
