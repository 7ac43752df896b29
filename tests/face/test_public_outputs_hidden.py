"""Nothing hidden ever reaches a public output (game/disclosure.py; docs/table.md): every preset, both
modes, bots play a whole hand at a real controller and service (its SQLite log, no link), making
mistakes on the way — taps out of turn, a card of another seat's hand, cards an illegal follow would
need — and after every action each public output is read for the cards it names:

* the sentences the table says (``Outcome.texts``: the screen's news, the voice in English),
* the same spoken in Mandarin (``face/voice.spoken_text``),
* ``GET /api/table`` (``public_state``) and the public event stream (the hub's text),
* the terminal's view (``face/terminal.TableView.render``, its news lines aside: they are the
  sentences above, read when said).

A face may be named only while it is public in this hand: played into a trick, shown for a
declaration or by the three-player kitty, called as the friend, or — once the hand is over — the
kitty.  No output may speak of a holding ("you hold", "holds").  A checker that cannot fail is no
check: ``test_the_reader_finds_every_notation`` plants each notation and sees it found.
"""
from __future__ import annotations

import copy
import io
import json
import re
import sys
from pathlib import Path

import pytest

from shengji_table.face.terminal import TableView
from shengji_table.face.voice import spoken_text
from shengji_table.face.web.hub import Hub
from shengji_table.face.web.state import public_state
from shengji_table.game import events as ev
from shengji_table.game.phase import Phase
from shengji_table.rules.cards import ALL_FACES, SUIT_SYMBOL, Card, rank_text
from shengji_table.rules.ruleset import PRESETS, Ruleset
from shengji_table.sim.players import deal_for, hand_seeds, make_bots, next_action, plan_hand
from shengji_table.sim.virtual_table import sim_deck_set, sim_pages, sim_uid
from shengji_table.store.log import EventLog
from shengji_table.table import protocol as P
from shengji_table.table.controller import Controller
from shengji_table.table.service import TableService

sys.path.insert(0, str(Path(__file__).parents[1] / "web"))
from webtable import NullLink  # noqa: E402

REPO_ROOT = Path(__file__).resolve().parents[2]
BOARDS = sorted((json.loads(p.read_text()) for p in (REPO_ROOT / "boards").glob("table-*.json")),
                key=lambda b: b["seats"])
ZH_SUIT = {"S": "黑桃", "H": "红桃", "C": "梅花", "D": "方块"}
HOLDING = re.compile(r"\byou hold\b|\bholds\b|你有|手里有|手上有", re.I)


def _notations(face: Card) -> list[str]:
    """Every way a face is written in our outputs: code, symbol, Mandarin, "3 ♦" word form."""
    if face.is_joker:
        return [str(face), face.unicode()]
    r = rank_text(face.rank)
    return [str(face), face.unicode(), ZH_SUIT[face.suit] + r, f"{r} {SUIT_SYMBOL[face.suit]}"]


_FACE_OF = {n: face for face in ALL_FACES for n in _notations(face)}
_NAMED = re.compile(r"(?<![A-Za-z0-9])(" + "|".join(re.escape(n) for n in sorted(_FACE_OF, key=len, reverse=True))
                    + r")(?![0-9A-Za-z])")


def faces_named(text: str) -> set:
    """The faces ``text`` names, in any notation (``SA``, ``SA#1``, ``♠A``, ``黑桃A``, ``A ♠``, jokers)."""
    return {_FACE_OF[m.group(1)] for m in _NAMED.finditer(text)}


def public_faces(hand) -> set:
    """The faces public in ``hand`` now."""
    if hand is None:
        return set()
    out = {c.card for t in hand.tricks for _, cards in t.plays for c in cards}
    out |= {c.card for _, cards in hand.trick for c in cards}
    out |= {c.card for _, copies in hand.declarations for c in copies}
    out |= {getattr(c, "card", c) for c in hand.shown}
    out |= {c for c, _ in hand.friend_calls}
    if hand.result is not None:
        out |= {c.card for c in list(hand.kitty) + list(hand.buried) + list(hand.kitty_revealed or ())}
    return out


def calling(controller) -> set:
    """The faces of a friend call being entered: the dealer's call, said as it is made."""
    entry = controller.entry_state()
    named = [entry["face"]] if entry.get("face") else []
    named += [str(c[0]) if isinstance(c, (list, tuple)) else str(c) for c in entry.get("calls", [])]
    return {Card.parse(x) for x in named}


def assert_public(what: str, text: str, hand, also: set = frozenset()) -> None:
    assert not HOLDING.search(text), f"{what} speaks of a holding: {text!r}"
    leaked = faces_named(text) - public_faces(hand) - also
    assert not leaked, f"{what} names hidden cards {sorted(map(str, leaked))}: {text!r}"


