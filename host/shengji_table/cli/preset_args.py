"""What ``play``, ``serve`` and ``demo`` share: the ``--preset`` option and turning it (with
``--hands``) into a ruleset, with the same messages and exit code.  (Not a subcommand itself.)"""
from __future__ import annotations

import sys

from ..rules.ruleset import PRESETS, Ruleset, RulesetError


def add_preset_argument(parser) -> None:
    """``--preset NAME`` (default ``classic``), listing the presets in its help."""
    parser.add_argument("--preset", default="classic", help=f"one of: {', '.join(PRESETS)}")


def preset_ruleset(args, *, min_hands: int | None = 1) -> Ruleset | None:
    """The ruleset ``args.preset`` names, with ``args.hands`` at least ``min_hands`` (``None``: not
    checked; ``serve`` passes 0, where 0 means "until the match ends").  On a bad option the error is
    printed on stderr and ``None`` returned: the command then exits with 2 (a bad option)."""
    try:
        ruleset = Ruleset.from_preset(args.preset)
    except RulesetError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return None
    if min_hands is not None and args.hands < min_hands:
        print(f"error: --hands is at least {min_hands}", file=sys.stderr)
        return None
    return ruleset
