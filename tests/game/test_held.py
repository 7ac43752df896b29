"""A seat's held cards keep their sorted faces through every change (the views' ``hand``), and a
seat view built by ``SeatView.build`` is the view the dataclass builds."""
from __future__ import annotations

import dataclasses
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


def test_adopted_view_is_the_dataclass_view():
    names = [f.name for f in dataclasses.fields(SeatView)]
    fields = {name: i for i, name in enumerate(names)}
    adopted = SeatView.adopt(dict(fields))
    assert adopted == SeatView(**fields)
    assert dataclasses.replace(adopted, seat=99).seat == 99
    with pytest.raises(dataclasses.FrozenInstanceError):
        adopted.seat = 3                             # type: ignore[misc]
    with pytest.raises(TypeError, match="missing \\['hand'\\]"):
        SeatView.adopt({k: v for k, v in fields.items() if k != "hand"})


def test_hand_views_hold_every_field_and_match_the_dataclass():
    """Every view the game builds during a whole hand is the view ``SeatView(**fields)`` builds."""
    from shengji_table.game.bots import make_bot
    from shengji_table.game.driver import Driver
    from shengji_table.game.match import Match
    from shengji_table.rules.ruleset import Ruleset

    seen = []

    class Watch:
        def __init__(self, bot):
            self.bot = bot

        def choose(self, view):
            seen.append(view)
            return self.bot.choose(view)

    rs = Ruleset.from_preset("classic")
    m = Match(rs)
    Driver(m, [Watch(make_bot("random", i)) for i in range(rs.players)]).play_hand(seed=3)
    names = {f.name for f in dataclasses.fields(SeatView)}
    assert len(seen) > 50
    for v in seen:
        assert vars(v).keys() == names
        assert v == SeatView(**vars(v))
