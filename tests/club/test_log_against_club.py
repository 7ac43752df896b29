"""``shengji-table log verify LOG --against-club CLUBDB``: the table's log against the club's copy of
its hashes.  A log rewritten with its chain recomputed, or cut short, still verifies on its own
(the chain holds); against the club it does not."""
import json
import sqlite3
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from clubkit import club, feed, message, rows, soft  # noqa: E402

from shengji_table.club.wire import events_topic  # noqa: E402
from shengji_table.store.log import row_hash  # noqa: E402


def _verify(*args):
    return subprocess.run([sys.executable, "-m", "shengji_table", "log", "verify", *map(str, args)],
                          capture_output=True, text=True, timeout=60)


def _rechain(path, row: int, payload: dict) -> None:
    """Rewrite ``row``'s payload and recompute every hash from it on: what an operator with the file
    can do, leaving a chain that holds."""
    db = sqlite3.connect(path)
    db.executescript("DROP TRIGGER entries_no_update;")
    previous = db.execute("SELECT hash FROM entries WHERE id=?", (row - 1,)).fetchone()[0]
    db.execute("UPDATE entries SET payload=? WHERE id=?", (json.dumps(payload, sort_keys=True, separators=(",", ":"),
                                                                      ensure_ascii=False), row))
    for rid, match, kind, boot, seq, text, at in db.execute(
            "SELECT id, match, kind, boot, seq, payload, at FROM entries WHERE id >= ? ORDER BY id", (row,)).fetchall():
        previous = row_hash(previous, rid, match, kind, boot, seq, text, at)
        db.execute("UPDATE entries SET hash=? WHERE id=?", (previous, rid))
    db.commit()
    db.close()


def test_log_verify_against_the_clubs_copy_catches_a_recomputed_chain_and_a_cut(tmp_path):
    server = club(tmp_path / "club.sqlite")
    t = soft(tmp_path, "T1", seed=5, hands=1)
    t.play()
    all_rows = rows(t.log)
    assert set(feed(server, "T1", t.log)) == {"stored"}
    path, clubdb = t.log.path, tmp_path / "club.sqlite"
    t.close()
    ok = _verify(path, "--against-club", clubdb)
    assert ok.returncode == 0 and f"the club holds rows 1–{len(all_rows)} of this log (table T1" in ok.stdout
    copy = tmp_path / "copy.db"
    Path(copy).write_bytes(Path(path).read_bytes())
    k = next(r[0] for r in all_rows if r[2] == "game" and json.loads(r[3])["type"] == "confirm")
    changed = json.loads(all_rows[k - 1][3])
    changed["seat"] = (changed["seat"] + 1) % 4
    _rechain(copy, k, changed)
    assert _verify(copy).returncode == 0                              # on its own, the chain holds …
    caught = _verify(copy, "--against-club", clubdb)                 # … the club's copy says otherwise
    assert caught.returncode == 1 and f"rewritten: row {k} is not the row the club received" in caught.stdout
    cut = tmp_path / "cut.db"
    Path(cut).write_bytes(Path(path).read_bytes())
    db = sqlite3.connect(cut)
    db.executescript(f"DROP TRIGGER entries_no_delete; DELETE FROM entries WHERE id > {len(all_rows) - 5};")
    db.close()
    assert _verify(cut).returncode == 0
    short = _verify(cut, "--against-club", clubdb)
    assert short.returncode == 1 and f"the log ends at row {len(all_rows) - 5}" in short.stdout
    other = soft(tmp_path, "T1", seed=6, hands=1)
    other.close()
    unknown = _verify(other.log.path, "--against-club", clubdb)
    assert unknown.returncode == 1 and "holds no row of this log" in unknown.stdout
    assert _verify(path, "--against-club", tmp_path / "nope.sqlite").returncode == 2


def test_log_verify_against_the_club_says_which_rows_are_still_to_come(tmp_path):
    server = club(tmp_path / "club.sqlite")
    t = soft(tmp_path, "T1", seed=5, hands=1)
    t.play()
    every = rows(t.log)
    for r in every[:40]:
        server.handle(events_topic("T1"), message("T1", r))
    t.close()
    out = _verify(t.log.path, "--against-club", tmp_path / "club.sqlite")
    assert out.returncode == 0 and f"rows 41–{len(every)} are not at the club yet" in out.stdout


def test_the_score_sheet_carries_the_logs_head_at_each_hand_and_the_table_finds_it(tmp_path):
    """After every hand the club holds the head of the table's log at that hand (the hash of the row
    that settled it), printed on the score sheet; ``log verify --head`` at the table finds that row."""
    from shengji_table.club.standings import score_sheet
    from shengji_table.club.views import sheet_html
    server = club(tmp_path / "club.sqlite")
    t = soft(tmp_path, "T1", seed=11, hands=2)
    t.play()
    feed(server, "T1", t.log)
    heads = [r["head"] for r in score_sheet(server.db, "T1")]
    assert len(heads) == 2 and all(h and len(h) == 64 for h in heads)
    assert all(h[:16] in sheet_html(server, "T1") for h in heads)
    t.close()
    for h in heads:
        found = _verify(t.log.path, "--head", h[:16])
        assert found.returncode == 0 and f"head {h[:16]} is row" in found.stdout
