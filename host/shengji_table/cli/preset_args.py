"""What ``play``, ``serve`` and ``demo`` share: the house rules — ``--preset``, ``--rules FILE``
(TOML), repeatable ``--option NAME=VALUE`` and ``--players NAMES`` — turned (with ``--hands``) into
a ruleset and the players' names, with the same messages and exit code.  (Not a subcommand.)

The rules file (``docs/house-rules.md``, ``examples/rules/``)::

    preset = "classic"                      # default classic
    players = ["Li", "Wang", "Zhao", "Chen"]   # names in seat order (seat 0 first)

    [options]                               # any ruleset option (docs/house-rules.md)
    throw_penalty = "per-card"
    match_end = "defend-a"

    [clock]                                 # seconds; 0 = off (the options play_clock, bury_clock)
    play = 15
    bury = 60

The command line wins over the file: ``--preset``, then the file's options, its clock, and the
``--option``s in their order; ``--players`` replaces the file's names.  Anything wrong — an
unknown key, option or value (the valid ones listed), a file that is not TOML (its line named), a
wrong number of names — is one line on stderr and exit status 2, before anything is opened.
"""
from __future__ import annotations

import pathlib
import sys
import tomllib

from ..game.names import PlayerNamesError, check_names, names_from_text
from ..rules.ruleset import PRESETS, Ruleset, RulesetError, option_from_text

__all__ = ["add_preset_argument", "preset_ruleset", "HouseRulesError", "read_rules_file", "logged_names",
           "seats_meta"]

_FILE_KEYS = ("preset", "players", "options", "clock")
_CLOCK = {"play": "play_clock", "bury": "bury_clock"}


class HouseRulesError(ValueError):
    """Bad house rules: the message says what and where."""


def add_preset_argument(parser) -> None:
    """``--preset NAME`` (default ``classic``, or the rules file's), ``--rules FILE``,
    ``--option NAME=VALUE`` (repeatable) and ``--players NAMES``."""
    parser.add_argument("--preset", default=None, help=f"one of: {', '.join(PRESETS)} (default: the rules "
                        "file's, else classic)")
    parser.add_argument("--rules", metavar="FILE", help="house rules file (TOML): preset, options, players, clock "
                        "(docs/house-rules.md)")
    parser.add_argument("--option", metavar="NAME=VALUE", action="append", default=[],
                        help="set a ruleset option, e.g. throw_penalty=per-card (repeatable; wins over --rules)")
    parser.add_argument("--players", metavar="NAMES", help="the players' names in seat order, comma separated "
                        "(seat 0 first), e.g. Li,Wang,Zhao,Chen")


def read_rules_file(path: str) -> dict:
    """The rules file at ``path`` as ``{"preset", "options", "players"}``; :class:`HouseRulesError`."""
    try:
        text = pathlib.Path(path).read_bytes().decode("utf-8")
    except OSError as exc:
        raise HouseRulesError(f"cannot read rules file {path}: {exc.strerror or exc}") from None
    except UnicodeDecodeError as exc:
        raise HouseRulesError(f"rules file {path} is not UTF-8 text: {exc}") from None
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        why = str(exc)                              # "(at line 3, column 5)", or the end of the file
        if "at end of document" in why:
            why = why.replace("at end of document", f"at the end of the file, line {len(text.splitlines())}")
        raise HouseRulesError(f"rules file {path} is not TOML: {why}") from None
    except RecursionError:
        raise HouseRulesError(f"rules file {path} is nested too deeply to be a rules file") from None
    unknown = sorted(set(data) - set(_FILE_KEYS))
    if unknown:
        raise HouseRulesError(f"rules file {path}: unknown key(s) {', '.join(unknown)}; valid keys: "
                              f"{', '.join(_FILE_KEYS)}")
    preset = data.get("preset")
    if preset is not None and not isinstance(preset, str):
        raise HouseRulesError(f"rules file {path}: preset is a name in quotes, e.g. preset = \"classic\"")
    options = _table(data, "options", path)
    clock = _table(data, "clock", path)
    unknown = sorted(set(clock) - set(_CLOCK))
    if unknown:
        raise HouseRulesError(f"rules file {path}: unknown key(s) in [clock]: {', '.join(unknown)}; valid keys: "
                              f"{', '.join(_CLOCK)} (seconds, 0 = off)")
    options.update({_CLOCK[k]: v for k, v in clock.items()})
    return {"preset": preset, "options": options, "players": data.get("players")}


