// The public table: the state from /api/table, then every change from the /events stream.
"use strict";
const $ = id => document.getElementById(id);

// Where each seat sits around the felt: seat 0 at the bottom, seat numbers rising counter-clockwise
// as seen from above the table; each seat goes to the side of the felt nearest its angle.
function seatSide(i, n) {
  const a = (-90 + (360 * i) / n + 360) % 360;       // 270 bottom, 0 right, 90 top, 180 left
  if (a > 225 && a < 315) return "bottom";
  if (a >= 315 || a <= 45) return "right";
  if (a > 45 && a < 135) return "top";
  return "left";
}

const PHASES = {
  deal: "waiting for the deal", drawing: "drawing cards", bidding: "bidding", trump: "naming trump",
  kitty: "the dealer takes the kitty", exchange: "exchanging with the kitty", burying: "the kitty is buried",
  steal: "a stronger call may take the kitty", friend: "the dealer calls a friend", playing: "playing",
  over: "the hand is over",
};

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

function seatEl(seat, s, ring) {
  const el = document.createElement("div");
  el.className = "seat" + (seat.turn ? " on-turn" : "") + (seat.dealer ? " dealer" : "");
  el.dataset.seat = seat.seat;
  const side = s.teams.declarers.includes(seat.seat) ? "declarers"
    : (s.teams.attackers === "unknown" ? "side unknown" : (s.teams.attackers.includes(seat.seat) ? "attackers" : ""));
  const dot = document.createElement("span");
  dot.className = "ring ring-" + (ring ? ring.pattern : "OFF");
  dot.setAttribute("aria-hidden", "true");
  if (ring && ring.pattern !== "OFF") dot.style.borderColor = ringColour(ring.rgb);
  const name = document.createElement("b");
  name.className = "name";
  name.textContent = seat.name;
  const top = document.createElement("div");
  top.className = "top";
  top.append(dot, name);
  if (seat.dealer) {
    const badge = document.createElement("span");
    badge.className = "badge";
    badge.textContent = "dealer";
    top.append(badge);
  }
  const info = document.createElement("div");
  info.className = "info";
  info.textContent = "level " + seat.level + " · " + seat.points + " pts" + (side ? " · " + side : "")
    + (seat.entering ? " · laying " + seat.entering : "") + (seat.turn ? " · to play" : "");
  el.append(top, info);
  return el;
}

function renderSeats(s) {
  const rings = {};
  for (const r of s.rings) rings[r.ring] = r;
  const sides = {top: [], left: [], right: [], bottom: []};
  for (const seat of s.seats) sides[seatSide(seat.seat, s.players)].push(seatEl(seat, s, rings[seat.seat]));
  for (const [where, els] of Object.entries(sides)) $("side-" + where).replaceChildren(...els);
}

function renderScore(s, names) {
  const p = s.points;
  const total = p.total || 100;
  const marks = (s.marks || []).filter(m => m.points > 5 && m.points <= total);
  $("points-attackers").textContent = p.attackers;
  $("points-declarers").textContent = p.declarers;
  $("points-of").textContent = "of " + total + (p.penalty ? " (penalties " + (p.penalty > 0 ? "+" : "") + p.penalty + ")" : "");
  $("bar-fill").style.width = Math.max(0, Math.min(100, 100 * p.attackers / total)) + "%";
  $("bar").setAttribute("aria-label", "attackers' points " + p.attackers + " of " + total + "; marks "
    + marks.map(m => m.points).join(", "));
  const bar = $("bar");
  for (const old of bar.querySelectorAll(".tick")) old.remove();
  const labels = $("bar-marks");
  labels.replaceChildren();
  for (const m of marks) {
    const at = 100 * m.points / total;
    const tick = document.createElement("span");
    tick.className = "tick" + (p.attackers >= m.points ? " reached" : "");
    tick.style.left = at + "%";
    bar.append(tick);
    const label = document.createElement("span");
    label.className = "mark" + (m.takeover ? " takeover" : "") + (at >= 99 ? " end" : "");
    label.style.left = at + "%";
    label.textContent = m.points;
    labels.append(label);
  }
  const next = marks.find(m => m.points > p.attackers);
  $("next-mark").textContent = !s.dealer && s.dealer !== 0 ? "" : next
    ? "At " + next.points + ": " + outcome(next) : "Past every mark: " + (marks.length ? outcome(marks[marks.length - 1]) : "");
}

function outcome(m) {
  if (m.declarers) return "declarers go up " + m.declarers;
  if (!m.attackers) return "attackers take over the deal";
  return "attackers take over and go up " + m.attackers;
}

function renderAnnouncements(texts) {
  const list = $("announcements");
  list.replaceChildren(...texts.map((text, i) => {
    const li = document.createElement("li");
    li.textContent = text;
    li.className = (/^referee/i.test(text) ? "referee" : "") + (i === texts.length - 1 ? " current" : "");
    return li;
  }));
  list.scrollTop = list.scrollHeight;             // oldest first: the newest, at the bottom, in view
}

// ---- the end of a hand: the result stays up at least data-result-seconds (or ?result=S) and
// until the next hand's first draw (the second state of a later hand: the first is its deal).
const RESULT_SECONDS = Number(new URLSearchParams(location.search).get("result")
  || document.body.dataset.resultSeconds || 8);