class Table:
    """A controller and service with the public outputs hung on them."""

    def __init__(self, tmp_path, preset: str, mode: str, seed: int):
        self.ruleset = rs = Ruleset.from_preset(preset)
        self.mode, self.seed = mode, seed
        self.seeds = hand_seeds(seed, 1)
        board = next(b for b in BOARDS if b["seats"] >= rs.players)
        self.c = Controller(rs, mode, board, sim_deck_set(rs.decks), deal_for(mode, self.seeds))
        self.svc = TableService(NullLink(), self.c, EventLog(tmp_path / f"{preset}-{mode}.db"))
        self.hub = Hub(self.svc)
        self.view = TableView(self.c, out=io.StringIO(), plain=True)
        self.said: list = []
        self.svc.on_text = self._said
        self.svc.restore()
        self.checked = 0

    def _said(self, text: str) -> None:
        hand, also = self.c.match.hand, calling(self.c)
        assert_public("a sentence", text, hand, also)
        assert_public("the Mandarin voice", spoken_text(text, "zh") or "", hand, also)
        assert_public("the English voice", spoken_text(text, "en") or "", hand, also)
        self.view.say(text)
        self.said.append(text)

    def check_views(self) -> None:
        hand, also = self.c.match.hand, calling(self.c)
        state = json.loads(self.hub.public_text())
        state.pop("announcements")                       # the sentences, read when said
        assert_public("/api/table", json.dumps(state, ensure_ascii=False), hand, also)
        screen = self.view.render(0.0).split("\n")
        news = next(i for i, line in enumerate(screen) if line.startswith("Announcements:"))
        assert_public("the terminal", "\n".join(screen[:news]), hand, also)
        self.checked += 1

    # ---- acting at the table ------------------------------------------------------------------
    def tap(self, reader: int, copy_) -> None:
        with self.svc.lock:
            out = self.c.on_tap(reader, sim_uid(copy_), sim_pages(copy_))
            self.svc._commit([], None, out, 0.0)

    def press(self, seat: int, kinds) -> None:
        with self.svc.lock:
            for k in kinds:
                self.svc._commit([], None, self.c.on_button(seat, k), 0.0)

    def act(self, action) -> None:
        kind, where = action[0], action[1]
        if kind == "tap":
            self.tap(where, action[2])
        else:
            self.press(where, {"press": (P.PRESS, P.RELEASE), "long": (P.PRESS, P.LONG_PRESS, P.RELEASE),
                               "hold": (P.PRESS, P.LONG_PRESS), "release": (P.RELEASE,)}[kind])

    def mistakes(self) -> int:
        """Wrong taps a player might make before the planned one — a card of its own hand that may
        not follow, another seat's card, a tap out of turn — made on a copy of the controller (a
        tap the table would take must not change the plan); each output read.  The refusals made."""
        hand = self.c.match.hand
        if self.mode != "scanned" or hand is None or hand.phase != Phase.PLAYING or hand.turn is None:
            return 0
        if hand.pending or len(hand.trick) != 1 + len(hand.tricks) % (self.ruleset.players - 1):
            return 0                       # once a trick, at a different follower each time
        seat, other = hand.turn, (hand.turn + 1) % self.ruleset.players
        tries = [(seat, c) for c in list(hand.hand_copies(seat))[:4]]
        tries += [(seat, next(iter(hand.hand_copies(other)), None)), (other, next(iter(hand.hand_copies(other)), None))]
        refused = 0
        for reader, card in tries:
            if card is None:
                continue
            c = copy.deepcopy(self.c, {id(hand.order): hand.order})      # the order is immutable: shared
            out = c.on_tap(reader, sim_uid(card), sim_pages(card))
            refused += len(out.refusals)
            for text in out.texts:
                assert_public("a refusal", text, c.match.hand)
                assert_public("a refusal in Mandarin", spoken_text(text, "zh") or "", c.match.hand)
            assert_public("/api/table after a mistake", json.dumps(public_state(c), ensure_ascii=False), c.match.hand)
        return refused


def play_hand(tmp_path, preset: str, mode: str, seed: int = 7) -> Table:
    t = Table(tmp_path, preset, mode, seed)
    rs, c = t.ruleset, t.c
    bots = make_bots("heuristic", seed, rs.players)
    plan = None
    t.refused = 0
    for _ in range(20000):
        m = c.match
        hand = m.hand
        if hand is not None and hand.phase == Phase.OVER and hand.result is not None:
            t.check_views()
            return t
        start = max(i for i, e in enumerate(m.events) if isinstance(e, ev.Deal))
        if plan is None:
            plan = plan_hand(rs, mode, m.events[:start], t.seeds[0], bots)
        done = len(m.events) - start
        t.refused += t.mistakes()
        t.act(next_action(c, plan[done]))
        t.check_views()
    raise AssertionError("the hand does not end")


@pytest.mark.parametrize("mode", ["scanned", "open"])
@pytest.mark.parametrize("preset", list(PRESETS))
def test_no_public_output_names_a_hidden_card(tmp_path, preset, mode):
    t = play_hand(tmp_path, preset, mode)
    assert t.c.match.hand.result is not None and t.checked > 50 and t.said
    if mode == "scanned":
        assert t.refused > 10, "the players' mistakes were refused and read"


def test_the_reader_finds_every_notation():
    """The check can fail: a planted hidden card is found in each notation, and a holding is seen."""
    sa, lj = Card.parse("SA"), Card.parse("LJ")
    for text in ("refused: S A", "you have SA#2", "♠A", "黑桃A出不了", "A ♠ and more", "SA"):
        if text == "refused: S A":
            assert faces_named(text) == set()
        else:
            assert faces_named(text) == {sa}, text
    assert faces_named("小王 LJ") == {lj}
    assert faces_named("Seat 2: S10#1") == {Card.parse("S10")}
    assert faces_named("Seat 2 is on turn; SAM") == set()
    with pytest.raises(AssertionError, match="holding"):
        assert_public("x", "Seat 2: refused — you hold 3 ♦", None)
    with pytest.raises(AssertionError, match="hidden cards"):
        assert_public("x", "Seat 2: refused — ♦3 cannot be played", None)
