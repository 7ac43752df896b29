"""The ruleset: one typed, immutable value with every option of docs/rules.md (R-9 presets + overrides).

    >>> rs = Ruleset.from_preset("classic", throw_penalty="per-card")
    >>> rs.decks, rs.kitty_size, rs.step
    (2, 8, 40)

Unknown preset or option names, and values of the wrong type, raise :class:`RulesetError` with the
valid choices listed.  A ruleset round-trips through :meth:`Ruleset.to_json` / :meth:`from_json`.
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any
from collections.abc import Mapping

from .cards import CardError, level_text, parse_rank

__all__ = ["Ruleset", "RulesetError", "PRESETS", "OPTIONS", "LEVELS", "level_from_text", "level_text",
           "option_from_text"]


class RulesetError(ValueError):
    """An unknown preset or option, or an option value of the wrong kind."""


# Levels run 2 … A; a level is a rank number 2..14.
LEVELS = tuple(range(2, 15))


def level_from_text(text) -> int:
    """``"J"`` or ``"11"`` → 11 (``rules.cards.parse_rank``, numbers up to 14); :class:`RulesetError` else."""
    try:
        return parse_rank(text, digits_to=14)
    except CardError:
        raise RulesetError(f"not a level: {text!r} (levels are 2-10, J, Q, K, A)") from None


# Option name -> (allowed values, or a type) and a one-line description.
_CHOICES = {
    "throw_penalty": ("none", "per-card", "per-throw"),
    "kitty_multiplier": ("power", "linear"),
    "scoring": ("classic", "takeover-plus-one", "one-deck-hundred"),
    "no_declaration": ("nt", "kitty-card", "spades"),
    "match_end": ("first-to-a", "defend-a", "beyond-a"),
    "teams": ("fixed", "find-friend", "solo"),
    "declare_ladder": ("one-deck", "two-decks", "three-decks", "four-decks"),
    "throws": ("allowed", "none"),
    "follow_protection": ("none", "longer-tuples", "tractors", "longer-tuples-and-tractors", "suit-only"),
}


@dataclass(frozen=True)
class Ruleset:
    """Every option of the rules.  Build with :meth:`from_preset`; never mutate (use :meth:`replace`).

    Field names are the option names accepted by ``from_preset(**overrides)`` and by the judge's
    ``options`` object.
    """

    preset: str = "classic"
    players: int = 4
    decks: int = 2
    kitty_size: int = 8
    # §2 trumps and order
    permanent_twos: bool = False          # 2为常主
    two_colour: bool = False              # 两色
    # §4 throws
    throws: str = "allowed"               # "none": no throws at all (three-player bidding, R-9)
    throw_penalty: str = "none"           # none | per-card | per-throw
    throw_penalty_points: int = 10
    follow_protection: str = "none"       # house option: which units a follower need not break
    # §6 declarations
    declare_ladder: str = "two-decks"
    self_overcall: bool = True            # 自反
    suit_order_overcall: bool = False     # option 反底规则: ♦ < ♣ < ♥ < ♠ < LJ < BJ at equal count
    hidden_declarations: bool = False
    no_declaration: str = "nt"            # nt | kitty-card | spades
    mixed_joker_nt: bool = False          # house option: three decks, 小王 + 大王 call no trump
    # §7 kitty
    kitty_multiplier: str = "power"       # power (2^n, cap 64) | linear (003)
    kitty_multiplier_cap: int = 64
    kitty_stealing: bool = False          # house option, four players: 炒地皮
    # §8 settlement, levels
    scoring: str = "classic"              # classic | R-8.2 takeover-plus-one | R-8.3 one-deck-hundred
    settlement_table: tuple = ()          # house option: ((from P, side, levels), …) replaces scoring
    match_end: str = "first-to-a"         # first-to-a | defend-a (A必打) | beyond-a
    must_defend: tuple = ()               # 必打 levels, e.g. (11, 14)
    start_level: int = 2
    # §9 variants
    teams: str = "fixed"                  # fixed partnerships | find-friend | solo (three players)
    friend_calls: int = 0                 # find-a-friend: how many friends the dealer calls
    bidding: bool = False                 # three players: bidding for the deal (竞标)
    # §10 referee
    referee_undo: bool = False            # option: the referee may undo a play
    play_clock: int = 0                   # seconds a seat has for a play (0: no clock); the referee rules
    bury_clock: int = 0                   # seconds the dealer has to bury the kitty (0: no clock)

    # ---- derived values -------------------------------------------------------------------
    @property
    def step(self) -> int:
        """Settlement step s = 20·d (§8)."""
        return 20 * self.decks

    @property
    def takeover(self) -> int:
        """Take-over mark T = 2s (§8)."""
        return 2 * self.step

    @property
    def total_points(self) -> int:
        """100 points per deck (R-1.4)."""
        return 100 * self.decks

    @property
    def hand_size(self) -> int:
        return (54 * self.decks - self.kitty_size) // self.players

    # ---- construction ---------------------------------------------------------------------
    @classmethod
    def from_preset(cls, name: str = "classic", **overrides) -> Ruleset:
        """The preset's ruleset with ``overrides`` applied (option name → value)."""
        if name not in PRESETS:
            raise RulesetError(f"unknown preset {name!r}; valid presets: {', '.join(PRESETS)}")
        base = dict(PRESETS[name])
        base["preset"] = name
        base.update(_check_overrides(overrides))
        return cls(**base)._validated()

    def replace(self, **overrides) -> Ruleset:
        return dataclasses.replace(self, **_check_overrides(overrides))._validated()

    def to_json(self) -> dict:
        """Every option, except those of :data:`_QUIET_AT_DEFAULT` at their default in a preset
        that keeps the default too: options added later leave the records of rulesets without them
        as they were, and old records load (a missing option is the preset's, which is the
        default).  ``from_json(to_json())`` is the same ruleset."""
        d = dataclasses.asdict(self)
        d["must_defend"] = list(self.must_defend)
        preset = PRESETS.get(self.preset, {})
        for name in _QUIET_AT_DEFAULT:
            if d[name] == _FIELDS[name].default == preset.get(name, _FIELDS[name].default):
                del d[name]
        if "settlement_table" in d:
            d["settlement_table"] = table_to_json(self.settlement_table)
        return d

    @classmethod
    def from_json(cls, data: object) -> Ruleset:
        """Inverse of :meth:`to_json`; also accepts ``{"preset": …, "options": {…}}``.

        ``data`` is untrusted JSON: anything but a mapping is a :class:`RulesetError`.
        """
        if not isinstance(data, Mapping):
            raise RulesetError(f"a ruleset is a JSON object, not {type(data).__name__}")
        data = dict(data)
        preset = data.pop("preset", "classic")
        options = data.pop("options", None) or {}
        if not isinstance(options, Mapping):
            raise RulesetError("'options' is a JSON object of option name → value")
        options = {**data, **options}
        return cls.from_preset(preset, **options)

    def _validated(self) -> Ruleset:
        if not 1 <= self.decks <= 4:
            raise RulesetError(f"decks must be 1..4, not {self.decks}")
        if not 3 <= self.players <= 6:
            raise RulesetError(f"players must be 3..6, not {self.players}")
        if self.kitty_size < 0:
            raise RulesetError(f"kitty_size must be 0 or more, not {self.kitty_size}")
        if self.kitty_size >= 54 * self.decks:
            raise RulesetError(f"kitty_size must be less than the {54 * self.decks} cards of {self.decks} deck(s)")
        if (54 * self.decks - self.kitty_size) % self.players:
            raise RulesetError(
                f"{54 * self.decks} cards less a kitty of {self.kitty_size} do not deal evenly "
                f"to {self.players} players")
        if self.two_colour and self.decks != 1:
            raise RulesetError("two_colour is a one-deck option (R-2.5)")
        if self.start_level not in LEVELS:
            raise RulesetError(f"start_level must be a level 2..14, not {self.start_level}")
        for name in ("play_clock", "bury_clock"):
            if getattr(self, name) < 0:
                raise RulesetError(f"{name} is seconds, 0 (no clock) or more, not {getattr(self, name)}")
        self._validate_variants()
        for lv in self.must_defend:
            if lv not in LEVELS:
                raise RulesetError(f"must_defend holds levels 2..14, not {lv!r}")
        return self


    def _validate_variants(self) -> None:
        if self.mixed_joker_nt and self.declare_ladder != "three-decks":
            raise RulesetError("mixed_joker_nt is a three-deck option (R-6.7): it needs "
                               f"declare_ladder = \"three-decks\", not {self.declare_ladder!r}")
        if self.kitty_stealing and (self.players != 4 or not self.kitty_size or self.bidding):
            raise RulesetError("kitty_stealing (炒地皮, R-7.4) is for four players with a kitty, "
                               f"not {self.players} players with a kitty of {self.kitty_size}"
                               + (" and bidding" if self.bidding else ""))
        if self.settlement_table and self.bidding:
            raise RulesetError("settlement_table does not apply with bidding: a bidding hand is settled "
                               "against the bid (R-9 bidding)")


