"""The rules engine: pure functions and values over RULES.md.  No I/O, no clock, no randomness."""
from .cards import Card, CardCopy, CardError, parse_card, parse_cards, parse_copy, format_cards
from .ruleset import Ruleset, RulesetError, PRESETS, OPTIONS
