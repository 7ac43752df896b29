"""``shengji-table club …`` and the club database's migrations: bad input is refused with the
reason, exit 2, and nothing changes."""
import json
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
from clubkit import club, feed, kept, soft  # noqa: E402

from shengji_table.club.db import MIGRATIONS, ClubDB, ClubDBError  # noqa: E402


def _run(*args):
    return subprocess.run([sys.executable, "-m", "shengji_table", *args], capture_output=True, text=True, timeout=60)


def test_migrations_bring_an_old_file_up_and_refuse_a_newer_or_foreign_one(tmp_path):
    old = tmp_path / "old.sqlite"
    con = sqlite3.connect(old)
    con.executescript(MIGRATIONS[0] + ";PRAGMA user_version=1;")
    con.execute("INSERT INTO players (name, created) VALUES ('Li', 0)")
    con.commit()
    con.close()
    db = ClubDB(old)
    assert db.version == len(MIGRATIONS) and db.player("Li") is not None and db.last_seq("T1") == 0
    db.close()
    newer = tmp_path / "newer.sqlite"
    kept(sqlite3.connect(newer)).execute(f"PRAGMA user_version={len(MIGRATIONS) + 1}")
    with pytest.raises(ClubDBError, match="newer than this build"):
        ClubDB(newer)
    foreign = tmp_path / "foreign.sqlite"
    con = kept(sqlite3.connect(foreign))
    con.execute("CREATE TABLE accounts (id)")
    con.commit()
    with pytest.raises(ClubDBError, match="something else"):
        ClubDB(foreign)
    assert [r[0] for r in kept(sqlite3.connect(foreign)).execute("SELECT name FROM sqlite_master")] == ["accounts"]


def test_club_standings_prints_and_gives_json(tmp_path):
    server = club(tmp_path / "club.sqlite")
    t = soft(tmp_path, "T1", seed=6, hands=2)
    t.play()
    feed(server, "T1", t.log)
    server.stop()
    text = _run("club", "standings", "--db", str(tmp_path / "club.sqlite"))
    assert text.returncode == 0 and "Li & Zhao" in text.stdout and "(2 hands)" in text.stdout
    data = json.loads(_run("club", "standings", "--db", str(tmp_path / "club.sqlite"), "--json").stdout)
    assert {r["label"] for r in data["standings"]} == {"Li & Zhao", "Wang & Chen"}


@pytest.mark.parametrize("args, why", [
    (["club", "standings", "--db", "{tmp}/none.sqlite"], "no such club database"),
    (["club", "standings", "--db", "{tmp}/foreign.sqlite"], "not a club database"),
    (["club", "standings", "--db", "{tmp}/club.sqlite", "--session", "Friday"], "no session 'Friday'"),
    (["club", "tables", "add", "--db", "{tmp}/club.sqlite", "--passwd", "{tmp}/pw", "T 1"], "a table id is"),
    (["club", "serve", "--db", "{tmp}/club.sqlite", "--broker", "http://x"], "a broker is mqtt://"),
    (["club", "serve", "--db", "{tmp}/club.sqlite", "--broker", "mqtt://h:1", "--web", "x:y"], "--web takes"),
    (["club", "demo", "--tables", "9"], "--tables is 1…6"),
    (["serve", "--board", "boards/table-4.json", "--deck-set", "{tmp}/d.json", "--club", "mqtt://h:1"],
     "--club needs --table-id"),
    (["demo", "--table-id", "T1"], "--table-id and --club-password-file need --club"),
    (["demo", "--club", "mqtt://h:1", "--table-id", "T/1"], "a table id is"),
])
def test_club_commands_refuse_bad_input_with_exit_2(tmp_path, args, why):
    con = sqlite3.connect(tmp_path / "foreign.sqlite")
    con.execute("CREATE TABLE accounts (id)")
    con.commit()
    con.close()
    ClubDB(tmp_path / "club.sqlite").close()
    before = sorted(p.name for p in tmp_path.iterdir())
    out = _run(*[a.format(tmp=tmp_path) for a in args])
    assert out.returncode == 2 and why in out.stderr, out.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == before


def test_club_serve_serves_the_pages_and_stops_on_ctrl_c(tmp_path):
    import re
    import signal
    import urllib.request
    from clubkit import need_mosquitto
    need_mosquitto()
    from shengji_table.club.broker import Mosquitto
    with Mosquitto() as broker:
        p = subprocess.Popen([sys.executable, "-m", "shengji_table", "club", "serve", "--db",
                              str(tmp_path / "club.sqlite"), "--broker", broker.url, "--web", "127.0.0.1:0"],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        line = p.stdout.readline()
        url = re.search(r"pages at (http://\S+/)", line).group(1)
        data = json.loads(urllib.request.urlopen(url + "api/standings", timeout=10).read())
        assert data == {"overall": [], "sessions": [], "hands": 0, "per_table": {}, "scoring": "levels"}
        p.send_signal(signal.SIGINT)
        _, err = p.communicate(timeout=20)
        assert p.returncode == 0, err
    with ClubDB(tmp_path / "club.sqlite") as db:
        assert db.version == len(MIGRATIONS)
