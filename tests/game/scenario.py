"""Test helper (not a test): constructed decision points — a :class:`SeatView` built from hands
and a trick, without a game.

Used to ask a bot about one situation (hands as card text) by the bot tests (tests/game/test_bots_*)
and the bot benchmark (bench/bench_bots.py), which put this folder on ``sys.path``.
"""
from __future__ import annotations

import random
from collections.abc import Sequence

from shengji_table.game.phase import Phase
from shengji_table.game.view import Expect, SeatView
from shengji_table.rules.cards import full_deck, parse_cards
from shengji_table.rules.order import TrumpOrder
from shengji_table.rules.ruleset import Ruleset
from shengji_table.rules.trick import Play

__all__ = ["random_deal", "play_view", "bury_view"]


def random_deal(ruleset: Ruleset, rng: random.Random) -> tuple[dict, list]:
    """Shuffle ``ruleset.decks`` decks and deal every seat ``ruleset.hand_size`` faces:
    ``({seat: [cards]}, kitty)``."""
    cards = [c for c in full_deck() for _ in range(ruleset.decks)]
    rng.shuffle(cards)
    n = ruleset.hand_size
    hands = {s: cards[s * n:(s + 1) * n] for s in range(ruleset.players)}
    return hands, cards[ruleset.players * n:]


def _cards(x) -> tuple:
    return tuple(parse_cards(x)) if isinstance(x, str) else tuple(x)


def play_view(ruleset: Ruleset, level: int, trump: str | None, seat: int, hand, trick: Sequence = (),
              *, tricks: Sequence = (), dealer: int = 0, declarers: Sequence[int] | None = None,
              kitty=None, order=None) -> SeatView:
    """The view of ``seat`` holding ``hand`` when it must lead (``trick`` empty) or follow the
    ``trick`` so far — a list of ``Play`` or of ``(seat, cards)``, cards as objects or text.
    ``tricks``: finished tricks (``TrickView``) of the hand.  ``declarers`` defaults to the
    dealer's fixed side (seats of the dealer's parity) or, without fixed teams, the dealer alone."""
    order = order or TrumpOrder(ruleset, level, trump)
    plays = tuple(p if isinstance(p, Play) else Play(p[0], _cards(p[1])) for p in trick)
    hand = tuple(order.sorted(_cards(hand)))
    if declarers is None:
        declarers = ([s for s in range(ruleset.players) if (s - dealer) % 2 == 0]
                     if ruleset.teams == "fixed" else [dealer])
    expect = Expect("follow", len(plays[0].cards)) if plays else Expect("lead")
    return SeatView(
        ruleset=ruleset, seat=seat, players=ruleset.players, phase=Phase.PLAYING, level=level,
        levels=tuple(level for _ in range(ruleset.players)), trump=trump, order=order, hand=hand,
        trick=plays, leader=plays[0].seat if plays else seat, tricks=tuple(tricks),
        points=tuple(0 for _ in range(ruleset.players)), attackers_points=0, dealer=dealer,
        declarers=frozenset(declarers), friend_calls=(), kitty=None if kitty is None else _cards(kitty),
        shown_kitty=(), standing_bid=None, expect=expect)


def bury_view(ruleset: Ruleset, level: int, trump: str | None, seat: int, hand_with_kitty) -> SeatView:
    """The dealer's view when it must bury ``ruleset.kitty_size`` cards (R-7.2)."""
    view = play_view(ruleset, level, trump, seat, hand_with_kitty, dealer=seat)
    return view._replace(phase=Phase.KITTY, expect=Expect("bury", ruleset.kitty_size))
