"""Settling a hand: levels won, next dealer, level advance and match end (R-8, §9 variants).

Attackers' points P are what they captured plus the kitty bonus (R-7.3) plus or minus penalties
(R-10.1).  Step s = 20·d and take-over mark T = 2s come from the ruleset (``.step``, ``.takeover``).

Tables (``Ruleset.scoring``):

* ``classic`` (R-8.1, seeds 000/001): P ≤ 0 → declarers +3; P < s → +2; P < T → +1; T ≤ P < T+s →
  attackers take over, +0; each further full s → attackers +1.
* ``takeover-plus-one`` (R-8.2, seed 000 four decks, 002 two decks): as classic but taking over gives
  the attackers +1 at once; P ≤ 0 counts as 0.
* ``one-deck-hundred`` (R-8.3, seed 002 one deck): P ≤ 0 → +2; P < 40 → +1; 40–79 → nobody moves
  and the deal passes to the attackers; 80–95 → attackers +1; 100+ → attackers +2.  The marks are
  40 %, 80 % and 100 % of the points in play, i.e. 40/80/100 with one deck.
* a house table (``Ruleset.settlement_table``, R-8.6): rows ``(from P, side, levels)`` from the
  rules file, checked when the ruleset is built; it replaces ``scoring``.
* three players, bidding (§9, seed 000 三人打法): with bid b, attackers reaching b each go up 1 and
  1 more for each further b/2; below b the dealer goes up 2, below b/2 up 4, with no points up 6.

Find a friend (seed 000 变异打法): the table above gives levels *per level right*; each side's
rights follow 攻防双方总体级差权平等 (:func:`level_rights`, :func:`share_levels`); levels that a
must-defend level stops are not wasted (级数不浪费, :class:`LevelChange.leftover`,
:func:`lower_level`); digging the kitty with J or A drops the declarers (:func:`dig_drop`).
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from collections.abc import Mapping, Sequence

from .cards import level_text
from .ruleset import Ruleset

__all__ = [
    "Settlement", "settle", "next_dealer", "partner_of", "LevelChange", "advance_level",
    "lower_level", "top_level", "level_rights", "share_levels", "Shares", "DigDrop", "dig_drop",
    "JOKER_LEVEL", "pass_on", "marks",
]

# With match_end="beyond-a" the level after A is the jokers' level (王, played without trump).
JOKER_LEVEL = 15


@dataclass(frozen=True)
class Settlement:
    """The outcome of one hand for the two sides.

    ``declarers_levels``/``attackers_levels`` are levels each member goes up (per level right in
    find-a-friend); ``takeover`` is true when the deal passes to the attackers.
    """

    attackers_points: int
    declarers_levels: int
    attackers_levels: int
    takeover: bool
    rule: str
    reason: str


def _lv(n: int) -> str:
    return f"{n} level" + ("" if n == 1 else "s")


def settle(ruleset: Ruleset, attackers_points: int, *, bid: int | None = None) -> Settlement:
    """Settle a hand from the attackers' points P (captured + kitty bonus ± penalties).

    ``bid`` is the winning bid b of a three-player bidding hand (required there, refused elsewhere).
    """
    if isinstance(attackers_points, bool) or not isinstance(attackers_points, int):
        raise ValueError(f"attackers' points are a whole number, not {attackers_points!r}")
    p = attackers_points
    if ruleset.bidding:
        if bid is None:
            raise ValueError("a bidding hand is settled against the winning bid: give bid=")
        return _settle_bidding(p, bid)
    if bid is not None:
        raise ValueError(f"ruleset {ruleset.preset!r} has no bidding; bid= does not apply")
    if ruleset.settlement_table:
        return _settle_custom(ruleset.settlement_table, p)
    if ruleset.scoring == "one-deck-hundred":
        return _settle_hundred(ruleset, p)
    s, t = ruleset.step, ruleset.takeover
    plus_one = ruleset.scoring == "takeover-plus-one"
    rule = "R-8.2" if plus_one else "R-8.1"
    if p <= 0:
        return Settlement(p, 3, 0, False, rule, f"attackers took no points: declarers go up {_lv(3)}.")
    if p < s:
        return Settlement(p, 2, 0, False, rule, f"attackers took {p}, under {s}: declarers go up {_lv(2)}.")
    if p < t:
        return Settlement(p, 1, 0, False, rule,
                          f"attackers took {p}, {s} or more but under {t}: declarers go up 1 level.")
    up = (p - t) // s + (1 if plus_one else 0)
    if up == 0:
        why = f"attackers took {p}, {t} or more: they take over the deal and nobody goes up."
    else:
        why = f"attackers took {p}, {t} or more: they take over the deal and go up {_lv(up)}."
    return Settlement(p, 0, up, True, rule, why)


def _settle_custom(table: tuple, p: int) -> Settlement:
    """R-8.6: the rules file's own table; the last row whose ``from`` P reaches holds (the first
    row also holds every P below 0).  An attackers' row passes the deal to them."""
    row = 0
    for i, (lo, _side, _n) in enumerate(table):
        if p >= lo:
            row = i
    lo, side, n = table[row]
    upto = f" to {table[row + 1][0] - 1}" if row + 1 < len(table) else " or more"
    band = f"attackers took {p} (house table row {lo}{upto})"
    if side == "declarers":
        return Settlement(p, n, 0, False, "R-8.6", f"{band}: declarers go up {_lv(n)}.")
    if n == 0:
        return Settlement(p, 0, 0, True, "R-8.6", f"{band}: they take over the deal and nobody goes up.")
    return Settlement(p, 0, n, True, "R-8.6", f"{band}: they take over the deal and go up {_lv(n)}.")


