"""级数不浪费 (seed 000 变异打法): passing spare levels on between the settlement and the next deal.

Levels a must-defend level stopped (:class:`~.settle.LevelChange.leftover`) may be given to a
team-mate or an opponent (:func:`~.settle.pass_on`); a winning target may refuse.  The values here
are what the match keeps while the window is open — :class:`LevelGift`, :class:`TransferWindow`,
:class:`DugKitty` — and the pure checks of a gift or a refusal (:func:`check_transfer`,
:func:`check_refusal`).
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from collections.abc import Mapping, Sequence

from .cards import level_text
from .ruleset import Ruleset
from .settle import DigDrop, advance_level, lower_level, top_level
from .verdict import Verdict

__all__ = ["TRANSFER_RULE", "LevelGift", "TransferWindow", "DugKitty", "gift_level", "check_transfer",
           "check_refusal", "levels_in_words", "KnockOn", "knock_on", "digger_drops"]


TRANSFER_RULE = "§9 级数不浪费"

_WORDS = {1: "one level", 2: "two levels", 3: "three levels", 4: "four levels", 5: "five levels", 6: "six levels"}


def levels_in_words(n: int) -> str:
    """``2`` → ``"two levels"`` (the match's announcements; :func:`settle` writes ``"2 levels"``)."""
    return _WORDS.get(n, f"{n} levels")


@dataclass(frozen=True)
class LevelGift:
    """``levels`` that seat ``giver`` passed to seat ``to``: a team-mate goes ``up``, an opponent down.
    ``before``/``after``: ``to``'s level around this gift (equal once ``refused``).  In a hand's
    summary (``transfers``) a gift is the list :meth:`to_json` gives."""

    giver: int
    to: int
    levels: int
    up: bool
    before: int
    after: int
    refused: bool = False

    def to_json(self) -> list:
        return [self.giver, self.to, self.levels, self.up, self.before, self.after, self.refused]

    @classmethod
    def from_json(cls, row: Sequence) -> LevelGift:
        giver, to, levels, up, before, after, refused = row
        return cls(giver, to, levels, up, before, after, refused)


@dataclass(frozen=True)
class TransferWindow:
    """The window after a settlement, until the next deal, for passing leftover levels on.
    ``winners``: the side that won the hand (its members may refuse a gift); ``base``: every seat's
    level at the settlement; ``gifts``: every :class:`LevelGift` so far, in order."""

    declarers: tuple
    attackers: tuple
    winners: tuple
    base: tuple
    gifts: tuple = ()

    def team_of(self, seat: int) -> tuple:
        return self.declarers if seat in self.declarers else self.attackers

    def choice_of(self, giver: int) -> set:
        """Which way ``giver``'s standing gifts go: ``{True}`` up, ``{False}`` down, ``set()`` none yet."""
        return {g.up for g in self.gifts if g.giver == giver and not g.refused}   # refused gifts free the choice

    def standing_gift(self, giver: int, to: int) -> LevelGift | None:
        """The first gift from ``giver`` to ``to`` not refused, if any."""
        return next((g for g in self.gifts if g.giver == giver and g.to == to and not g.refused), None)

    def refusing(self, gift: LevelGift) -> TransferWindow:
        """This window with ``gift`` (one of :attr:`gifts`) refused; the levels are recomputed apart."""
        i = self.gifts.index(gift)
        return replace(self, gifts=self.gifts[:i] + (replace(gift, refused=True),) + self.gifts[i + 1:])

    def replayed(self, ruleset: Ruleset, target: int) -> TransferWindow:
        """``target``'s gifts recomputed: from its level at the settlement, every gift not refused in
        order (:func:`gift_level`).  ``target``'s level is then the ``after`` of its last gift."""
        level = self.base[target]
        gifts = []
        for g in self.gifts:
            if g.to == target:
                after = level if g.refused else gift_level(ruleset, level, g.levels, up=g.up)
                g = replace(g, before=level, after=after)
                level = after
            gifts.append(g)
        return replace(self, gifts=tuple(gifts))

    def level_of(self, seat: int) -> int:
        """``seat``'s level after the gifts to it (its level at the settlement when there are none)."""
        return next((g.after for g in reversed(self.gifts) if g.to == seat), self.base[seat])


@dataclass(frozen=True)
class DugKitty:
    """Find a friend, the kitty dug at J or A (seed 000 變異打法 5–6): ``giver`` names the attackers
    who drop the levels the declarers could not (陪降) — at J (``at_j``) anyone but the ``digger``,
    who drops the rest when nobody else can.  ``declarers``: the dealer first, then the friends."""

    giver: int
    digger: int
    at_j: bool
    declarers: tuple

    @property
    def excluded(self) -> int | None:
        """The seat the giver may not name: the digger at J, nobody at A."""
        return self.digger if self.at_j else None


def gift_level(ruleset: Ruleset, level: int, levels: int, *, up: bool) -> int:
    """A recipient's level after a gift: down, not below 2; up, not past a must-play level
    (升到必打的點數不能再升) and not to the level that would end the match — a match is won at the
    table."""
    if not up:
        return lower_level(level, levels)[0]
    change = advance_level(ruleset, level, levels, as_declarers=False)
    if change.won:
        return max(level, top_level(ruleset) - 1)
    return change.level


def check_transfer(ruleset: Ruleset, window: TransferWindow | None, seat, to, *, leftovers: Mapping,
                   dig: DugKitty | None = None) -> Verdict:
    """May ``seat`` pass levels to ``to`` (``(seat, levels)`` pairs) now?  级数不浪费 (seed 000 變異打法):
    only where each player has their own level, while a ``window`` is open, levels the seat has left
    over (``leftovers``), all to team-mates (up) or all to opponents (down), the same way as its
    standing gifts; the levels a dug kitty left (``dig``, 陪降) go to attackers, not the digger at J."""
    n = ruleset.players
    if ruleset.teams == "fixed":
        return Verdict(False, TRANSFER_RULE, "levels are passed on only where each player has their own level "
                                             "(find a friend, three players); partners here share theirs")
    if window is None:
        return Verdict(False, "table.phase", "levels are passed on after a hand's settlement, before the next "
                                             "deal, by a player a must-play level stopped")
    if not (isinstance(seat, int) and 0 <= seat < n):
        return Verdict(False, "table.seat", f"there is no seat {seat} at a table of {n}")
    left = leftovers.get(seat, 0)
    if not left:
        return Verdict(False, TRANSFER_RULE, f"seat {seat} has no levels left over from a must-play level")
    bad = _check_targets(seat, to, n, left)
    if bad is not None:
        return bad
    targets = [t for t, _ in to]
    if dig is not None and dig.giver == seat:
        bad = _check_knock_on(window, dig, to)
        if bad is not None:
            return bad
    ups = {t in window.team_of(seat) for t in targets}
    if len(ups) != 1:
        return Verdict(False, TRANSFER_RULE, "team-mates go up or opponents go down (或): not both at once")
    up = ups.pop()
    chosen = window.choice_of(seat)
    if chosen and chosen != {up}:
        return Verdict(False, TRANSFER_RULE, f"seat {seat} already chose to make "
                                             + ("team-mates go up" if up is False else "opponents go down"))
    return Verdict(True, TRANSFER_RULE, "team-mates go up." if up else "opponents go down.")


def _check_knock_on(window: TransferWindow, dig: DugKitty, to) -> Verdict | None:
    """The levels a dug kitty left (陪降) go to attackers, not to the digger at J, and no named seat
    goes below 2: what it cannot drop would be lost, and the texts pass it on (如果所有可指定的玩家
    都降到2，則由摳底的人降剩下的級數), so the giver names others for it."""
    for t, k in to:
        if t in window.declarers:
            return Verdict(False, TRANSFER_RULE, "the levels left by a dug kitty go to attackers (陪降)")
        if t == dig.excluded:
            return Verdict(False, TRANSFER_RULE, f"seat {t} dug the kitty: it drops only when nobody else can")
        room = window.level_of(t) - 2
        if k > room:
            can = "drops no further" if room <= 0 else f"can drop {levels_in_words(room)}, not {k}"
            return Verdict(False, TRANSFER_RULE, f"seat {t} is at {level_text(window.level_of(t))} and {can}: "
                                                 "no level goes below 2; name others for the rest (陪降)")
    return None


def _check_targets(seat: int, to, n: int, left: int) -> Verdict | None:
    """Each target named once, another seat of the table, 1 level or more; no more than ``left``."""
    targets = [t for t, _ in to]
    if len(set(targets)) != len(targets):
        return Verdict(False, TRANSFER_RULE, "each player is named once")
    for t, k in to:
        if not 0 <= t < n:
            return Verdict(False, "table.seat", f"there is no seat {t} at a table of {n}")
        if t == seat:
            return Verdict(False, TRANSFER_RULE, "levels are passed to other players")
        if k < 1:
            return Verdict(False, TRANSFER_RULE, f"pass 1 level or more, not {k}")
    total = sum(k for _, k in to)
    if total > left:
        return Verdict(False, TRANSFER_RULE, f"seat {seat} has {levels_in_words(left)} left over, not {total}")
    return None


def check_refusal(window: TransferWindow | None, seat: int, giver: int, *,
                  dig: DugKitty | None = None) -> Verdict:
    """May ``seat`` refuse the levels ``giver`` passed to it?  Only a recipient on the winning side
    (有權拒絕被升級或被降級; the losing side 只能乖乖的被升級或被降級), and not a drop with the
    declarers after a dug kitty (``dig``, 陪降)."""
    if window is None:
        return Verdict(False, "table.phase", "there are no levels passed on to refuse now")
    if window.standing_gift(giver, seat) is None:
        return Verdict(False, TRANSFER_RULE, f"seat {giver} has passed no levels to seat {seat}")
    if seat not in window.winners:
        return Verdict(False, TRANSFER_RULE, f"seat {seat} is on the losing side: it may not refuse "
                                             "(只能乖乖的被升級或被降級)")
    if dig is not None and giver == dig.giver:
        return Verdict(False, TRANSFER_RULE, "dropping with the declarers after a dug kitty (陪降) is not refused")
    return Verdict(True, TRANSFER_RULE, f"seat {seat} refuses the levels from seat {giver}.")


# ---- find a friend (seed 000 变异打法) ------------------------------------------------------

@dataclass(frozen=True)
class KnockOn:
    """A dug kitty's drop (:func:`~.settle.dig_drop`) applied to every seat's level (陪降, seed 000
    變異打法 5–6).  ``levels``: each seat's level after it; ``changes``: ``{seat: (before, after)}`` of
    the seats that dropped; ``rest``: the levels nobody could drop yet, for ``dig.giver`` to name
    attackers for (:func:`check_transfer`), 0 when none is left; ``dig``: who names them."""

    levels: tuple
    changes: dict
    rest: int
    dig: DugKitty


def knock_on(levels, drop: DigDrop, declarers, digger: int, *, at_j: bool) -> KnockOn:
    """Drop the declarers by ``drop``: the dealer (``declarers[0]``) first; what takes the dealer
    below 2 the first friend drops with their own share (莊家降到2後，剩下的級數由朋友陪降); every
    other friend drops their share.  What is still left is named by the dealer at J, by the first
    friend at A (如果莊家的朋友已經降到2，剩下的級數由他/她指定); at J, when every attacker but the
    digger is at 2, the digger drops it (:func:`digger_drops`).  No level goes below 2."""
    after = list(levels)
    changes: dict = {}
    dealer, friends = declarers[0], list(declarers[1:])
    rest = carry = 0
    for i, (seat, steps) in enumerate(((dealer, drop.dealer), *((f, drop.friend) for f in friends))):
        steps += carry if i == 1 else 0
        if not steps:
            continue
        old = after[seat]
        after[seat], left = lower_level(old, steps)
        changes[seat] = (changes.get(seat, (old,))[0], after[seat])
        if i == 0 and friends:
            carry = left
        else:
            rest += left
    giver = dealer if at_j or not friends else friends[0]
    dig = DugKitty(giver, digger, at_j, tuple(declarers))
    return digger_drops(KnockOn(tuple(after), changes, rest, dig))


def digger_drops(k: KnockOn) -> KnockOn:
    """At J, once every attacker but the digger is at 2, the digger drops what is left, down to 2
    (如果所有可指定的玩家都降到2，則由摳底的人降剩下的級數，直至降到2為止); nothing is left then."""
    dig = k.dig
    if not k.rest or not dig.at_j:
        return k
    others = [s for s in range(len(k.levels)) if s not in dig.declarers and s != dig.digger]
    if any(k.levels[s] > 2 for s in others):
        return k
    after = list(k.levels)
    old = after[dig.digger]
    after[dig.digger] = lower_level(old, k.rest)[0]
    changes = dict(k.changes)
    changes[dig.digger] = (changes.get(dig.digger, (old,))[0], after[dig.digger])
    return KnockOn(tuple(after), changes, 0, dig)
