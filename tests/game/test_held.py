"""A seat's held cards keep their sorted faces through every change (the views' ``hand``), and a
seat view the game builds is the view ``SeatView``'s constructor builds."""
from __future__ import annotations

import random

import pytest

from shengji_table.game.hand.held import Held
from shengji_table.game.view import SeatView
from shengji_table.rules.cards import COPY_KEY, all_copies


def _sorted_faces(held) -> tuple:
    return tuple(c.card for c in sorted(held, key=COPY_KEY))


def test_sorted_faces_follow_every_change():
    rng = random.Random(7)
    copies = list(all_copies(2))
    held = Held()
    for step in range(600):
        op = rng.random()
        if op < 0.45:
            held[rng.choice(copies)] = None
        elif op < 0.85 and held:
            held.pop(rng.choice(list(held)))
        elif op < 0.9:
            held.pop(rng.choice(copies), None)        # absent copies: the default, nothing changes
        elif op < 0.95 and held:
            del held[next(iter(held))]
        else:
            held.update({c: None for c in rng.sample(copies, 3)})
        if step % 3 == 0:
            assert held.faces() == _sorted_faces(held), step


def test_absent_copy_raises_like_a_dict():
    held = Held()
    with pytest.raises(KeyError):
        held.pop(next(iter(all_copies(1))))


def test_adopted_view_is_the_constructed_view():
    names = SeatView._fields
    fields = {name: i for i, name in enumerate(names)}
    adopted = SeatView.adopt(dict(fields))
    assert adopted == SeatView(**fields)
    assert adopted._replace(seat=99).seat == 99
    with pytest.raises(AttributeError):
        adopted.seat = 3                             # type: ignore[misc]
    with pytest.raises(TypeError, match="missing \\['hand'\\]"):
        SeatView.adopt({k: v for k, v in fields.items() if k != "hand"})
    with pytest.raises(TypeError, match="unknown \\['hands'\\]"):
        SeatView.adopt({**{k: v for k, v in fields.items() if k != "hand"}, "hands": 1})


@pytest.mark.parametrize("preset", ["classic", "find-friend-5", "three-players"])
def test_hand_views_hold_every_field_in_its_place(preset):
    """Every view the game builds during a whole hand is ``SeatView(**fields)`` of the fields read
    from the hand one by one (the kept parts are joined by position: each must land in its field)."""
    from shengji_table.game.bots import make_bot
    from shengji_table.game.driver import Driver
    from shengji_table.game.match import Match
    from shengji_table.rules.ruleset import Ruleset

    seen = []

    class Watch:
        def __init__(self, bot):
            self.bot = bot

        def choose(self, view):
            seen.append((view, _fields_of(m.hand, view.seat, view.expect)))
            return self.bot.choose(view)

    rs = Ruleset.from_preset(preset)
    m = Match(rs)
    Driver(m, [Watch(make_bot("random", i)) for i in range(rs.players)]).play_hand(seed=3)
    assert len(seen) > 40
    for view, fields in seen:
        assert type(view) is SeatView and view == SeatView(**fields)


def _fields_of(hand, seat: int, expect) -> dict:
    """A seat's view field by field, through the hand's own queries (no kept parts)."""
    fields = hand._view_base(seat, hand.phase, hand.declarer_set())
    fields.update(hand=hand.hands[seat].faces(), trick=hand.trick_plays(), leader=hand.leader,
                  tricks=hand.trick_views, points=tuple(hand.won), expect=expect,
                  attackers_points=hand.attackers_points() if hand.dealer is not None else 0)
    return fields
