// Drawing cards with CSS: a face {rank, suit, text} becomes <span class="card suit-S">…</span>.
"use strict";
const SUITS = {S: "♠", H: "♥", C: "♣", D: "♦", J: ""};

function cardEl(face) {
  const el = document.createElement("span");
  el.className = "card suit-" + face.suit + (face.suit === "J" ? " joker-" + face.rank : "");
  el.title = face.text;
  el.dataset.card = face.text;
  const rank = document.createElement("span");
  rank.className = "rank";
  rank.textContent = face.rank;                // jokers: "big" / "small"
  const suit = document.createElement("span");
  suit.className = "pip";
  suit.textContent = face.suit === "J" ? "★" : SUITS[face.suit];
  el.append(rank, suit);
  return el;
}

function playsEl(target, plays, names) {
  target.replaceChildren();
  for (const p of plays || []) {
    const row = document.createElement("div");
    row.className = "play";
    row.dataset.seat = p.seat;
    const who = document.createElement("span");
    who.className = "who";
    who.textContent = names[p.seat] || ("Seat " + p.seat);
    const cards = document.createElement("span");
    cards.className = "cards";
    for (const c of p.cards) cards.append(cardEl(c));
    row.append(who, cards);
    target.append(row);
  }
}

function ringColour(rgb) {
  return "rgb(" + rgb.map(v => Math.round(Math.min(255, v * 1.0))).join(",") + ")";
}
