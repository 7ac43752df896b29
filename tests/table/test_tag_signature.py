"""NTAG21x originality signatures: read at enrolment (Adafruit's real PN532 driver over a simulated
bus to our chip model, which answers READ_SIG), kept in the deck set, and a deck-set policy
(``require_signature``) that refuses a tag whose signature does not verify — a cloned UID.

The simulated tags are signed with a test key (``sim/tag_keys.py``); NXP's published NTAG21x key is
the default and is checked against signatures of real tags.
"""
import json
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("adafruit_pn532.spi")
sys.path.insert(0, str(Path(__file__).parent))
from blinka_sim_bus import HandStation, SimNTAG, blinka_station, ntag_uid  # noqa: E402

from shengji_table.cli import enroll as enroll_cli  # noqa: E402
from shengji_table.sim.tag_keys import TEST_PUBLIC_KEY, public_key, sign_uid  # noqa: E402
from shengji_table.table.enrollment_session import Accepted, EnrollmentSession, Refused  # noqa: E402
from shengji_table.table.registry import (NXP_NTAG21X_KEY, DeckCheck, DeckSet, ForgedTag,  # noqa: E402
                                          RegistryError, signature_verifies)
from shengji_table.table.stations import StationTap, TableStation  # noqa: E402

REPO_ROOT = Path(__file__).resolve().parents[2]

# Signatures read from real NTAG21x tags, as published with Proxmark3's key-recovery self-test
# (tools/recover_pk.py) and node-nxp-originality-verifier's tests: UID, READ_SIG.
REAL_NTAGS = [("04E10CDA993C80", "8B76052EE42F5567BEB53238B3E3F9950707C0DCC956B5C5EFCFDB709B2D82B3"),
              ("04DB0BDA993C80", "6048EFD9417CD10F6B7F1818D471A7FE5B46868D2EABDC6307A1E0AAE139D8D0"),
              ("0453C652FE4A80", "EDFD3263E7DDB1730260B832605205FB40FB32D7BB06F1DB49F17706C2ED6727")]


def genuine(n):
    """A tag as the factory makes it (here: signed by the test key)."""
    uid = ntag_uid(n)
    return SimNTAG(uid, signature=sign_uid(uid))


def test_nxp_key_is_the_default_and_verifies_real_tags_and_nothing_else():
    """NXP's NTAG21x key (AN11350) is every deck set's default, verifies the signatures of real
    tags, and refuses each with one bit changed or under another UID."""
    assert DeckSet("x", 1, 1).signature_key == NXP_NTAG21X_KEY
    for uid, sig in REAL_NTAGS:
        raw = bytes.fromhex(sig)
        assert signature_verifies(uid, raw)
        assert not signature_verifies(uid, bytes([raw[0] ^ 1]) + raw[1:])
        assert not signature_verifies("04" + "00" * 6, raw)
        assert not signature_verifies(uid, raw, TEST_PUBLIC_KEY)      # the key is a setting that counts


def test_enrolment_reads_and_keeps_each_genuine_tags_signature(tmp_path):
    """A Blinka station reads READ_SIG at every tap; with the set's key = the test key every tag
    verifies, and the deck-set file keeps the signatures and the policy."""
    chip, station = blinka_station()
    tags = [genuine(n) for n in range(54)]
    path = tmp_path / "club.json"
    session = EnrollmentSession(path, "club", 1, deck_set_id=7, station=station, require_signature=True,
                                signature_key=TEST_PUBLIC_KEY)
    seen = []
    real_tap = session.tap
    session.tap = lambda tap: seen.append(real_tap(tap)) or seen[-1]
    assert enroll_cli._enrol(session, HandStation(chip, station, tags)) == 0
    assert all(isinstance(o, Accepted) and o.signed is True for o in seen) and len(seen) == 54
    ds = DeckSet.load(path)
    data = json.loads(path.read_text())
    assert data["require_signature"] is True and data["signature_key"] == TEST_PUBLIC_KEY
    assert ds.signatures == {t.uid.hex(): t.signature for t in tags}