def _settle_hundred(ruleset: Ruleset, p: int) -> Settlement:
    total = ruleset.total_points
    m40, m80, m100 = total * 40 // 100, total * 80 // 100, total
    if p <= 0:
        return Settlement(p, 2, 0, False, "R-8.3", f"attackers took no points: declarers go up {_lv(2)}.")
    if p < m40:
        return Settlement(p, 1, 0, False, "R-8.3", f"attackers took {p}, under {m40}: declarers go up 1 level.")
    if p < m80:
        return Settlement(p, 0, 0, True, "R-8.3",
                          f"attackers took {p}, {m40} to {m80 - 5}: nobody goes up "
                          f"and the deal passes to the attackers.")
    if p < m100:
        return Settlement(p, 0, 1, True, "R-8.3", f"attackers took {p}, {m80} to {m100 - 5}: they go up 1 level.")
    return Settlement(p, 0, 2, True, "R-8.3", f"attackers took {p}, {m100} or more: they go up {_lv(2)}.")


def _settle_bidding(p: int, bid: int) -> Settlement:
    if isinstance(bid, bool) or not isinstance(bid, int) or bid <= 0:
        raise ValueError(f"a bid is a positive whole number of points, not {bid!r}")
    half = Fraction(bid, 2)   # b/2 may be fractional (bid 115 → 57.5, seed 000)
    if p >= bid:
        up = 1 + int((p - bid) // half)
        return Settlement(p, 0, up, True, "§9 bidding",
                          f"attackers took {p}, reaching the bid of {bid}: each goes up {_lv(up)}.")
    if p <= 0:
        return Settlement(p, 6, 0, False, "§9 bidding", f"attackers took no points: the dealer goes up {_lv(6)}.")
    if p < half:
        return Settlement(p, 4, 0, False, "§9 bidding",
                          f"attackers took {p}, under half the bid ({half}): the dealer goes up {_lv(4)}.")
    return Settlement(p, 2, 0, False, "§9 bidding",
                      f"attackers took {p}, under the bid of {bid}: the dealer goes up {_lv(2)}.")


def marks(ruleset: Ruleset, bid: int | None = None) -> list[tuple[int, int, int, bool]]:
    """The settlement's marks: ``(P, declarers' levels, attackers' levels, takeover)`` for each
    attackers' points P from which the outcome changes, counted in 5s from 5 to the points in play
    (the first mark: the outcome from 5 points up).  A bidding ruleset has marks only with its bid.

    >>> [m[0] for m in marks(Ruleset.from_preset("classic"))]
    [5, 40, 80, 120, 160, 200]
    """
    if ruleset.bidding and bid is None:
        return []
    out: list[tuple[int, int, int, bool]] = []
    for p in range(5, ruleset.total_points + 1, 5):
        s = settle(ruleset, p, bid=bid) if ruleset.bidding else settle(ruleset, p)
        row = (p, s.declarers_levels, s.attackers_levels, s.takeover)
        if not out or out[-1][1:] != row[1:]:
            out.append(row)
    return out


def partner_of(ruleset: Ruleset, seat: int, players: int | None = None) -> int:
    """The partner (对家) next in playing order: seats alternate sides, so two seats on."""
    n = players or ruleset.players
    return (seat + 2) % n


def next_dealer(ruleset: Ruleset, dealer: int, takeover: bool, players: int | None = None) -> int | None:
    """R-8.5: declarers kept the deal → the dealer's partner; attackers took over → the next seat in
    playing order (下家).  Without fixed partnerships (find a friend, three-player bidding) the next
    dealer is not a seat fixed by the rules: the winners' declarations or the bidding decide, and
    ``None`` is returned."""
    n = players or ruleset.players
    if not 0 <= dealer < n:
        raise ValueError(f"no seat {dealer} at a table of {n}")
    if ruleset.teams != "fixed":
        return None
    return (dealer + 1) % n if takeover else partner_of(ruleset, dealer, n)


def top_level(ruleset: Ruleset) -> int:
    """The last level of a round: A (14), or the jokers' level (15) with ``match_end="beyond-a"``."""
    return JOKER_LEVEL if ruleset.match_end == "beyond-a" else 14


@dataclass(frozen=True)
class LevelChange:
    """A side's level after going up.  ``leftover`` counts levels a must-defend level stopped
    (级数不浪费: the seed lets them be passed to a team-mate or taken off an opponent)."""

    start: int
    level: int
    won: bool        # the match (round, with beyond-a) is won
    leftover: int
    rule: str
    reason: str


def advance_level(ruleset: Ruleset, level: int, steps: int, *, as_declarers: bool) -> LevelChange:
    """Move a side ``steps`` levels up from ``level`` (R-8.4).

    * A side never skips past a must-defend level (``must_defend``, 必打): it stops there and must
      win it as declarers to go on.  A side already at that level moves on only as declarers.
    * ``first-to-a``: reaching A wins the match.  ``defend-a`` (A必打): A is must-defend and the
      match is won by declarers who win a hand at A.  ``beyond-a``: after A comes the jokers' level
      (:data:`JOKER_LEVEL`), which is played like A under defend-a; winning it wins the round.
    """
    if steps < 0:
        raise ValueError("advance_level takes a number of levels won; use lower_level to go down")
    top = top_level(ruleset)
    if not 2 <= level <= top:
        raise ValueError(f"level {level} is outside 2..{level_text(top) if top <= 14 else 'jokers'}")
    barriers = set(ruleset.must_defend)
    if ruleset.match_end != "first-to-a":
        barriers.add(top)
    if steps == 0:
        return LevelChange(level, level, False, 0, "R-8.4", "no level change.")
    if level in barriers and not as_declarers:
        return LevelChange(level, level, False, steps, "R-8.4",
                           f"{_name(level)} must be won as declarers: the side stays at {_name(level)}.")
    if level == top:
        return LevelChange(level, level, True, 0, "R-8.4",
                           f"the declarers won a hand at {_name(level)}: they win the match.")
    target = level + steps
    for lv in range(level + 1, min(target, top) + 1):
        if lv in barriers and lv < target:
            return LevelChange(level, lv, False, target - lv, "R-8.4",
                               f"the side stops at {_name(lv)}, which must be defended; {_lv(target - lv)} left over.")
    if target >= top and top not in barriers:
        return LevelChange(level, top, True, target - top, "R-8.4",
                           f"the side reaches {_name(top)} first and wins the match.")
    if target == top:
        return LevelChange(level, top, False, 0, "R-8.4",
                           f"the side reaches {_name(top)}, which it must win as declarers.")
    return LevelChange(level, target, False, 0, "R-8.4", f"the side goes up to {_name(target)}.")


def _name(level: int) -> str:
    return "the jokers' level" if level == JOKER_LEVEL else level_text(level)


def lower_level(level: int, steps: int) -> tuple:
    """Go down ``steps`` levels, not below 2: ``(new_level, leftover)`` — the leftover is passed on
    by the find-a-friend rules (seed 000 变异打法 5–6)."""
    new = max(2, level - steps)
    return new, steps - (level - new)


def pass_on(ruleset: Ruleset, target_level: int, levels: int, *, up: bool) -> tuple:
    """级数不浪费 (seed 000 变异打法, 原则 and 例 4): levels a must-defend level stopped may be passed
    to a team-mate, who goes up but not past a must-defend level (升到必打的點數不能再升), or to an
    opponent, who goes down but not below 2 (退至2後，無須再退).  Whether to pass them on, and to
    whom, is the player's choice (a winning target may refuse); this applies it.
    Returns ``(new_level, unused)``."""
    if levels < 0:
        raise ValueError("levels passed on are a count of levels, 0 or more")
    if not up:
        return lower_level(target_level, levels)
    change = advance_level(ruleset, target_level, levels, as_declarers=False)
    return change.level, change.leftover


def level_rights(declarers: int, attackers: int) -> tuple:
    """攻防双方总体级差权平等: every player has at least 1 level right and both sides' totals are
    equal.  The larger side has 1 each; the smaller side's total equals the larger side's size, its
    first member taking what is over 1 each.  Returns ``(declarer_rights, attacker_rights)``, lists
    in the given order (dealer first).  Seed examples: 2 v 1 → 1+1 = 2; 3 v 2 → 1+1+1 = 2+1;
    4 v 1 → 1+1+1+1 = 4; 4 v 3 → 1+1+1+1 = 2+1+1."""
    if declarers < 1 or attackers < 1:
        raise ValueError("each side has at least one player")
    big = max(declarers, attackers)

    def side(n):
        return [1] * n if n == big else [big - n + 1] + [1] * (n - 1)
    return side(declarers), side(attackers)


@dataclass(frozen=True)
class Shares:
    """Levels per seat after a find-a-friend hand.  ``booty`` levels (elastic split only) are
    handed out by ``booty_owner`` — a choice of that player, not a rule."""

    levels: Mapping
    booty: int
    booty_owner: int | None
    rule: str
    reason: str


def share_levels(settlement: Settlement, declarers: Sequence[int], attackers: Sequence[int], *,
                 last_trick_seat: int | None = None, split: str = "hard") -> Shares:
    """Turn a settlement into levels per seat for find a friend (seed 000 变异打法 1–3).

    ``declarers`` lists the dealer first, then the friends; ``attackers`` the others.  Levels per
    right come from :func:`settle`.  Declarers winning, ``split="hard"``: the player with the extra
    rights is the dealer, or the friend who won the last trick (保底, "搶頭功"); ``split="elastic"``:
    each declarer gets one right's worth, the rest is booty handed out by the keeper of the last
    trick (the dealer when the kitty was dug).  Attackers winning: the extra rights of a smaller
    attacking side go to the attacker who won the last trick, else the first listed.
    """
    if split not in ("hard", "elastic"):
        raise ValueError("split is 'hard' or 'elastic'")
    dec_r, att_r = level_rights(len(declarers), len(attackers))
    levels = {seat: 0 for seat in (*declarers, *attackers)}
    booty, owner = 0, None
    k = settlement.declarers_levels
    if not k:
        return _attackers_share(settlement, attackers, att_r, levels, last_trick_seat)
    head = last_trick_seat if last_trick_seat is not None and last_trick_seat in declarers[1:] else declarers[0]
    if split == "hard":
        order = [head] + [s for s in declarers if s != head]
        for seat, r in zip(order, dec_r):
            levels[seat] = r * k
        why = f"declarers go up {_lv(k)} per level right; seat {head} holds {dec_r[0]} right(s)."
    else:
        for seat in declarers:
            levels[seat] = k
        booty = (sum(dec_r) - len(declarers)) * k
        owner = last_trick_seat if last_trick_seat is not None and last_trick_seat in declarers else declarers[0]
        why = f"each declarer goes up {_lv(k)}; {_lv(booty)} of booty for seat {owner} to hand out."
    return Shares(levels, booty, owner, "§9 find-a-friend", why)


def _attackers_share(settlement: Settlement, attackers: Sequence[int], att_r, levels: dict,
                     last_trick_seat: int | None) -> Shares:
    """``share_levels`` when the declarers do not go up: the attackers' rights, the larger share
    to the attacker who won the last trick, else the first listed."""
    k = settlement.attackers_levels
    head = last_trick_seat if last_trick_seat is not None and last_trick_seat in attackers else attackers[0]
    order = [head] + [s for s in attackers if s != head]
    for seat, r in zip(order, att_r):
        levels[seat] = r * k
    if settlement.takeover and k:
        why = f"attackers take over (each may declare next hand) and go up {_lv(k)} per level right."
    elif settlement.takeover:
        why = "attackers take over (each may declare next hand); nobody goes up."
    else:
        why = "nobody goes up."
    return Shares(levels, 0, None, "§9 find-a-friend", why)


@dataclass(frozen=True)
class DigDrop:
    """Levels the declarers drop when the kitty is dug with J or A (seed 000 变异打法 5–6)."""

    dealer: int
    friend: int
    rule: str
    reason: str


# §9 find a friend, rule 5: total drop by the unit of J that dug the kitty (dealer 2/3, friend 1/3).
_J_DROP = {"single": 6, "pair": 12, "triple": 18, "tractor": 24, "titanic": 36}


def dig_drop(ruleset: Ruleset, level: int, attackers_points: int, units, *, has_friend: bool = True) -> DigDrop | None:
    """Declarers playing J or A whose kitty the attackers dug (won the last trick) with at least T
    points (kitty bonus included) drop levels (seed 000 变异打法 5–6):

    * at J, with a J unit: single 6, pair 12, triple 18, tractor 24, Titanic 36 levels in all —
      the dealer 2/3, the friend 1/3 (a dealer without friend takes all);
    * at A, with any A: the dealer drops to J, the friend 3 levels.

    ``units`` are the units of the winning play (``rules.units.decompose``).  Returns ``None``
    when the rule does not apply.  Passing on what cannot be dropped below 2 is :func:`lower_level`.
    """
    if attackers_points < ruleset.takeover or level not in (11, 14):
        return None
    rank_cards = [u for u in units if any(c.rank == level for c in u.cards)]
    if not rank_cards:
        return None
    if level == 14:
        return DigDrop(14 - 11, 3 if has_friend else 0, "§9 find-a-friend",
                       "the kitty was dug with an A at level A: the dealer drops to J, the friend 3 levels.")
    unit = max(rank_cards, key=lambda u: (u.width, u.length))
    if unit.length > 1:
        kind = "titanic" if unit.width >= 3 else "tractor"
    else:
        kind = {1: "single", 2: "pair"}.get(unit.width, "triple")
    total = _J_DROP[kind]
    if not has_friend:
        return DigDrop(total, 0, "§9 find-a-friend",
                       f"the kitty was dug with a {kind} of J at level J: the dealer drops {total} levels.")
    return DigDrop(total * 2 // 3, total // 3, "§9 find-a-friend",
                   f"the kitty was dug with a {kind} of J at level J: the declarers drop {total} levels, "
                   f"the dealer {total * 2 // 3} and the friend {total // 3}.")