let shown = null;            // {hand, timeUp, laterStates}

function showResult(s, names) {
  const r = s.settlement;
  $("result-title").textContent = "Hand " + s.hand + " is over";
  $("r-captured").textContent = r.captured;
  $("r-kitty").textContent = r.kitty_points === null ? "–"
    : r.multiplier ? r.kitty_points + " × " + r.multiplier + " = " + r.bonus
    : "0 (" + r.kitty_points + " in the kitty stay with the declarers)";
  $("r-penalty").textContent = (r.penalty > 0 ? "+" : "") + r.penalty;
  $("r-total").textContent = r.attackers_points + " of " + s.points.total;
  const levels = {};
  for (const x of s.seats) levels[x.seat] = x.level;
  const side = (seats, n) => seats.map(x => names[x]).join(", ") + " go up " + n + " level" + (n === 1 ? "" : "s")
    + " (now " + [...new Set(seats.map(x => levels[x]))].join(", ") + ")";
  $("r-levels").textContent = r.declarers_levels ? side(r.declarers, r.declarers_levels)
    : r.attackers_levels ? side(r.attackers, r.attackers_levels) : "Nobody goes up.";
  $("r-next").textContent = "Next dealer: " + (r.next_dealer === null ? "decided by the next draw" : names[r.next_dealer])
    + (r.takeover ? " (the attackers take over the deal)" : "");
  $("r-reason").textContent = r.reason;
  $("result-panel").hidden = false;
  shown = {hand: s.hand, timeUp: false, laterStates: 0};
  const mine = shown;
  setTimeout(() => { mine.timeUp = true; maybeHideResult(); }, RESULT_SECONDS * 1000);
}

function maybeHideResult() {
  if (shown && shown.timeUp && shown.laterStates >= 2) { $("result-panel").hidden = true; doneHand = shown.hand; shown = null; }
}

let doneHand = null;         // the hand whose result was up and has gone
function followResult(s, names) {
  if (s.settlement && s.hand !== doneHand && !(shown && s.hand <= shown.hand)) { showResult(s, names); return; }
  if (shown && s.hand > shown.hand) { shown.laterStates += 1; maybeHideResult(); }
}

function renderMatchOver(s, names) {
  $("match-over").hidden = !s.match_over;
  if (!s.match_over) return;
  $("result-panel").hidden = true;             // the last hand's outcome is said on the match's screen
  $("m-reason").textContent = s.result || "";
  const r = s.settlement;
  let won = s.seats.filter(x => x.level === "won").map(x => x.seat);
  if (!won.length && r) won = r.declarers_levels ? r.declarers : r.attackers_levels ? r.attackers : [];
  $("m-winners").textContent = won.length ? "Won by " + won.map(x => names[x]).join(", ") + "." : "";
  $("m-levels").replaceChildren(...s.seats.map(x => {
    const li = document.createElement("li");
    li.textContent = x.name + ": " + (x.level === "won" ? "won" : "level " + x.level);
    return li;
  }));
}

function render(s) {
  const names = {};
  for (const seat of s.seats) names[seat.seat] = seat.name;
  $("hand").textContent = s.hand || "–";
  $("phase").textContent = (PHASES[s.phase] || s.phase) + (s.phase === "playing" ? " trick " + (s.tricks_played + 1) : "");
  const trump = $("trump");
  trump.textContent = s.level ? trumpText(s.trump, s.level) : "–";
  trump.className = s.trump ? "trump suit-" + s.trump : "trump";
  trump.title = s.trump ? "trump: " + (s.trump === "NT" ? "no trump" : SUIT_NAMES[s.trump]) + ", level " + s.level : "";
  $("dealer").textContent = s.dealer === null ? "–" : names[s.dealer];
  $("turn").textContent = s.turn === null ? "–" : names[s.turn];
  $("turn").dataset.seat = s.turn === null ? "" : s.turn;
  clock = s.clock ? {...s.clock, name: names[s.clock.seat], at: performance.now()} : null;
  showClock();
  renderSeats(s);
  playsEl($("trick"), s.trick, names);
  playsEl($("last-trick"), s.last_trick ? s.last_trick.plays : [], names);
  $("last-winner").textContent = s.last_trick ? "— won by " + names[s.last_trick.winner]
    + " (" + s.last_trick.points + " pts)" : "";
  renderScore(s, names);
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
  renderAnnouncements(s.announcements);
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
  followResult(s, names);
  renderMatchOver(s, names);
  document.body.dataset.version = (Number(document.body.dataset.version || 0) + 1).toString();
}

// The table has stopped when the stream breaks: said at the top of the screen until it is back.
function stopped(on) {
  const el = $("stopped");
  if (on && el.hidden) {
    el.textContent = "The table has stopped: no link to it since " + new Date().toLocaleTimeString()
      + ". This page goes on by itself when the table is back.";
  }
  el.hidden = !on;
  document.body.classList.toggle("is-stopped", on);
}

function connect() {
  const es = new EventSource("/events");
  es.addEventListener("state", ev => { render(JSON.parse(ev.data)); $("link").textContent = "live"; stopped(false); });
  es.onerror = () => { $("link").textContent = "reconnecting…"; stopped(true); };
}

fetch("/api/table").then(r => r.json()).then(render).catch(() => stopped(true)).finally(connect);
