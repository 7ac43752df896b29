"""Every preset × both modes, played by bots for fixed seeds, gives byte for byte the transcript
(record, every event's effects, each hand's snapshot) written before the game layer was split into
phase files: the restructuring changed no behaviour.  See ``golden.py``."""
import importlib.util
import pathlib

import pytest

_spec = importlib.util.spec_from_file_location("golden", pathlib.Path(__file__).with_name("golden.py"))
golden = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(golden)


@pytest.mark.parametrize("case", golden.CASES, ids=lambda c: golden.name(*c)[:-4])
def test_golden_transcript_is_byte_identical(case):
    path = golden.GOLDEN / golden.name(*case)
    expected = path.read_text(encoding="utf-8")
    got = golden.transcript(*case)
    if got != expected:
        a, b = expected.splitlines(), got.splitlines()
        first = next((i for i, (x, y) in enumerate(zip(a, b)) if x != y), min(len(a), len(b)))
        pytest.fail(f"{path.name}: first difference at line {first + 1}:\n"
                    f"  golden: {a[first][:400] if first < len(a) else '<end>'}\n"
                    f"  now:    {b[first][:400] if first < len(b) else '<end>'}")


def test_golden_cases_cover_every_preset_in_both_modes():
    from shengji_table.rules.ruleset import PRESETS
    covered = {(p, m) for p, m, _, _ in golden.CASES}
    assert covered == {(p, m) for p in PRESETS for m in ("scanned", "open")}
    assert all(path.name in {golden.name(*c) for c in golden.CASES} for path in golden.GOLDEN.iterdir())
