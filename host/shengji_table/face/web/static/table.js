// The public table: the state from /api/table, then every change from the /events stream.
"use strict";
const $ = id => document.getElementById(id);

function seatPositions(n) {
  // seat 0 at the bottom, seat numbers rising counter-clockwise as seen from above the table
  const out = [];
  for (let i = 0; i < n; i++) {
    const a = -Math.PI / 2 + (2 * Math.PI * i) / n;
    out.push({x: 50 + 40 * Math.cos(a), y: 50 - 40 * Math.sin(a)});
  }
  return out;
}

// The play clock: the state gives the seconds left when it was made; the page counts down between
// pushes (a push comes only when something happens at the table).
let clock = null;

function showClock() {
  const el = $("clock");
  if (!clock) { el.textContent = "–"; el.className = ""; return; }
  const left = Math.max(0, clock.left - (performance.now() - clock.at) / 1000);
  el.textContent = clock.name + " " + Math.ceil(left) + " s" + (clock.phase === "burying" ? " (burial)" : "");
  el.className = left <= 0 ? "expired" : (left <= 5 ? "short" : "");
}
setInterval(showClock, 250);

function render(s) {
  const names = {};
  for (const seat of s.seats) names[seat.seat] = seat.name;
  $("hand").textContent = s.hand || "–";
  $("phase").textContent = s.phase;
  $("level").textContent = s.level || "–";
  $("trump").textContent = s.trump || "–";
  $("turn").textContent = s.turn === null ? "–" : names[s.turn];
  $("turn").dataset.seat = s.turn === null ? "" : s.turn;
  clock = s.clock ? {...s.clock, name: names[s.clock.seat], at: performance.now()} : null;
  showClock();
  const seats = $("seats");
  seats.replaceChildren();
  const pos = seatPositions(s.players);
  const rings = {};
  for (const r of s.rings) rings[r.ring] = r;
  for (const seat of s.seats) {
    const el = document.createElement("div");
    el.className = "seat" + (seat.turn ? " on-turn" : "") + (seat.dealer ? " dealer" : "");
    el.dataset.seat = seat.seat;
    el.style.left = pos[seat.seat].x + "%";
    el.style.top = pos[seat.seat].y + "%";
    const ring = rings[seat.seat];
    const side = s.teams.declarers.includes(seat.seat) ? "declarers"
      : (s.teams.attackers === "unknown" ? "unknown" : (s.teams.attackers.includes(seat.seat) ? "attackers" : ""));
    el.innerHTML = "";
    const dot = document.createElement("span");
    dot.className = "ring ring-" + (ring ? ring.pattern : "OFF");
    if (ring && ring.pattern !== "OFF") dot.style.borderColor = ringColour(ring.rgb);
    const name = document.createElement("b");
    name.textContent = seat.name + (seat.dealer ? " (dealer)" : "");
    const info = document.createElement("small");
    info.textContent = "level " + seat.level + " · " + seat.points + " pts" + (side ? " · " + side : "")
      + (seat.entering ? " · laying " + seat.entering : "");
    el.append(dot, name, document.createElement("br"), info);
    seats.append(el);
  }
  playsEl($("trick"), s.trick, names);
  playsEl($("last-trick"), s.last_trick ? s.last_trick.plays : [], names);
  $("last-winner").textContent = s.last_trick ? "— won by " + names[s.last_trick.winner]
    + " (" + s.last_trick.points + " pts)" : "";
  $("points-declarers").textContent = s.points.declarers;
  $("points-attackers").textContent = s.points.attackers;
  $("teams").textContent = s.teams.declarers.length
    ? "Declarers: " + s.teams.declarers.map(x => names[x]).join(", ") + ". Attackers: "
      + (s.teams.attackers === "unknown" ? "unknown until the friend is found" : s.teams.attackers.map(x => names[x]).join(", "))
    : "";
  $("calls").textContent = s.friend_calls.length
    ? "Friend called: " + s.friend_calls.map(c => "copy " + c.nth + " of " + c.card.text).join(", ") : "";
  $("result").textContent = s.result || "";
  const kitty = $("kitty");
  kitty.replaceChildren();
  $("kitty-box").hidden = !s.kitty;
  for (const c of s.kitty || []) kitty.append(cardEl(c));
  const list = $("announcements");
  list.replaceChildren();
  for (const text of s.announcements.slice().reverse()) {
    const li = document.createElement("li");
    li.textContent = text;
    if (/^referee/i.test(text)) li.className = "referee";
    list.append(li);
  }
  const paused = $("paused");
  paused.hidden = !s.paused;
  paused.textContent = s.paused ? "Paused by the referee: " + s.paused : "";
  const legend = $("legend");
  if (!legend.childElementCount) {
    for (const l of s.legend) {
      const dt = document.createElement("dt");
      dt.textContent = l.looks;
      const dd = document.createElement("dd");
      dd.textContent = l.means;
      legend.append(dt, dd);
    }
  }
  document.body.dataset.version = (Number(document.body.dataset.version || 0) + 1).toString();
}

function connect() {
  const es = new EventSource("/events");
  es.addEventListener("state", ev => { render(JSON.parse(ev.data)); $("link").textContent = "live"; });
  es.onerror = () => { $("link").textContent = "reconnecting…"; };
}

fetch("/api/table").then(r => r.json()).then(render).finally(connect);