_FIELDS = {f.name: f for f in dataclasses.fields(Ruleset)}
OPTIONS = tuple(n for n in _FIELDS if n != "preset")
# Options a ruleset's JSON leaves out when they are at their default (see Ruleset.to_json).
_QUIET_AT_DEFAULT = ("play_clock", "bury_clock", "follow_protection", "mixed_joker_nt", "settlement_table",
                     "kitty_stealing")


def _check_overrides(overrides: Mapping[str, Any]) -> dict:
    out = {}
    for name, value in overrides.items():
        if name not in OPTIONS:
            raise RulesetError(f"unknown option {name!r}; valid options: {', '.join(OPTIONS)}")
        default = _FIELDS[name].default
        if name in _CHOICES:
            if value not in _CHOICES[name]:
                raise RulesetError(f"option {name} must be one of {', '.join(_CHOICES[name])}, not {value!r}")
        elif name == "must_defend":
            if not isinstance(value, (list, tuple)):
                raise RulesetError("option must_defend is a list of levels, e.g. [\"J\", \"A\"]")
            value = tuple(sorted({level_from_text(v) for v in value}))
        elif name == "settlement_table":
            value = table_from_json(value)
        elif name == "start_level":
            value = level_from_text(value)
        elif isinstance(default, bool):
            if not isinstance(value, bool):
                raise RulesetError(f"option {name} is true or false, not {value!r}")
        elif isinstance(default, int):
            if isinstance(value, bool) or not isinstance(value, int):
                raise RulesetError(f"option {name} is a whole number, not {value!r}")
        out[name] = value
    return out


