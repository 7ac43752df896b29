"""Card registry: tag UID ↔ physical card, card codes in NTAG memory, enrolment and deck checks."""
import json

import pytest
from hypothesis import given, strategies as st

from shengji_table.rules.cards import ALL_FACES, CardCopy, parse_copy
from shengji_table.table.card_code import CardCodeError, decode_card_code, encode_card_code
from shengji_table.table.registry import (DeckCheck, DeckSet, Enrollment, ForeignDeck, RegistryError,
                                          UnknownTag, standard_order, uid_hex)


def fake_uid(n: int) -> bytes:
    """A 7-byte NXP-style UID (first byte 0x04, the NXP manufacturer code)."""
    return bytes([0x04]) + n.to_bytes(6, "big")


def enrolled(decks=2, set_id=77):
    e = Enrollment("club", set_id, decks)
    for n in range(54 * decks):
        e.tap(fake_uid(n))
    assert e.done
    return e.deck_set


@given(st.integers(0, 53), st.integers(1, 4), st.integers(0, 2**32 - 1))
def test_card_code_round_trips(face, deck, set_id):
    copy = CardCopy(ALL_FACES[face], deck)
    code = encode_card_code(copy, set_id)
    assert len(code) == 16
    assert decode_card_code(code) == (set_id, copy)


def test_card_code_rejects_blank_damaged_and_short_memory():
    code = bytearray(encode_card_code(parse_copy("S10#2"), 5))
    with pytest.raises(CardCodeError, match="no card code"):
        decode_card_code(bytes(16))
    code[8] ^= 1
    with pytest.raises(CardCodeError, match="checksum"):
        decode_card_code(bytes(code))
    with pytest.raises(CardCodeError, match="16 bytes"):
        decode_card_code(b"SJ\x01")


def test_enrolment_in_stated_order_gives_every_copy_once():
    ds = enrolled(2)
    assert ds.complete
    assert ds.identify(fake_uid(0)) == standard_order(2)[0]
    assert str(ds.identify(fake_uid(54 + 53))) == "BJ#2"
    assert ds.uid_of(parse_copy("BJ#2")) == uid_hex(fake_uid(107))


def test_enrolment_refuses_a_tag_tapped_twice_and_changes_nothing():
    e = Enrollment("club", 1, 1)
    first = e.tap(fake_uid(1))
    with pytest.raises(RegistryError, match=f"already enrolled as {first}"):
        e.tap(fake_uid(1))
    assert e.expected == standard_order(1)[1]
    assert e.undo() == first and e.expected == first


def test_unknown_and_foreign_tags_are_refused_with_their_reason():
    ds = enrolled(1, set_id=10)
    with pytest.raises(UnknownTag, match="not in this deck set"):
        ds.identify(fake_uid(999))
    other = (11, parse_copy("HA#1"))
    with pytest.raises(ForeignDeck, match="HA#1 of deck set 11"):
        ds.identify(fake_uid(999), code=other)


def test_deck_check_reports_missing_duplicate_and_foreign():
    ds = enrolled(1)
    check = DeckCheck(ds)
    for n in range(54):
        if n != 5:
            check.tap(fake_uid(n))
    check.tap(fake_uid(7))
    refusal = check.tap(fake_uid(500))
    assert isinstance(refusal, UnknownTag)
    report = check.report()
    assert not report.ok
    assert report.missing == [standard_order(1)[5]]
    assert report.duplicates == [(standard_order(1)[7], 2)]
    assert report.foreign == [uid_hex(fake_uid(500))]


def test_deck_set_file_round_trip_and_bad_files(tmp_path):
    ds = enrolled(2)
    path = tmp_path / "club.json"
    ds.save(path)
    again = DeckSet.load(path)
    assert again.cards == ds.cards and again.id == ds.id
    path.write_text("{not json")
    with pytest.raises(RegistryError, match="not JSON"):
        DeckSet.load(path)
    bad = ds.to_json()
    bad["cards"][uid_hex(fake_uid(999))] = "S10#1"  # S10#1 a second time
    path.write_text(json.dumps(bad))
    with pytest.raises(RegistryError, match="registered twice"):
        DeckSet.load(path)
    bad = ds.to_json()
    bad["cards"]["zz"] = "S10#1"
    path.write_text(json.dumps(bad))
    with pytest.raises(RegistryError, match="not a tag UID"):
        DeckSet.load(path)
    with pytest.raises(RegistryError, match="cannot read"):
        DeckSet.load(tmp_path / "absent.json")


def _deck_file(tmp_path, cards_lines):
    text = ('{\n "schema": 1,\n "name": "club",\n "id": 7,\n "decks": 1,\n "cards": {\n'
            + ",\n".join(cards_lines) + "\n }\n}\n")
    path = tmp_path / "deck.json"
    path.write_text(text, encoding="utf-8")
    return path


def test_deck_set_file_with_a_repeated_uid_is_refused_naming_both_lines(tmp_path):
    """JSON keeps the last of two equal keys: a tag listed twice would silently lose a card.  The
    file is refused, naming the tag and both lines."""
    path = _deck_file(tmp_path, ['  "04a1b2c3d4e5f6": "SA#1"', '  "04a1b2c3d4e5f7": "SK#1"',
                                 '  "04a1b2c3d4e5f6": "SQ#1"'])
    with pytest.raises(RegistryError, match=r"tag 04a1b2c3d4e5f6 is listed twice in .*deck.json \(lines 7, 9\)"):
        DeckSet.load(path)


def test_deck_set_file_with_a_case_variant_uid_is_refused_naming_both_lines(tmp_path):
    path = _deck_file(tmp_path, ['  "04a1b2c3d4e5f6": "SA#1"', '  "04A1B2C3D4E5F6": "SQ#1"'])
    with pytest.raises(RegistryError, match=r"tag 04a1b2c3d4e5f6 is listed twice in .*\(lines 7, 8\)"):
        DeckSet.load(path)


def test_deck_set_file_with_a_repeated_field_is_refused(tmp_path):
    path = tmp_path / "deck.json"
    path.write_text('{"schema": 1, "name": "a", "name": "b", "id": 1, "decks": 1, "cards": {}}', encoding="utf-8")
    with pytest.raises(RegistryError, match="the key 'name' appears twice"):
        DeckSet.load(path)
