"""Test helper (not a test): the judge's example files and its refusals, for the judge's tests."""
import json
from pathlib import Path

import pytest

from shengji_table.rules.judge import SituationError, judge

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "judge"


def example(name):
    """The situation of ``examples/judge/NAME.json``."""
    return json.loads((EXAMPLES / f"{name}.json").read_text(encoding="utf-8"))


def refused(sit, *words):
    """The judge's refusal of ``sit``, which must hold every one of ``words``."""
    with pytest.raises(SituationError) as exc:
        judge(sit)
    for w in words:
        assert w in str(exc.value)
    return str(exc.value)