def _table(data: dict, key: str, path: str) -> dict:
    value = data.get(key, {})
    if not isinstance(value, dict):
        raise HouseRulesError(f"rules file {path}: {key} is a table: a line [{key}] and then name = value lines")
    return dict(value)


def house_rules(args) -> tuple[Ruleset, tuple[str, ...]]:
    """The ruleset and the players' names (``()``: none given) the arguments say;
    :class:`HouseRulesError` or :class:`RulesetError`."""
    given = read_rules_file(args.rules) if getattr(args, "rules", None) else {"options": {}}
    preset = args.preset or given.get("preset") or "classic"
    options = dict(given["options"])
    where = f"rules file {args.rules}: " if args.rules else ""
    try:                      # the file's own mistakes are the file's
        Ruleset.from_preset(preset, **options)
    except RulesetError as exc:
        from_file = options or (args.preset is None and given.get("preset"))
        raise HouseRulesError((where if from_file else "") + str(exc)) from None
    for item in getattr(args, "option", None) or ():
        name, eq, text = item.partition("=")
        if not eq:
            raise HouseRulesError(f"--option {item!r} is NAME=VALUE, e.g. --option throw_penalty=per-card")
        name, value = option_from_text(name.strip(), text)
        options[name] = value
    ruleset = Ruleset.from_preset(preset, **options)
    game = f"preset {ruleset.preset!r}" + (" with these options" if options else "")
    try:
        if getattr(args, "players", None):
            return ruleset, names_from_text(args.players, ruleset.players, game)
        if given.get("players") is not None:
            return ruleset, _file_names(given["players"], ruleset.players, game)
    except PlayerNamesError as exc:
        raise HouseRulesError(("--players: " if args.players else where) + str(exc)) from None
    return ruleset, ()


def _file_names(names, players: int, game: str) -> tuple[str, ...]:
    if not isinstance(names, list):
        raise PlayerNamesError('players is a list of names, e.g. players = ["Li", "Wang", "Zhao", "Chen"]')
    return check_names(names, players, game)


def preset_ruleset(args, *, min_hands: int | None = 1) -> Ruleset | None:
    """The ruleset the house rules name (:func:`house_rules`), with ``args.hands`` at least
    ``min_hands`` (``None``: not checked; ``serve`` passes 0, where 0 means "until the match
    ends").  Sets ``args.preset`` to the preset played and ``args.names`` to the names.  On bad
    input the error is printed on stderr and ``None`` returned: the command then exits with 2."""
    try:
        ruleset, names = house_rules(args)
    except (HouseRulesError, RulesetError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return None
    if min_hands is not None and args.hands < min_hands:
        print(f"error: --hands is at least {min_hands}", file=sys.stderr)
        return None
    args.preset, args.names = ruleset.preset, names
    return ruleset


def logged_names(args, log, match: str) -> tuple[str, ...]:
    """``serve`` resuming a match: the names its header in ``log`` holds, when ``args.names`` gives
    none; other names than the header's are a :class:`HouseRulesError`."""
    logged: tuple = ()
    for entry in log.entries(match=match, kind="meta"):
        start = entry.payload.get("start") if isinstance(entry.payload, dict) else None
        if isinstance(start, dict):
            logged = tuple(start.get("seats") or ())
            break
    if not args.names or not logged or tuple(args.names) == logged:
        return tuple(args.names or logged)
    raise HouseRulesError(f"match {match!r} was started with players {', '.join(logged)}, not "
                          f"{', '.join(args.names)}; leave out --players to resume it, or start another "
                          f"with --match NAME")


def seats_meta(names) -> dict:
    """The match header's ``seats`` (the players' names), or nothing when no names were given."""
    return {"seats": list(names)} if names else {}
