"""The driver's step from a bot's faces to the copies it taps (R-1.2: the rules read faces only, so
the driver picks for each face the first copies of it in the order the seat received them): its
scan against the rule written out plainly, on hands of several presets, with copies excluded as a
challenge's are, and a face the seat does not hold refused."""
from __future__ import annotations

import random

import pytest

from shengji_table.game.bots import make_bot
from shengji_table.game.driver import Driver, DriverError
from shengji_table.game.match import Match
from shengji_table.game.phase import Phase
from shengji_table.rules.cards import ALL_FACES
from shengji_table.rules.ruleset import Ruleset


def _first_copies(held, faces, exclude=()) -> list:
    """For each face in turn, the first copy of it in ``held`` not yet taken nor excluded."""
    out: list = []
    for f in faces:
        out.append(next(c for c in held if c.card is f and c not in out and c not in exclude))
    return out


class _Play(Exception):
    """The play has begun: the hands are dealt and buried."""


def _stop(driver, hand):
    raise _Play


def _dealt(preset: str, seed: int) -> Driver:
    """A driver whose hand has reached its first lead."""
    rs = Ruleset.from_preset(preset)
    d = Driver(Match(rs), [make_bot("random", seed + i) for i in range(rs.players)])
    d._PHASES = {**Driver._PHASES, Phase.PLAYING: _stop}
    with pytest.raises(_Play):
        d.play_hand(seed)
    assert d.match.hand.phase is Phase.PLAYING
    return d


@pytest.mark.parametrize("preset", ["classic", "one-deck", "three-decks", "four-decks", "six-players"])
def test_copies_are_the_first_of_each_face_R1_2(preset):
    rng = random.Random(preset)
    for seed in range(3):
        d = _dealt(preset, seed)
        hand = d.match.hand
        for seat in range(hand.players):
            held = list(hand.hands[seat])
            for _ in range(40):
                faces = [c.card for c in rng.sample(held, rng.randint(1, min(6, len(held))))]
                exclude = tuple(rng.sample(held, rng.randint(0, 2)))
                kept = [c for c in held if c not in exclude]
                if any(sum(c.card is f for c in kept) < faces.count(f) for f in faces):
                    with pytest.raises(DriverError, match="which it does not hold"):
                        d._copies(seat, faces, exclude)
                    continue
                assert d._copies(seat, faces, exclude) == _first_copies(held, faces, exclude)
                assert d._copies(seat, faces) == _first_copies(held, faces)


def test_a_face_not_held_is_refused_R1_2():
    d = _dealt("classic", 1)
    hand = d.match.hand
    held = hand.hands[0]
    missing = next(f for f in ALL_FACES if sum(c.card is f for c in held) < 2)
    with pytest.raises(DriverError, match=f"chose {missing}, which it does not hold"):
        d._copies(0, [missing, missing])
