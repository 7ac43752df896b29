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


def test_build_is_the_dataclass_view():
    names = [f.name for f in dataclasses.fields(SeatView)]
    fields = {name: i for i, name in enumerate(names)}
    built = SeatView.build(**fields)
    assert built == SeatView(**fields)
    assert dataclasses.replace(built, seat=99).seat == 99
    with pytest.raises(dataclasses.FrozenInstanceError):
        built.seat = 3                               # type: ignore[misc]
    with pytest.raises(TypeError, match="needs every field"):
        SeatView.build(**{k: v for k, v in fields.items() if k != "hand"})
