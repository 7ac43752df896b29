"""Referee rulings at a physical table (R-10), as functions the game layer calls.

* :func:`throw_penalty` — R-4.3 / R-10.1: points a failed throw costs, by the ``throw_penalty``
  option, signed as a change to the attackers' points.
* :func:`revoke` — R-10.2: the hand ends at once and is settled against the side that revoked.
* :func:`wrong_count` — R-10.3: a wrong card count found during the hand, settled like a revoke;
  :func:`check_kitty_size` and :func:`check_hand_size` say whether a count is wrong (R-7.1/R-7.2).
* :func:`undo_policy` — R-10.4: a card played cannot be taken back unless the ruleset lets the
  referee undo, and then the log must say so.
"""
from __future__ import annotations

from dataclasses import dataclass

from .ruleset import Ruleset
from .settle import Settlement
from .verdict import Verdict

__all__ = ["Penalty", "throw_penalty", "revoke", "wrong_count", "check_kitty_size",
           "check_hand_size", "undo_policy"]


@dataclass(frozen=True)
class Penalty:
    """``points`` is added to the attackers' points (negative when an attacker is at fault)."""

    points: int
    rule: str
    reason: str


def throw_penalty(ruleset: Ruleset, withdrawn: int, *, by_declarers: bool) -> Penalty:
    """The penalty for a failed throw (R-4.3, R-10.1).

    ``withdrawn`` is how many cards went back to the hand.  ``none``: no penalty; ``per-card``: the
    option's points (10) per withdrawn card; ``per-throw``: the option's points once.  The penalty
    goes to the other side: a declarer's failed throw adds to the attackers' points, an attacker's
    subtracts from them (the total may go below 0).
    """
    if isinstance(withdrawn, bool) or not isinstance(withdrawn, int) or withdrawn < 1:
        raise ValueError(f"a failed throw withdraws at least one card, not {withdrawn!r}")
    mode, each = ruleset.throw_penalty, ruleset.throw_penalty_points
    if mode == "none":
        return Penalty(0, "R-4.3", "no penalty for a failed throw with this ruleset.")
    amount = each * withdrawn if mode == "per-card" else each
    how = (f"{each} points for each of {withdrawn} withdrawn card(s)" if mode == "per-card"
           else f"{each} points for the failed throw")
    if by_declarers:
        return Penalty(amount, "R-10.1", f"a declarer's throw failed: {how} go to the attackers.")
    return Penalty(-amount, "R-10.1", f"an attacker's throw failed: {how} are taken off the attackers.")


def revoke(ruleset: Ruleset, *, by_declarers: bool) -> Settlement:
    """R-10.2: a revoke (not following suit or a shape obligation while able to) ends the hand.
    Declarers at fault: the attackers take over with no level.  An attacker at fault: the declarers
    go up one level.  ``attackers_points`` of the result is 0: points do not count."""
    if by_declarers:
        return Settlement(0, 0, 0, True, "R-10.2",
                          "a declarer revoked: the hand ends and the attackers take over with no level.")
    return Settlement(0, 1, 0, False, "R-10.2", "an attacker revoked: the hand ends and the declarers go up 1 level.")


def wrong_count(ruleset: Ruleset, *, by_declarers: bool, what: str = "card count") -> Settlement:
    """R-10.3: a wrong card count (or a kitty of the wrong size) found during the hand is settled
    like a revoke, against the side at fault."""
    if by_declarers:
        return Settlement(0, 0, 0, True, "R-10.3",
                          f"the declarers' {what} is wrong: the attackers take over with no level.")
    return Settlement(0, 1, 0, False, "R-10.3", f"an attacker's {what} is wrong: the declarers go up 1 level.")


def check_kitty_size(ruleset: Ruleset, count: int) -> Verdict:
    """R-7.1/R-7.2: the buried kitty has exactly the preset's size."""
    if count == ruleset.kitty_size:
        return Verdict(True, "R-7.2", f"the kitty has {count} cards, as it should.")
    return Verdict(False, "R-10.3", f"the kitty has {count} cards but must have {ruleset.kitty_size}.")


def check_hand_size(ruleset: Ruleset, count: int, tricks_played: int = 0, *,
                    dealer_before_burying: bool = False) -> Verdict:
    """R-7.1/R-10.3: a hand holds ``hand_size`` cards less one per trick played (the dealer holds
    the kitty too between taking and burying it)."""
    expected = ruleset.hand_size - tricks_played + (ruleset.kitty_size if dealer_before_burying else 0)
    if count == expected:
        return Verdict(True, "R-7.1", f"the hand has {count} cards, as it should.")
    return Verdict(False, "R-10.3", f"the hand has {count} cards but should have {expected}.")


def undo_policy(ruleset: Ruleset) -> Verdict:
    """R-10.4: may the referee take a played card back?  ``ok`` says whether an undo is allowed;
    when it is, the game layer must log the undo as a referee action."""
    if ruleset.referee_undo:
        return Verdict(True, "R-10.4", "the referee may undo a play; the log records the undo.")
    return Verdict(False, "R-10.4", "a card played cannot be taken back.")