def test_a_cloned_uid_with_a_wrong_signature_is_refused_at_enrolment_and_in_a_deck_check(tmp_path):
    """A clone: the UID of a genuine tag, but not its maker's signature (a magic tag answers READ_SIG
    with zeros, or with a signature by another key).  Enrolling it is refused and changes nothing;
    in a deck check of the enrolled set it is listed as forged and the check fails."""
    chip, station = blinka_station()
    path = tmp_path / "club.json"
    session = EnrollmentSession(path, "club", 1, deck_set_id=7, station=station, require_signature=True,
                                signature_key=TEST_PUBLIC_KEY)
    forger = public_key(12345)
    assert forger != TEST_PUBLIC_KEY
    for clone in (SimNTAG(ntag_uid(0)), SimNTAG(ntag_uid(0), signature=sign_uid(ntag_uid(0), 12345))):
        chip.place(clone)
        tap = next(t for t in (station.poll(0.02) for _ in range(10)) if t is not None)
        out = session.tap(tap)
        assert isinstance(out, Refused) and "not an original NXP tag" in out.reason and session.count == 0
        chip.lift()
        station.poll(0.02), station.poll(0.02)
    tags = [genuine(n) for n in range(54)]
    assert enroll_cli._enrol(session, HandStation(chip, station, tags)) == 0
    ds = DeckSet.load(path)
    check = DeckCheck(ds, check_signatures=station.reads_signatures)
    for t in tags[1:]:
        assert check.tap(t.uid, None, t.signature) == ds.cards[t.uid.hex()]
    forged = check.tap(ntag_uid(0), None, bytes(32))                 # tags[0]'s UID, cloned
    assert isinstance(forged, ForgedTag)
    report = check.report()
    assert not report.ok and report.missing == [ds.cards[tags[0].uid.hex()]]
    assert report.foreign == [f"{tags[0].uid.hex()}(forged?)"]


def test_with_nxps_key_a_test_signed_tag_is_refused_and_a_station_without_sig_cannot_enrol(tmp_path):
    """The default key is NXP's: the simulated tags (signed by the test key) are refused as clones.
    A tag that does not answer READ_SIG at all (signature None) is refused too; and a station that
    reads no signatures (the table's own readers) cannot enrol a set that requires them."""
    ds = DeckSet("x", 1, 1, require_signature=True)
    with pytest.raises(ForgedTag, match="does not verify"):
        ds.check_signature(ntag_uid(1), sign_uid(ntag_uid(1)))
    with pytest.raises(ForgedTag, match="gave no originality signature"):
        ds.check_signature(ntag_uid(1), None)
    with pytest.raises(RegistryError, match="reads no originality signatures; enrol .* at a Blinka station"):
        EnrollmentSession(tmp_path / "t.json", "t", 1, station=TableStation([]), require_signature=True)
    assert not (tmp_path / "t.json.partial").exists()


def test_an_edited_signature_or_a_bad_key_in_the_deck_set_file_is_refused(tmp_path):
    uid = ntag_uid(3)
    good = {"schema": 1, "name": "s", "id": 1, "decks": 1, "cards": {uid.hex(): "S2#1"},
            "signatures": {uid.hex(): sign_uid(uid).hex()}, "require_signature": True,
            "signature_key": TEST_PUBLIC_KEY}
    assert DeckSet.from_json(good).signatures[uid.hex()] == sign_uid(uid)
    edited = dict(good, signatures={uid.hex(): "00" * 32})
    with pytest.raises(RegistryError, match=f"stored signature of tag {uid.hex()} does not verify"):
        DeckSet.from_json(edited)
    for key in ("04" + "11" * 32, "zz", 5):
        with pytest.raises(RegistryError, match="signature_key"):
            DeckSet.from_json(dict(good, signature_key=key))
    with pytest.raises(RegistryError, match="32 bytes in hex"):
        DeckSet.from_json(dict(good, signatures={uid.hex(): "abcd"}))


def test_enroll_cli_with_a_taps_file_of_signatures_refuses_the_forged_line(tmp_path):
    """``enroll --taps`` with ``UID,,SIGHEX`` lines and ``--require-signature``: the forged line is
    refused with its reason, the rest enrols, and the set is saved with the signatures."""
    lines = []
    for n in range(54):
        uid = ntag_uid(n)
        if n == 5:
            lines.append(f"{ntag_uid(10).hex()},,{bytes(32).hex()}   # a clone of tag 10 (still to come)")
        lines.append(f"{uid.hex()},,{sign_uid(uid).hex()}")
    taps = tmp_path / "taps.txt"
    taps.write_text("\n".join(lines) + "\n")
    out = subprocess.run([sys.executable, "-m", "shengji_table", "enroll", "--deck-set", str(tmp_path / "d.json"),
                          "--name", "d", "--decks", "1", "--taps", str(taps), "--require-signature",
                          "--signature-key", TEST_PUBLIC_KEY], capture_output=True, text=True, timeout=120,
                         cwd=str(REPO_ROOT))
    assert out.returncode == 0, out.stdout + out.stderr
    assert f"refused: tag {ntag_uid(10).hex()} has an originality signature that does not verify" in out.stdout
    assert "(signature verified)" in out.stdout
    ds = DeckSet.load(tmp_path / "d.json")
    assert ds.complete and len(ds.signatures) == 54 and ds.require_signature


def test_a_station_tap_without_a_signature_stays_as_before():
    assert StationTap("04" * 7).signature is None
    ds = DeckSet("x", 1, 1)
    assert ds.check_signature(ntag_uid(1), None) is False         # no policy: nothing refused
