"""The fault soak (sim/soak.py): whole matches at the virtual table while the host is SIGKILLed, the
cable cut, garbage written into the line both ways, the Pico restarted and the club's broker
SIGKILLed, at random moments.  Each match must end with the record of the fault-free run, the
audit of its log against the line (sim/tap_audit.py) must find no tap lost, doubled or misfiled,
and the club (over a real mosquitto) must hold every row of each table's log exactly once, its
hands and standings those of a club fed the fault-free runs.  The figures are printed.

``make test`` runs the bounded soak (about a minute); ``make test-all`` (``--run-slow``) the long
one, with at least 1,000 faults, 20 of them broker kills.  Without mosquitto the broker kind is
skipped and the printed figures say so."""
import pytest

from shengji_table.sim.soak import KINDS, club_missing, soak

pytestmark = pytest.mark.micropython


def _run(tmp_path, capsys, **kw):
    def progress(r):
        with capsys.disabled():
            print(f"\nsoak so far: {r}", flush=True)
    report = soak(tmp_path, on_match=progress if kw.get("faults", 0) >= 1000 else None, **kw)
    with capsys.disabled():
        print(f"\nsoak: {report}")
    return report


def _kinds_expected(report):
    if club_missing() is None:
        assert not report.skipped and report.club_checked and report.club_rows >= report.logged > 0
        return KINDS
    assert "broker" in report.skipped and report.faults["broker"] == 0
    return tuple(k for k in KINDS if k != "broker")


def test_soak_bounded_every_kind_of_fault_no_tap_lost_or_doubled(tmp_path, capsys):
    report = _run(tmp_path, capsys, faults=60, modes=("scanned", "open"), hands=1, seed=2,
                  weights={"kill": 1, "cut": 1, "restart": 1, "garbage": 2, "broker": 1})
    assert sum(report.faults.values()) >= 60 and report.matches >= 1
    assert all(report.faults[k] >= 1 for k in _kinds_expected(report)), report.faults


@pytest.mark.slow
@pytest.mark.timeout(1200)          # about 6 min on a loaded two-core machine
def test_soak_a_thousand_faults_over_whole_matches(tmp_path, capsys):
    report = _run(tmp_path, capsys, faults=1000, modes=("open", "scanned"), hands=2, seed=7, settle=1.0, per_match=125,
                  weights={"kill": 1, "cut": 1, "restart": 1, "garbage": 1, "broker": 1})
    assert sum(report.faults.values()) >= 1000 and report.matches >= 8
    kinds = _kinds_expected(report)
    assert all(report.faults[k] >= 40 for k in kinds), report.faults
    assert "broker" not in kinds or report.faults["broker"] >= 20, report.faults


def test_soak_without_mosquitto_skips_broker_loss_and_says_so(tmp_path, monkeypatch):
    """Mosquitto missing: no club is started, the broker kind is not injected, and the figures say why."""
    import shengji_table.sim.soak as s
    monkeypatch.setattr(s, "club_missing", lambda: "mosquitto is not installed (test)")
    monkeypatch.setattr(s, "_Club", None)       # a club started anyway would fail loudly
    report = soak(tmp_path, faults=0, weights={"garbage": 1, "broker": 5})     # the set-up only: no match
    assert not report.faults and report.matches == 0 and report.club_rows == 0
    assert report.skipped == {"broker": "mosquitto is not installed (test)"}
    assert "broker skipped: mosquitto is not installed (test)" in str(report)


def test_soak_club_check_passes_rows_sent_across_a_broker_kill_and_fails_a_row_lost_or_changed(tmp_path):
    """The club side's own check, over a real mosquitto: rows logged while the broker is dead reach
    the club once it is back; a row the club lost, or holds changed, fails the soak."""
    if club_missing():
        pytest.skip(club_missing())
    import random

    from shengji_table.sim.soak import SoakFailure, _Club
    from shengji_table.store.log import EventLog
    from shengji_table.rules.ruleset import Ruleset
    club = _Club(tmp_path, random.Random(1), Ruleset.from_preset("one-deck"))
    try:
        with EventLog(tmp_path / "t.db") as log:
            log.append("meta", {"note": 0})
            club.add_table("S0", tmp_path / "t.db", "open", 1, 1)
            club.kill_broker()
            assert club.down
            log.append_many([("meta", {"note": i}) for i in range(1, 6)])
        assert club.settle("S0") == 7 and not club.down       # the log's format row and 6
        with club.server.lock:
            club.server.db.db.execute("UPDATE events SET payload='{\"note\": 9}' WHERE table_id='S0' AND seq=3")
        club.restart_publisher("S0")
        with pytest.raises(SoakFailure, match="holds 7 rows for the log's 7"):
            club.settle("S0")
        with club.server.lock:
            club.server.db.db.execute("DELETE FROM events WHERE table_id='S0' AND seq=2")
        club.restart_publisher("S0")
        with pytest.raises(SoakFailure, match=r"missing \[\('default', 2\)\]"):
            club.settle("S0")
    finally:
        club.close()
