"""``shengji-table club demo``: a club evening on one machine — a local mosquitto (with a password
per table and the club's ACL, TLS with certificates of its own when openssl is there), the club
server and its pages, and N virtual tables (each the real firmware under MicroPython, bots at the
seats) reporting to it over MQTT.  It plays one round, prints the standings and the pages'
address, and exits 0.

With ``boards`` it is a duplicate evening: the session's partnerships, round 1 of a round robin
with that many boards a table (``club round start``), every table playing the same boards — each
its own match at the table — and the standings by duplicate scoring (``docs/club-duplicate.md``).
Identical bots would play a board identically at every table and tie; so every second table's
seats are the random-legal bots.
"""
from __future__ import annotations

import os
import sys
import tempfile
import threading
import time

from ..rules.ruleset import Ruleset
from .demo import board_for

__all__ = ["run_club_demo", "PLAYERS"]

PLAYERS = ("Li", "Wang", "Zhao", "Chen", "Liu", "Yang", "Huang", "Zhou", "Wu", "Xu", "Sun", "Ma",
           "Zhu", "Hu", "Guo", "He", "Lin", "Gao", "Luo", "Zheng", "Liang", "Xie", "Song", "Tang")
SESSION = "Demo evening"


def _seat_names(i: int) -> tuple:
    return PLAYERS[4 * i:4 * i + 4]


def _start_round(server, ids: list, boards: int, seed: int) -> dict:
    """Round 1 written to the club: ``{table: (seat names, boards to play)}``.  Without boards the
    tables' own players as partnerships 0/2 and 1/3; with boards the round robin's first round."""
    from ..club.boards import make_boards
    from ..club.organiser import apply_action
    from ..club.rounds import add_partnerships, plan_round, start_planned
    names = [_seat_names(i) for i in range(len(ids))]
    with server.lock:
        if not boards:
            body = {"session": SESSION, "round": 1,
                    "tables": {t: {"02": [n[0], n[2]], "13": [n[1], n[3]]} for t, n in zip(ids, names)}}
            apply_action(server.db, "start-round", body, "demo")
            return {t: (n, ()) for t, n in zip(ids, names)}
        # every table's 0/2 pair, then every 1/3 pair: the movement seats them afresh
        pairs = [(n[0], n[2]) for n in names] + [(n[1], n[3]) for n in names]
        with server.db.tx():
            add_partnerships(server.db, SESSION, pairs)
        dealt = make_boards(boards, "classic", seed)
        plan = plan_round(server.db, SESSION, 1, "round-robin", boards=("classic", dealt), boards_per_round=boards)
        start_planned(server.db, plan, "demo")
        stored = {b.number: b for b in plan.boards}
        seats = {}
        for t, s in plan.body()["tables"].items():
            (a, c), (b, d) = s["02"], s["13"]
            seats[t] = ((a, b, c, d), tuple(stored[k] for k in s["boards"]))
        return seats


class _Table:
    """One club table of the demo: its virtual tables (one a board; one for the whole match without
    boards), hosts and the publisher reporting its log."""

    def __init__(self, tid: str, names: tuple, boards: tuple, *, workdir: str, url, hands: int, seed: int,
                 board_file, stack: list, bots: str = "heuristic", on_hand=None):
        from ..club.publisher import TablePublisher
        self.tid, self.names, self.boards, self.hands, self.seed = tid, names, boards, hands, seed
        self.bots = bots
        self.board_file, self.stack = board_file, stack
        self.log_path = os.path.join(workdir, f"{tid}.db")
        self.pub = TablePublisher(self.log_path, tid, url)
        self.pub.start()
        stack.append(self.pub.stop)
        self.ok: bool | None = None
        self.on_hand = on_hand          # called once a hand is settled here (the command's progress)

    def _play(self, match: str, duplicate=None) -> bool:
        from .match_runner import SimHost
        from .virtual_table import VirtualTable
        vt = VirtualTable(board=self.board_file).start()
        sim = SimHost(vt.device, self.log_path, seed=self.seed, hands=self.hands, board=self.board_file,
                      match=match, names=self.names, duplicate=duplicate, bots=self.bots)
        try:
            sim.service.add_listener(self.pub.notify)
            if self.on_hand is not None:
                settled = [0]

                def count(_e, _out, match=sim.controller.match) -> None:
                    if len(match.summaries) > settled[0]:
                        settled[0] = len(match.summaries)
                        self.on_hand(self.tid)
                sim.service.add_listener(count)
            sim.start()
            return sim.run(timeout=900)
        finally:
            sim.close()
            vt.close()

    def run(self) -> None:
        """Play the table's match, or each of its boards as a match of its own, one after the other."""
        if not self.boards:
            self.ok = self._play("table")
            return
        self.ok = all(self._play(f"board-{b.number}", b) for b in self.boards)


