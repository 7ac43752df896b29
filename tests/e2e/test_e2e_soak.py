"""The fault soak (sim/soak.py): whole matches at the virtual table while the host is SIGKILLed, the
cable cut, garbage written into the line both ways and the Pico restarted, at random moments.
Each match must end with the record of the fault-free run, and the audit of its log against the
line (sim/tap_audit.py) must find no tap lost, doubled or misfiled.  The figures are printed.

``make test`` runs the bounded soak (under a minute); ``make test-all`` (``--run-slow``) the long
one, with at least 1,000 faults."""
import pytest

from shengji_table.sim.soak import KINDS, soak

pytestmark = pytest.mark.micropython


def _run(tmp_path, capsys, **kw):
    report = soak(tmp_path, **kw)
    with capsys.disabled():
        print(f"\nsoak: {report}")
    return report


def test_soak_bounded_every_kind_of_fault_no_tap_lost_or_doubled(tmp_path, capsys):
    report = _run(tmp_path, capsys, faults=60, modes=("scanned", "open"), hands=1, seed=2,
                  weights={"kill": 1, "cut": 1, "restart": 1, "garbage": 2})
    assert sum(report.faults.values()) >= 60 and report.matches >= 1
    assert all(report.faults[k] >= 1 for k in KINDS), report.faults


@pytest.mark.slow
def test_soak_a_thousand_faults_over_whole_matches(tmp_path, capsys):
    report = _run(tmp_path, capsys, faults=1000, modes=("open", "scanned"), hands=2, seed=7, settle=1.0, per_match=125,
                  weights={"kill": 1, "cut": 1, "restart": 1, "garbage": 1})
    assert sum(report.faults.values()) >= 1000 and report.matches >= 8
    assert all(report.faults[k] >= 40 for k in KINDS), report.faults