_SIDES = ("declarers", "attackers")
# bounds: a hand moves a side up at most MAX_TABLE_LEVELS (the default table's most is 3, its
# declarers' P = 0), ``from`` is a number of points a hand can reach, and a table has a few rows.
MAX_TABLE_LEVELS = 4
MAX_TABLE_FROM = 1000
MAX_TABLE_ROWS = 32


def table_to_json(table: tuple) -> list:
    """A settlement table as the rules file writes it: ``[{"from": 0, "declarers": 3}, …]``."""
    return [{"from": lo, side: levels} for lo, side, levels in table]


def _table_row(i: int, row: object) -> tuple:
    where = f"settlement_table row {i + 1}"
    if not isinstance(row, Mapping):
        raise RulesetError(f"{where} is a table {{from = P, declarers = N}} or {{from = P, attackers = N}}, "
                           f"not {row!r}")
    unknown = sorted(set(row) - {"from", *_SIDES})
    if unknown:
        raise RulesetError(f"{where}: unknown key {unknown[0]!r}; a row has 'from' and 'declarers' or 'attackers'")
    sides = [s for s in _SIDES if s in row]
    if "from" not in row or len(sides) != 1:
        raise RulesetError(f"{where} needs 'from' and exactly one of 'declarers' or 'attackers'")
    lo, levels = row["from"], row[sides[0]]
    for key, v in (("from", lo), (sides[0], levels)):
        if isinstance(v, bool) or not isinstance(v, int):
            raise RulesetError(f"{where}: {key} is a whole number, not {v!r}")
    if not 0 <= levels <= MAX_TABLE_LEVELS:
        raise RulesetError(f"{where}: {sides[0]} go up 0 to {MAX_TABLE_LEVELS} levels in a hand, not {levels}")
    if not 0 <= lo <= MAX_TABLE_FROM:
        raise RulesetError(f"{where}: from is 0 to {MAX_TABLE_FROM} points, not {lo}")
    return (lo, sides[0], levels)


def table_from_json(rows: object) -> tuple:
    """A custom settlement table (R-8.6) from the rules file's list of rows, checked: rows start at
    P = 0 (points at or below 0 count there), ``from`` rises strictly, and the result only gets
    better for the attackers as P rises (declarers' levels fall, then the attackers' rise; once the
    attackers take over no later row goes back to the declarers).  ``()`` is no table."""
    if not isinstance(rows, (list, tuple)):
        raise RulesetError("option settlement_table is a list of rows {from = P, declarers = N} or "
                           "{from = P, attackers = N}")
    if len(rows) > MAX_TABLE_ROWS:
        raise RulesetError(f"settlement_table has {len(rows)} rows; at most {MAX_TABLE_ROWS}")
    table = tuple(_table_row(i, table_to_json((r,))[0] if isinstance(r, tuple) and len(r) == 3 else r)
                  for i, r in enumerate(rows))
    if not table:
        return ()
    if table[0][0] != 0:
        raise RulesetError(f"settlement_table must start at from = 0 (P of 0 or less), not {table[0][0]}: "
                           "every P needs a row")
    for i in range(1, len(table)):
        (lo0, side0, n0), (lo1, side1, n1) = table[i - 1], table[i]
        where = f"settlement_table row {i + 1} (from {lo1})"
        if lo1 <= lo0:
            raise RulesetError(f"{where}: 'from' must rise from row to row ({lo0}, then {lo1})")
        if side0 == "attackers" and side1 == "declarers":
            raise RulesetError(f"{where}: the declarers cannot gain again after the attackers took over")
        if side0 == side1 == "declarers" and n1 > n0:
            raise RulesetError(f"{where}: more points for the attackers cannot give the declarers more "
                               f"levels ({n0}, then {n1})")
        if side0 == side1 == "attackers" and n1 < n0:
            raise RulesetError(f"{where}: more points cannot give the attackers fewer levels ({n0}, then {n1})")
    return table