def _report(server, ids: list, boards: int, out) -> int:
    """Print the standings; the hands recorded."""
    from ..club.standings import duplicate_scoring, level_score, standings
    with server.lock:
        rows = standings(server.db, score=duplicate_scoring(server.db) if boards else level_score)
        hands_in = server.db.one("SELECT COUNT(*) FROM hands")
    unit = "IMP(s)" if boards else "level(s)"
    print(f"\n{len(ids)} table(s), {hands_in} hand(s) in the club database; standings"
          f"{' by duplicate scoring' if boards else ''}:", file=out)
    for r in rows:
        print(f"  {r['rank']:>2}. {r['label']:<20} {r['score']:>3} {unit}   ({r['hands']} hands)", file=out)
    return hands_in


def _start_club(workdir: str, ids: list, db: str | None, stack: list) -> tuple:
    """The broker (a password per table, TLS when openssl is there) and the club server with the
    tables registered: ``(broker, server, url)``, ``url(user)`` a :class:`BrokerURL` for that user.
    Each part started is pushed on ``stack`` (its stop)."""
    from ..club.broker import CLUB_USER, Mosquitto, add_user
    from ..club.certs import make_certs, openssl_missing
    from ..club.server import ClubServer
    from ..club.wire import BrokerURL
    passwd = os.path.join(workdir, "passwd")
    passwords = {u: add_user(passwd, u) for u in (CLUB_USER, *ids)}
    tls = None if openssl_missing() else make_certs(os.path.join(workdir, "tls"), ["127.0.0.1"])
    broker = Mosquitto(passwd_file=passwd, tls=None if tls is None else (tls.cert, tls.key)).start()
    stack.append(broker.stop)

    def url(user: str) -> BrokerURL:
        return BrokerURL("127.0.0.1", broker.port, user, passwords[user], tls is not None,
                         None if tls is None else str(tls.ca))
    server = ClubServer(db or os.path.join(workdir, "club.sqlite"), url(CLUB_USER)).start()
    stack.append(server.stop)
    with server.lock, server.db.tx():
        for t in ids:
            server.db.add_table(t)
    for t in ids:
        server.ingest.register(t)
    return broker, server, url


def _play_all(club_tables: list) -> bool:
    """Play every table at once; whether every table's log reached the club within a minute."""
    threads = [threading.Thread(target=ct.run, daemon=True) for ct in club_tables]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    deadline = time.monotonic() + 60
    while not all(ct.pub.caught_up() for ct in club_tables) and time.monotonic() < deadline:
        time.sleep(0.1)
    reported = all(ct.pub.caught_up() for ct in club_tables)
    time.sleep(0.2)
    return reported


def run_club_demo(*, tables: int = 3, hands: int = 2, seed: int = 7, db: str | None = None,
                  host: str = "127.0.0.1", port: int = 0, out=None, boards: int = 0, on_hand=None) -> int:
    """Play one round at ``tables`` virtual tables (``boards``: a duplicate round of that many
    boards, instead of ``hands`` hands); the exit status (0 played and all reported).  The
    evening's whole life — broker, club, pages, round, tables, play, report — and its clean-up.
    ``on_hand(table)`` is called from the tables' threads each time one of them settles a hand."""
    from ..club.broker import BrokerError, mosquitto_missing
    from ..club.certs import CertError
    from ..club.rounds import RoundError
    from ..club.web import start_club_web
    from ..micropython import MicroPythonMissing
    out = out or sys.stdout
    problem = mosquitto_missing()
    if problem:
        print(f"error: {problem}", file=sys.stderr)
        return 2
    tmp = tempfile.TemporaryDirectory(prefix="shengji-club-demo-")
    ids = [f"T{i + 1}" for i in range(tables)]
    stack: list = []
    try:
        broker, server, url = _start_club(tmp.name, ids, db, stack)
        seats = _start_round(server, ids, boards, seed)
        web = start_club_web(server, host, port, scoring="duplicate" if boards else "levels")
        stack.append(web.stop)
        print(f"club pages: {web.url} (standings: {web.url}standings); broker {broker.url}", file=out, flush=True)
        board_file = board_for(Ruleset.from_preset("classic"))
        club_tables = [_Table(t, seats[t][0], seats[t][1], workdir=tmp.name, url=url(t), hands=hands,
                              seed=seed + i, board_file=board_file, stack=stack,
                              # a duplicate board scores the tables against each other: let them play differently
                              bots="random" if boards and i % 2 else "heuristic", on_hand=on_hand)
                       for i, t in enumerate(ids)]
        reported = _play_all(club_tables)
        hands_in = _report(server, ids, boards, out)
        print(f"club pages were at {web.url}standings", file=out, flush=True)
        expected = tables * (boards or hands)
        ok = all(ct.ok for ct in club_tables) and reported and hands_in == expected
        if not ok:
            print(f"error: played {[ct.ok for ct in club_tables]}, all reported: {reported}, hands recorded "
                  f"{hands_in} of {expected}", file=sys.stderr)
        return 0 if ok else 1
    except (BrokerError, CertError, RoundError, MicroPythonMissing, OSError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    finally:
        for fn in reversed(stack):
            fn()
        tmp.cleanup()
