// Drawing cards with CSS: a face {rank, suit, text} becomes <span class="card suit-S">…</span>.
"use strict";
const SUITS = {S: "♠", H: "♥", C: "♣", D: "♦", J: ""};

const SUIT_NAMES = {S: "spades", H: "hearts", C: "clubs", D: "diamonds"};
const JOKERS = {big: "大王", small: "小王"};

// One drawing of a face everywhere (trick, last trick, kitty, the console's hands): rank over suit;
// the jokers as 大王 / 小王 written down the card.
function cardEl(face) {
  const el = document.createElement("span");
  const joker = face.suit === "J";
  el.className = "card suit-" + face.suit + (joker ? " joker-" + face.rank : "");
  el.title = joker ? (face.rank === "big" ? "big joker" : "small joker") : face.rank + " of " + SUIT_NAMES[face.suit];
  el.dataset.card = face.text;
  el.setAttribute("role", "img");
  el.setAttribute("aria-label", el.title);
  const rank = document.createElement("span");
  rank.className = "rank";
  rank.textContent = joker ? JOKERS[face.rank] : face.rank;
  if (joker) rank.lang = "zh";
  el.append(rank);
  if (!joker) {
    const suit = document.createElement("span");
    suit.className = "pip";
    suit.textContent = SUITS[face.suit];
    el.append(suit);
  }
  return el;
}

// Trump as the suit's symbol with the level: "♠ 2", "NT 2" (no trump); the level alone before trump is public.
function trumpText(trump, level) {
  const lv = level || "–";
  if (!trump) return "? " + lv;
  return (trump === "NT" ? "NT" : SUITS[trump]) + " " + lv;
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
