"""Referee rulings (R-10.1–10.4) and the failed-throw penalty options (R-4.3)."""
import pytest

from shengji_table.rules.ruleset import Ruleset
from shengji_table.rules.penalties import (
    check_hand_size, check_kitty_size, revoke, throw_penalty, undo_policy, wrong_count,
)
from shengji_table.rules.settle import next_dealer

CLASSIC = Ruleset.from_preset("classic")


def test_r4_3_no_penalty_by_default():
    """R-4.3: the default penalty option is none."""
    p = throw_penalty(CLASSIC, 3, by_declarers=True)
    assert p.points == 0 and p.rule == "R-4.3"


@pytest.mark.parametrize("withdrawn", [1, 2, 4])
def test_r10_1_per_card_penalty_declarers_add_attackers_subtract(withdrawn):
    """R-10.1: 10 points per withdrawn card; a declarer's failed throw adds them to the attackers'
    points, an attacker's subtracts them."""
    rs = CLASSIC.replace(throw_penalty="per-card")
    assert throw_penalty(rs, withdrawn, by_declarers=True).points == 10 * withdrawn
    assert throw_penalty(rs, withdrawn, by_declarers=False).points == -10 * withdrawn
    assert throw_penalty(rs, withdrawn, by_declarers=True).rule == "R-10.1"


def test_r4_3_per_throw_penalty_is_flat():
    """R-4.3 option: 10 points per failed throw, whatever the number of cards withdrawn."""
    rs = CLASSIC.replace(throw_penalty="per-throw")
    assert throw_penalty(rs, 1, by_declarers=True).points == 10
    assert throw_penalty(rs, 5, by_declarers=False).points == -10
    rs = CLASSIC.replace(throw_penalty="per-throw", throw_penalty_points=20)
    assert throw_penalty(rs, 5, by_declarers=True).points == 20


def test_r10_1_penalty_rejects_nonsense():
    """R-10.1: a failed throw withdraws at least one card."""
    for bad in (0, -1, 1.5, True):
        with pytest.raises(ValueError):
            throw_penalty(CLASSIC, bad, by_declarers=True)


def test_r10_2_revoke_by_declarers_attackers_take_over_no_level():
    """R-10.2: declarers revoked → attackers take over with no level; deal to the next seat."""
    s = revoke(CLASSIC, by_declarers=True)
    assert (s.declarers_levels, s.attackers_levels, s.takeover, s.rule) == (0, 0, True, "R-10.2")
    assert next_dealer(CLASSIC, 0, s.takeover) == 1


def test_r10_2_revoke_by_attacker_declarers_up_one():
    """R-10.2: an attacker revoked → the declarers go up one level and keep the deal."""
    s = revoke(CLASSIC, by_declarers=False)
    assert (s.declarers_levels, s.attackers_levels, s.takeover) == (1, 0, False)
    assert next_dealer(CLASSIC, 0, s.takeover) == 2


def test_r10_3_wrong_count_settled_like_a_revoke():
    """R-10.3: a wrong card count or kitty size goes against the side at fault."""
    s = wrong_count(CLASSIC, by_declarers=True, what="kitty")
    assert (s.takeover, s.attackers_levels, s.rule) == (True, 0, "R-10.3") and "kitty" in s.reason
    s = wrong_count(CLASSIC, by_declarers=False)
    assert (s.declarers_levels, s.takeover) == (1, False)


@pytest.mark.parametrize("preset", ["one-deck", "classic", "three-decks", "four-decks", "three-players"])
def test_r10_3_kitty_size_check_every_preset(preset):
    """R-7.1 / R-10.3: the buried kitty must have the preset's size, not one more or less."""
    rs = Ruleset.from_preset(preset)
    assert check_kitty_size(rs, rs.kitty_size).ok
    assert not check_kitty_size(rs, rs.kitty_size + 1).ok
    assert check_kitty_size(rs, rs.kitty_size + 1).rule == "R-10.3"


def test_r10_3_hand_size_check():
    """R-7.1 / R-10.3: 25 cards before the first trick (two decks), one less per trick; the dealer
    holds the kitty too until burying it."""
    assert check_hand_size(CLASSIC, 25).ok
    assert check_hand_size(CLASSIC, 20, tricks_played=5).ok
    assert not check_hand_size(CLASSIC, 24).ok
    assert check_hand_size(CLASSIC, 33, dealer_before_burying=True).ok


def test_r10_4_no_take_back_unless_referee_undo():
    """R-10.4: a played card cannot be taken back; with referee_undo the referee may, logged."""
    assert not undo_policy(CLASSIC).ok
    v = undo_policy(CLASSIC.replace(referee_undo=True))
    assert v.ok and "log" in v.reason and v.rule == "R-10.4"
