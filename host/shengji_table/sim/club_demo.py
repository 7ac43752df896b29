"""``shengji-table club demo``: a club evening on one machine — a local mosquitto (with a password
per table and the club's ACL, TLS with certificates of its own when openssl is there), the club
server and its pages, and N virtual tables (each the real firmware under MicroPython, bots at the
seats) reporting to it over MQTT.  It plays one round, prints the standings and the pages'
address, and exits 0.
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


def _seat_names(i: int) -> tuple:
    return PLAYERS[4 * i:4 * i + 4]


# long: the evening's whole life — broker, club, pages, round, tables, play, report — with the clean-up
def run_club_demo(*, tables: int = 3, hands: int = 2, seed: int = 7, db: str | None = None,
                  host: str = "127.0.0.1", port: int = 0, out=None) -> int:
    """Play one round at ``tables`` virtual tables; the exit status (0 played and all reported)."""
    from ..club.broker import CLUB_USER, BrokerError, Mosquitto, add_user, mosquitto_missing
    from ..club.certs import CertError, make_certs, openssl_missing
    from ..club.organiser import apply_action
    from ..club.publisher import TablePublisher
    from ..club.server import ClubServer
    from ..club.standings import standings
    from ..club.web import start_club_web
    from ..club.wire import BrokerURL
    from ..micropython import MicroPythonMissing
    from .match_runner import SimHost
    from .virtual_table import VirtualTable
    out = out or sys.stdout
    problem = mosquitto_missing()
    if problem:
        print(f"error: {problem}", file=sys.stderr)
        return 2
    tmp = tempfile.TemporaryDirectory(prefix="shengji-club-demo-")
    ids = [f"T{i + 1}" for i in range(tables)]
    passwd = os.path.join(tmp.name, "passwd")
    stack: list = []
    try:
        club_pw = add_user(passwd, CLUB_USER)
        table_pw = {t: add_user(passwd, t) for t in ids}
        tls = None if openssl_missing() else make_certs(os.path.join(tmp.name, "tls"), ["127.0.0.1"])
        broker = Mosquitto(passwd_file=passwd, tls=None if tls is None else (tls.cert, tls.key)).start()
        stack.append(broker.stop)

        def url(user: str, password: str) -> BrokerURL:
            return BrokerURL("127.0.0.1", broker.port, user, password, tls is not None,
                             None if tls is None else str(tls.ca))
        server = ClubServer(db or os.path.join(tmp.name, "club.sqlite"), url(CLUB_USER, club_pw)).start()
        stack.append(server.stop)
        with server.lock, server.db.tx():
            for t in ids:
                server.db.add_table(t)
        for t in ids:
            server.ingest.register(t)
        body = {"session": "Demo evening", "round": 1,
                "tables": {t: {"02": [_seat_names(i)[0], _seat_names(i)[2]], "13": [_seat_names(i)[1],
                                                                                    _seat_names(i)[3]]}
                           for i, t in enumerate(ids)}}
        with server.lock:
            apply_action(server.db, "start-round", body, "demo")
        web = start_club_web(server, host, port)
        stack.append(web.stop)
        print(f"club pages: {web.url} (standings: {web.url}standings); broker {broker.url}", file=out, flush=True)
        board = board_for(Ruleset.from_preset("classic"))
        hosts, pubs = [], []
        for i, t in enumerate(ids):
            vt = VirtualTable(board=board).start()
            stack.append(vt.close)
            log_path = os.path.join(tmp.name, f"{t}.db")
            sim = SimHost(vt.device, log_path, seed=seed + i, hands=hands, board=board, match="table",
                          names=_seat_names(i))
            stack.append(sim.close)
            pub = TablePublisher(log_path, t, url(t, table_pw[t]))
            sim.service.add_listener(pub.notify)
            sim.start()
            pub.start()
            stack.append(pub.stop)
            hosts.append(sim)
            pubs.append(pub)
        results: dict = {}
        threads = [threading.Thread(target=lambda s=s, t=t: results.__setitem__(t, s.run(timeout=900)), daemon=True)
                   for s, t in zip(hosts, ids)]
        for th in threads:
            th.start()
        for th in threads:
            th.join()
        deadline = time.monotonic() + 60
        while not all(p.caught_up() for p in pubs) and time.monotonic() < deadline:
            time.sleep(0.1)
        reported = all(p.caught_up() for p in pubs)
        time.sleep(0.2)
        with server.lock:
            rows = standings(server.db)
            hands_in = server.db.one("SELECT COUNT(*) FROM hands")
        print(f"\n{len(ids)} table(s), {hands_in} hand(s) in the club database; standings:", file=out)
        for r in rows:
            print(f"  {r['rank']:>2}. {r['label']:<20} {r['score']:>3} level(s)   ({r['hands']} hands)", file=out)
        print(f"club pages were at {web.url}standings", file=out, flush=True)
        ok = all(results.get(t) for t in ids) and reported and hands_in == tables * hands
        if not ok:
            print(f"error: played {results}, all reported: {reported}, hands recorded {hands_in} of "
                  f"{tables * hands}", file=sys.stderr)
        return 0 if ok else 1
    except (BrokerError, CertError, MicroPythonMissing, OSError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    finally:
        for fn in reversed(stack):
            fn()
        tmp.cleanup()
