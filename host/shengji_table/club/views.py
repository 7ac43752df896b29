"""What the club pages show, as JSON and as printable HTML, read from the club database.

The live overview of a table is :func:`shengji_table.face.web.state.public_state` — the table
face's own hidden-information policy — over the club's replay of the table's match: never a hand,
the stack or the kitty before the hand is over.  The overview is open to anyone on the club's
network, so it never shows a hand's play while it goes on (:func:`_settled_only`): the trick on the
table, the last trick, whose turn it is and the points taken appear once the hand is over — a
table's spectator delay cannot be got round through the club.
"""
from __future__ import annotations

import html
import json

from ..face.web.state import public_state
from .server import ClubServer
from .standings import score_sheet, scoring, standings

__all__ = ["overview", "standings_json", "sheet_html", "round_html"]


class _Replayed:
    """The club's replay of a match in the shape ``public_state`` reads a table's controller: no
    rings to show, and no play clock (the table's clock runs at the table)."""

    rings: dict = {}
    centre = None

    def __init__(self, match):
        self.match, self.ruleset, self.mode = match, match.ruleset, match.mode

    def clock_state(self, now: float) -> None:
        return None


def overview(server: ClubServer) -> dict:
    """Every table: its latest match's public state (settled hands only), whether it counts, whether
    it claimed other rules than the event's, its position in its latest log."""
    db, ingest = server.db, server.ingest
    tables = []
    for table, withdrawn, why in db.q("SELECT id, withdrawn, withdrawn_reason FROM tables ORDER BY id"):
        latest = db.latest_log(table)
        matches = [(m, rp) for (t, lid, m), rp in ingest.replays.items() if t == table and lid == latest]
        entry: dict = {"table": table, "withdrawn": bool(withdrawn), "withdrawn_reason": why,
                       "seq": db.last_seq(table, latest), "match": None, "public": None, "refused": None,
                       "flagged": None}
        if matches:
            name, rp = matches[-1]
            entry["match"], entry["refused"], entry["flagged"] = name, rp.broken, rp.flag
            if rp.match is not None:
                names = {i: n for i, n in enumerate(rp.seats)}
                entry["public"] = _settled_only(public_state(_Replayed(rp.match), names), rp.match)
        tables.append(entry)
    return {"tables": tables}


def _settled_only(state: dict, match) -> dict:
    """``state`` without the play of a hand still going on (it shows once the hand is over)."""
    view = match.public_view()
    if view is None or view.result is not None:
        return state
    seats = [{**s, "turn": False, "points": 0, "entering": 0} for s in state["seats"]]
    return {**state, "trick": [], "last_trick": None, "turn": None, "tricks_played": 0, "seats": seats,
            "points": {**state["points"], "declarers": 0, "attackers": 0}, "clock": None,
            "live": "the play shows here once the hand is over"}


def standings_json(server: ClubServer, score=None, name: str = "levels") -> dict:
    """The standings across sessions and per session (scored by ``score``, or else by the scoring
    called ``name``: levels or duplicate), and the count of hands recorded."""
    db = server.db
    kw = {"score": score if score is not None else scoring(db, name)}
    sessions = [{"session": name, "standings": standings(db, sid, **kw)}
                for sid, name in db.q("SELECT id, name FROM sessions ORDER BY id")]
    per_table = dict(db.q("SELECT table_id, COUNT(*) FROM hands GROUP BY table_id"))
    return {"overall": standings(db, None, **kw), "sessions": sessions, "scoring": name,
            "hands": sum(per_table.values()), "per_table": per_table}


_HEAD = ('<!doctype html><html lang="en"><head><meta charset="utf-8"><title>{title}</title>'
         '<link rel="stylesheet" href="/static/club.css"></head><body><nav class="noprint">'
         '<a href="/">Tables</a> · <a href="/standings">Standings</a> · <a href="/round">Round</a></nav>'
         '<h1>{title}</h1>')


def _page(title: str, body: str) -> str:
    return _HEAD.format(title=html.escape(title)) + body + "</body></html>"


def sheet_html(server: ClubServer, table: str) -> str | None:
    """A table's score sheet, hand by hand (printable); None for a table the club does not have."""
    if table not in server.db.tables():
        return None
    rows = []
    for r in score_sheet(server.db, table):
        s02, s13 = r["sides"].get("02", {}), r["sides"].get("13", {})
        rows.append("<tr>" + "".join(f"<td>{html.escape(str(v))}</td>" for v in (
            r["match"], r["hand"], r["board"] or "", r["dealer"], r["trump"], r["attackers_points"],
            s02.get("label", ""), ("D " if s02.get("declarer") else "") + str(s02.get("levels", "")),
            s13.get("label", ""), ("D " if s13.get("declarer") else "") + str(s13.get("levels", "")),
            (r.get("head") or "")[:16])) + "</tr>")
    body = ("<table class='sheet'><thead><tr><th>Match</th><th>Hand</th><th>Board</th><th>Dealer</th><th>Trump</th>"
            "<th>Attackers' points</th><th>Seats 0/2</th><th>Levels</th><th>Seats 1/3</th><th>Levels</th>"
            "<th>Log head</th></tr></thead><tbody>" + "".join(rows) + "</tbody></table>"
            "<p class='small'>D: the declarers' side on that hand.  Levels: levels gone up.  Log head: the table's "
            "log at that hand, as the club received it (shengji-table log verify LOG --head HASH at the table).</p>"
            "<p class='sign'>Table signature: ______________________</p>")
    return _page(f"Score sheet — table {table}", body)


def round_html(server: ClubServer) -> str:
    """Each started round's movement, and a table card per table (who sits where, which board)."""
    db = server.db
    parts = []
    for rid, session, number, movement in db.q(
            "SELECT r.id, s.name, r.number, r.movement FROM rounds r JOIN sessions s ON s.id = r.session_id "
            "WHERE r.started IS NOT NULL ORDER BY r.started DESC, r.id DESC"):
        cards = []
        for table, a, b, board, boards in db.q(
                "SELECT st.table_id, pa.name, pb.name, bd.number, st.boards FROM seatings st "
                "LEFT JOIN partnerships pa ON pa.id = st.pair_02 LEFT JOIN partnerships pb ON pb.id = st.pair_13 "
                "LEFT JOIN boards bd ON bd.id = st.board_id WHERE st.round_id=? ORDER BY st.table_id", (rid,)):
            numbers = json.loads(boards) if boards else ([board] if board else [])
            cards.append(f"<div class='card'><h3>Table {html.escape(table)}</h3>"
                         f"<p>Seats 0 and 2: <b>{html.escape(a or '?')}</b></p>"
                         f"<p>Seats 1 and 3: <b>{html.escape(b or '?')}</b></p>"
                         f"<p>Boards: {html.escape(', '.join(map(str, numbers))) if numbers else '—'}</p></div>")
        m = json.loads(movement) if movement else {}
        how = f" of {m['rounds']} ({html.escape(m['kind'])})" if m.get("kind") else ""
        out = (f"<p>Sitting out: {html.escape(', '.join(m['sitting_out']))}</p>" if m.get("sitting_out") else "")
        parts.append(f"<h2>{html.escape(session)}, round {number}{how}</h2>{out}"
                     f"<div class='cards'>{''.join(cards)}</div>")
    return _page("The round's movement and table cards", "".join(parts) or "<p>No round has started yet.</p>")