_TRUE, _FALSE = ("true", "yes", "on", "1"), ("false", "no", "off", "0")


def option_from_text(name: str, text: str) -> tuple[str, Any]:
    """``(name, value)`` for an option given as text (``--option throw_penalty=per-card``): the
    text read by the option's type — true/false, a whole number, one of its choices, levels
    (``must_defend=J,A``) — then checked as :meth:`Ruleset.from_preset` checks it (the same
    :class:`RulesetError`, with the valid names or values listed)."""
    if name not in OPTIONS:
        raise RulesetError(f"unknown option {name!r}; valid options: {', '.join(OPTIONS)}")
    default = _FIELDS[name].default
    value: Any = text.strip()
    if name == "must_defend":
        value = [v for v in (p.strip() for p in value.split(",")) if v]
    elif name == "settlement_table":
        value = _table_from_text(value)
    elif isinstance(default, bool) and name not in _CHOICES:
        if value.lower() not in _TRUE + _FALSE:
            raise RulesetError(f"option {name} is true or false, not {text!r}")
        value = value.lower() in _TRUE
    elif isinstance(default, int) and name != "start_level":
        try:
            value = int(value)
        except ValueError:
            raise RulesetError(f"option {name} is a whole number, not {text!r}") from None
    return name, _check_overrides({name: value})[name]


def _table_from_text(text: str) -> list:
    """``0:d3,5:d2,40:d1,80:a0,120:a1`` (from P, ``d`` declarers or ``a`` attackers, levels) → rows."""
    rows = []
    for part in (p.strip() for p in text.split(",")):
        lo, _, rest = part.partition(":")
        side = {"d": "declarers", "a": "attackers"}.get(rest[:1])
        try:
            if side is None:
                raise ValueError
            rows.append({"from": int(lo), side: int(rest[1:])})
        except ValueError:
            raise RulesetError(f"option settlement_table is rows FROM:dN or FROM:aN separated by commas "
                               f"(0:d3,5:d2,40:d1,80:a0,120:a1), not {part!r}") from None
    return rows


# The presets of docs/rules.md, R-9.  Kitty sizes "by deal" keep every hand the same size.
PRESETS: dict = {
    "classic": dict(players=4, decks=2, kitty_size=8),
    "one-deck": dict(players=4, decks=1, kitty_size=6, declare_ladder="one-deck"),
    "one-deck-two-colour": dict(players=4, decks=1, kitty_size=6, declare_ladder="one-deck", two_colour=True),
    "three-decks": dict(players=4, decks=3, kitty_size=6, declare_ladder="three-decks"),
    "four-decks": dict(players=4, decks=4, kitty_size=0, declare_ladder="four-decks", permanent_twos=True,
                       hidden_declarations=True, self_overcall=False, no_declaration="spades",
                       scoring="takeover-plus-one"),
    "find-friend-4": dict(players=4, decks=2, kitty_size=8, teams="find-friend", friend_calls=1),
    "find-friend-5": dict(players=5, decks=2, kitty_size=8, teams="find-friend", friend_calls=1),
    "find-friend-5-three-decks": dict(players=5, decks=3, kitty_size=7, declare_ladder="three-decks",
                                      teams="find-friend", friend_calls=2),
    "six-players": dict(players=6, decks=3, kitty_size=6, declare_ladder="three-decks"),
    "three-players": dict(players=3, decks=2, kitty_size=9, teams="solo", bidding=True, throws="none"),
    # club tournament points: a failed throw costs 10 a card taken back, the referee may undo,
    # a play clock; a revoke and a wrong kitty end the hand in every preset
    "tournament": dict(players=4, decks=2, kitty_size=8, throw_penalty="per-card", throw_penalty_points=10,
                       referee_undo=True, play_clock=15, bury_clock=60),
}
