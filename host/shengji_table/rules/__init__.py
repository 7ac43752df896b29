"""The rules engine: pure functions and values over the rules of docs/rules.md.  No I/O, no clock, no randomness.

Vocabulary: :class:`Card` (a face) and :class:`CardCopy` (a physical card); :class:`Ruleset` (every
option, from a preset); :class:`TrumpOrder` (trumps and card order for a level and trump suit);
:class:`Unit` (single, pair, triple, quad, tractor) and :func:`decompose`; :class:`Play` and the trick
functions; follow, throw, declaration, kitty and settlement verdicts, each carrying a rule id and a
reason a player understands.
"""
from .cards import Card, CardCopy, CardError, parse_card, parse_cards, parse_copy, format_cards
from .ruleset import Ruleset, RulesetError, PRESETS, OPTIONS
from .order import TrumpOrder
from .units import Unit, decompose
from .verdict import Verdict
from .follow import check_follow, legal_follows, follow_rule
from .throw import ThrowCheck, check_throw, check_lead
from .trick import Play, winning_index, trick_points, lead_candidates
from .trick_ruling import rule_trick

__all__ = [
    "Card", "CardCopy", "CardError", "parse_card", "parse_cards", "parse_copy", "format_cards",
    "Ruleset", "RulesetError", "PRESETS", "OPTIONS", "TrumpOrder", "Unit", "decompose", "Verdict",
    "check_follow", "legal_follows", "follow_rule", "ThrowCheck", "check_throw", "check_lead",
    "Play", "winning_index", "trick_points", "lead_candidates", "rule_trick",
]
