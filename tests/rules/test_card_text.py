"""Suit and rank words have one definition (rules/cards.py); every other layer says them through it."""
import pytest

from shengji_table.rules import cards, ruleset
from shengji_table.rules.cards import CardError, level_text, parse_rank, rank_text, suit_symbol, suit_word, trump_text
from shengji_table.rules.ruleset import RulesetError, level_from_text


def test_r1_suit_words_symbols_and_the_judges_notation():
    assert [suit_word(s) for s in ("S", "H", "C", "D", None)] == ["spades", "hearts", "clubs", "diamonds", "no trump"]
    assert [suit_symbol(s) for s in ("S", "H", "C", "D", None)] == ["♠", "♥", "♣", "♦", "NT"]
    assert [trump_text(s) for s in ("S", "D", None)] == ["S", "D", "NT"]
    with pytest.raises(KeyError):
        suit_word("X")


def test_r1_rank_text_is_level_text_r_8_4():
    assert ruleset.level_text is cards.level_text is rank_text
    assert [level_text(n) for n in (2, 10, 11, 12, 13, 14, 15)] == ["2", "10", "J", "Q", "K", "A", "15"]


def test_r1_parse_rank_cards_and_levels():
    assert parse_rank(" t ") == 10 and parse_rank("a") == 14 and parse_rank("7") == 7
    assert cards.rank_from_text is parse_rank
    with pytest.raises(CardError, match=r"not a rank: '11' \(ranks are 2-10, J, Q, K, A; T means 10\)"):
        parse_rank("11")
    assert level_from_text("11") == 11 and level_from_text("q") == 12 and level_from_text(14) == 14
    with pytest.raises(RulesetError, match=r"^not a level: '15' \(levels are 2-10, J, Q, K, A\)$") as info:
        level_from_text("15")
    assert info.value.__cause__ is None
