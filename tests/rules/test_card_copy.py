"""A physical card (``CardCopy``, R-1.1): its number, hash, equality and order, which the game's
sets and dicts of copies rely on (their order must not depend on how a copy hashes)."""
import pickle

import pytest

from shengji_table.rules.cards import ALL_FACES, COPY_KEY, CardCopy, CardError, all_copies, parse_copy


def test_r_1_1_copy_hash_is_its_number():
    """Every copy of four decks hashes as ``index·8 + deck``, so sets and dicts of copies iterate
    as the same numbers do."""
    copies = list(all_copies(4))
    assert [hash(c) for c in copies] == [c.card.index * 8 + c.deck for c in copies]
    assert [hash(c) for c in set(copies)] == list({c.card.index * 8 + c.deck for c in copies})


def test_r_1_1_copies_equal_exactly_when_face_and_deck_are():
    a, b = parse_copy("SA#2"), CardCopy(parse_copy("SA#1").card, 2)
    assert a == b and hash(a) == hash(b) and len({a, b}) == 1
    assert a != parse_copy("SA#1") and a != parse_copy("HA#2")
    assert a != a.card and a.card != a            # a face is not a copy of it


def test_r_1_1_copies_order_by_face_then_deck():
    copies = list(all_copies(3))
    assert sorted(reversed(copies)) == sorted(copies, key=lambda c: (c.card.index, c.deck))
    assert sorted(copies, key=COPY_KEY) == sorted(copies)


def test_r_1_1_copies_of_high_decks_stay_distinct():
    """Decks past 7 (no game deals them) share no number with another copy."""
    copies = [CardCopy(f, d) for f in ALL_FACES for d in range(1, 12)]
    assert len(set(copies)) == len(copies)
    assert len({c.key for c in copies}) == len(copies)


def test_r_1_3_copy_text_repr_pickle_and_immutability():
    c = parse_copy("s10#2")
    assert (str(c), f"{c}", repr(c)) == ("S10#2", "S10#2", "CardCopy(S10#2)")
    with pytest.raises(TypeError):
        f"{c:5}"                                   # no number formatting: a copy is not a number
    assert pickle.loads(pickle.dumps(c)) == c and type(pickle.loads(pickle.dumps(c))) is CardCopy
    with pytest.raises(AttributeError):
        c.deck = 3  # type: ignore[misc]
    with pytest.raises(CardError):
        CardCopy(c.card, 0)
