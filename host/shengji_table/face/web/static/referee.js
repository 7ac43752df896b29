// The referee's console: /api/referee on every change the /referee/events stream pings.
"use strict";
const $ = id => document.getElementById(id);
let names = {};

function time(at) { return new Date(at * 1000).toISOString().slice(11, 19); }

function summary(e) {
  const p = e.payload;
  if (e.kind === "game") return p.type + " " + JSON.stringify(Object.fromEntries(Object.entries(p).filter(([k]) => k !== "type")));
  if (e.kind === "effect") return p.type === "announce" ? "announce: " + p.text : p.type + " " + (p.seat ?? "") + " " + (p.state || "");
  if (e.kind === "ruling") return p.rule + " seat " + p.seat + ": " + p.reason;
  return JSON.stringify(p);
}

function render(s) {
  const pub = s.public;
  names = {};
  for (const seat of pub.seats) names[seat.seat] = seat.name;
  $("hand").textContent = pub.hand || "–";
  $("phase").textContent = pub.phase;
  $("trump").textContent = pub.level ? trumpText(pub.trump, pub.level) : "–";
  $("turn").textContent = pub.turn === null ? "–" : names[pub.turn];
  $("points").textContent = pub.points.attackers + " attackers / " + pub.points.declarers + " declarers";
  $("table-state").textContent = s.paused ? "paused: " + s.paused : "taking taps";
  $("undo-note").textContent = s.referee_undo ? "" : "(the ruleset does not allow undo: referee_undo is off)";
  for (const sel of document.querySelectorAll(".seat-select")) {
    if (sel.childElementCount !== pub.players) {
      sel.replaceChildren(...pub.seats.map(x => new Option(x.name, x.seat)));
    }
  }
  playsEl($("trick"), pub.trick, names);
  const hands = $("hands");
  hands.replaceChildren();
  for (const [seat, cards] of Object.entries(s.hands)) {
    const row = document.createElement("div");
    row.className = "play small";
    const who = document.createElement("span");
    who.className = "who";
    who.textContent = names[seat] + " (" + cards.length + ")";
    const box = document.createElement("span");
    box.className = "cards";
    for (const c of cards) box.append(cardEl(c));
    row.append(who, box);
    hands.append(row);
  }
  const kitty = $("kitty");
  kitty.replaceChildren();
  for (const c of (s.buried.length ? s.buried : s.kitty)) kitty.append(cardEl(c));
  const listed = $("hand-rulings");
  listed.replaceChildren(...s.hand_rulings.map(r => {
    const li = document.createElement("li");
    li.value = r.number;
    li.textContent = r.text + (r.reason ? ": " + r.reason : "") + (r.reversed ? " (reversed)" : "");
    if (r.reversed) li.className = "reversed";
    return li;
  }));
  const open = s.hand_rulings.filter(r => !r.reversed && r.type !== "referee_reverse");
  const select = $("ruling-select");
  const chosen = select.value;
  select.replaceChildren(...open.map(r => new Option(r.number + ". " + r.text, r.number)));
  if (open.some(r => String(r.number) === chosen)) select.value = chosen;
  $("reverse").disabled = open.length === 0;
  $("rulings").textContent = s.rulings.slice().reverse().map(r => time(r.at) + "  " + r.rule + "  "
    + (r.seat === null ? "table" : "seat " + r.seat) + "  " + r.event + ": " + r.reason).join("\n");
  $("log").textContent = s.log.slice().reverse().map(e => "#" + e.id + " " + time(e.at) + " " + e.kind + "  " + summary(e)).join("\n");
  document.body.dataset.version = (Number(document.body.dataset.version || 0) + 1).toString();
}

const CSRF = document.querySelector('meta[name="csrf-token"]').content;
let pending = false, again = false;
async function refresh() {
  if (pending) { again = true; return; }
  pending = true;
  try {
    const r = await fetch("/api/referee", {credentials: "same-origin"});
    if (r.status === 401) { location.href = "/referee"; return; }
    render(await r.json());
  } finally {
    pending = false;
    if (again) { again = false; refresh(); }
  }
}

// End the hand and Settle the hand cannot be taken back by a click: the referee confirms first.
function confirmText(kind, body) {
  if (kind === "end") {
    return "End the hand now by " + body.rule + " against " + names[body.at_fault] + "'s side?\n"
      + "Reason: " + body.reason;
  }
  return "Settle the hand with " + body.attackers_points + " points for the attackers?\nReason: " + body.reason;
}

function say(text, ok) {
  const m = $("message");
  m.textContent = text;
  m.className = ok ? "ok" : "error";
}

for (const form of document.querySelectorAll("form[data-action]")) {
  form.addEventListener("submit", async ev => {
    ev.preventDefault();
    const body = {};
    for (const [k, v] of new FormData(form)) body[k] = (k === "points" || k === "at_fault" || k === "attackers_points" || k === "ruling") ? Number(v) : v;
    if (form.dataset.confirm && !confirm(confirmText(form.dataset.confirm, body))) {
      say(form.dataset.action + ": not sent.", true);
      return;
    }
    const r = await fetch("/api/referee/" + form.dataset.action, {
      method: "POST", credentials: "same-origin",
      headers: {"Content-Type": "application/json", "X-CSRF-Token": CSRF},
      body: JSON.stringify(body)});
    const answer = await r.json();
    if (r.ok) say(form.dataset.action + ": done. " + (answer.texts || []).join(" "), true);
    else say(form.dataset.action + " refused (" + r.status + "): " + answer.error + (answer.rule ? " (" + answer.rule + ")" : ""), false);
    refresh();
  });
}

const es = new EventSource("/referee/events");
es.addEventListener("changed", () => refresh());
refresh();
