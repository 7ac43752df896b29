"""R-8, R-8.6: the club scores every hand by the event's own rules — the session's ruleset
(``club rules``), else the classic preset — never the rules a table's start row claims; a table
whose claim differs is flagged to the organiser."""
import json
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from clubkit import club, feed, need_mosquitto, relog, rows, soft  # noqa: E402

from shengji_table.club.views import overview  # noqa: E402
from shengji_table.game.bots import make_bot  # noqa: E402
from shengji_table.game.driver import run_match  # noqa: E402
from shengji_table.game.match import Match  # noqa: E402
from shengji_table.rules.ruleset import Ruleset  # noqa: E402

HOUSE = "0:d1,80:a0"          # the session's own table: declarers 1 level below 80, else the deal passes


def _club(*args):
    return subprocess.run([sys.executable, "-m", "shengji_table", "club", *map(str, args)], capture_output=True,
                          text=True, timeout=120)


def _levels(ruleset: Ruleset, seed: int, hands: int) -> list:
    ref = Match(ruleset)
    run_match(ref, [make_bot("random", seed * 100 + i) for i in range(4)], soft_seeds(seed, hands))
    return [s["levels_after"] for s in ref.summaries]


def soft_seeds(seed: int, hands: int) -> list:
    from shengji_table.club.soft_table import hand_seeds
    return hand_seeds(seed, hands)


def test_r_8_6_a_table_claiming_twelve_levels_a_hand_is_scored_by_the_event_and_flagged(tmp_path):
    """The attack: a table's start row claims a house table giving the declarers 12 levels.  The
    club replays the hands with its own rules (classic: no session rules set): the levels are
    classic's, and the table is flagged with what it claimed."""
    server = club(tmp_path / "club.sqlite")
    t = soft(tmp_path, "T1", seed=11, hands=2)
    t.play()
    start = json.loads(rows(t.log)[1][3])
    start["ruleset"]["settlement_table"] = [{"from": 0, "declarers": 12}]
    feed(server, "T1", relog(tmp_path / "claims.db", t.log, {2: start}))
    hands = [json.loads(s)["levels_after"] for (s,) in server.db.q("SELECT summary FROM hands ORDER BY number")]
    assert hands == _levels(Ruleset.from_preset("classic"), 11, 2)
    flags = [r[0] for r in server.db.q("SELECT reason FROM flags")]
    assert len(flags) == 1 and "table T1 claims rules that cannot be read" in flags[0] and "12" in flags[0]
    assert overview(server)["tables"][0]["flagged"] == flags[0]
    assert server.db.one("SELECT COUNT(*) FROM refusals") == 0


def test_r_8_6_the_sessions_rules_score_the_hands_of_its_rounds(tmp_path):
    """``club rules`` sets the session's ruleset; table T1, seated in a round of that session,
    claims plain classic: its hands are settled by the session's house table, and it is flagged
    naming the option that differs.  A table claiming the session's own rules is not flagged."""
    need_mosquitto()
    db = tmp_path / "club.sqlite"
    assert _club("tables", "add", "--db", db, "--passwd", tmp_path / "pw", "T1").returncode == 0
    assert _club("partnerships", "add", "--db", db, "--session", "Tue", "Li,Zhao", "Wang,Chen").returncode == 0
    bad = _club("rules", "--db", db, "--session", "Tue", "--option", "settlement_table=0:d12")
    assert bad.returncode == 2 and "0 to 4 levels" in bad.stderr
    missing = _club("rules", "--db", db, "--session", "Wed", "--option", f"settlement_table={HOUSE}")
    assert missing.returncode == 2 and "no session 'Wed'" in missing.stderr
    ok = _club("rules", "--db", db, "--session", "Tue", "--option", f"settlement_table={HOUSE}")
    assert ok.returncode == 0 and "settlement_table" in ok.stdout, ok.stderr
    started = _club("round", "start", "--db", db, "--session", "Tue", "--round", "1", "--movement", "round-robin")
    assert started.returncode == 0, started.stderr
    house = Ruleset.from_json({"preset": "classic", "settlement_table": [{"from": 0, "declarers": 1},
                                                                         {"from": 80, "attackers": 0}]})
    assert _levels(house, 11, 2) != _levels(Ruleset.from_preset("classic"), 11, 2)     # the rules matter here
    server = club(db)
    t = soft(tmp_path, "T1", seed=11, hands=2)
    t.play()
    feed(server, "T1", t.log)
    hands = [json.loads(s)["levels_after"] for (s,) in server.db.q("SELECT summary FROM hands ORDER BY number")]
    assert hands == _levels(house, 11, 2)
    flags = [r[0] for r in server.db.q("SELECT reason FROM flags")]
    assert len(flags) == 1 and flags[0].startswith("table T1 claims rules other than the event's: settlement_table")
    assert "scored by the session's rules" in flags[0]
    (tmp_path / "h").mkdir()
    honest = soft(tmp_path / "h", "T1", seed=12, hands=1)
    start = json.loads(rows(honest.log)[1][3])
    start["ruleset"] = house.to_json()
    honest.play()
    server.stop()
    other = club(db)
    before = other.db.one("SELECT COUNT(*) FROM flags")
    feed(other, "T1", relog(tmp_path / "honest.db", honest.log, {2: start}))
    assert other.db.one("SELECT COUNT(*) FROM flags") == before


def test_r_9_the_clubs_own_rules_score_a_table_in_no_round(tmp_path):
    """``club rules`` without a session sets the club's own rules: a one-deck table in no round is
    replayed by them, unflagged, and its hands count; before, it was flagged against classic."""
    db = tmp_path / "club.sqlite"
    server = club(db)
    t = soft(tmp_path, "T1", seed=4, hands=1, preset="one-deck")
    t.play()
    server.stop()
    ok = _club("rules", "--db", db, "--preset", "one-deck")
    assert ok.returncode == 0 and "the club: every hand outside a session" in ok.stdout, ok.stderr
    server = club(db)
    feed(server, "T1", t.log)
    assert server.db.one("SELECT COUNT(*) FROM hands") == 1 and server.db.one("SELECT COUNT(*) FROM flags") == 0
    assert server.db.one("SELECT COUNT(*) FROM refusals") == 0
