"""``shengji-table club``: the club server and its tools (``docs/club.md``).

    shengji-table club serve --db club.sqlite --broker mqtt://HOST:PORT --web HOST:PORT
                             [--organiser-pin-file FILE] [--user club --password-file FILE]
    shengji-table club standings --db club.sqlite [--session NAME] [--scoring levels|duplicate] [--json]
    shengji-table club partnerships add --db club.sqlite --session NAME A,B C,D …
    shengji-table club rules --db club.sqlite --session NAME [--preset P] [--rules FILE] [--option N=V …]
    shengji-table club round start --db club.sqlite --session NAME --round K --movement round-robin|swiss
                                   [--boards FILE] [--boards-per-round B] [--sit-out] [--pin-file FILE]
    shengji-table club tables add --db club.sqlite --passwd mosquitto.passwd T1 [T2 …]
    shengji-table club demo [--tables 3] [--hands 2 | --boards 2] [--db FILE] [--web HOST:PORT]
    shengji-table club certs make DIR --host 192.168.1.10 [--host club.local …]
    shengji-table club boards make --count 24 --preset classic --seed S --out FILE
    shengji-table club boards check --board FILE --number K --deck-set FILE (--device PATH | --taps FILE)

Bad input (a file that is not a club database, an unknown session, a bad table id or address):
the reason on stderr, exit 2, nothing changed.
"""
from __future__ import annotations

import argparse
import json
import pathlib
import sys
import time

from . import club_boards, club_round

__all__ = ["add_arguments", "run"]


def add_arguments(parser):
    sub = parser.add_subparsers(dest="club_command", metavar="ACTION")
    sub.required = True
    s = sub.add_parser("serve", help="run the club server: MQTT intake, club database, club pages")
    s.add_argument("--db", required=True, help="the club database (SQLite; made when missing)")
    s.add_argument("--broker", required=True, help="mqtt://[user:password@]HOST[:PORT], or with TLS "
                                                   "mqtts://[user:password@]HOST[:PORT]?ca=ca.pem")
    s.add_argument("--user", default="club", help="the club's broker user (default club)")
    s.add_argument("--password-file", metavar="FILE", help="a file holding the club user's broker password")
    s.add_argument("--web", metavar="HOST:PORT", default="127.0.0.1:8090", help="serve the club pages here")
    s.add_argument("--organiser-pin-file", metavar="FILE",
                   help="the organiser's PIN file (shengji-table referee set-pin FILE); without it the "
                        "organiser's actions are off")
    s.add_argument("--scoring", choices=("levels", "duplicate"), default="levels",
                   help="the pages' standings: levels gained (default) or duplicate")
    s.add_argument("--web-tls", nargs=2, metavar=("CERT", "KEY"),
                   help="serve the club pages over HTTPS with this PEM certificate and key (club certs make)")
    # stop after S seconds (tests); not offered in --help
    s.add_argument("--for", dest="seconds", type=float, default=0, help=argparse.SUPPRESS)
    st = sub.add_parser("standings", help="print the standings")
    st.add_argument("--db", required=True)
    st.add_argument("--session", help="one session's standings (default: across sessions)")
    st.add_argument("--scoring", choices=("levels", "duplicate"), default="levels",
                    help="levels gained (default) or duplicate: cross-IMPs per board")
    st.add_argument("--json", action="store_true", help="as JSON")
    t = sub.add_parser("tables", help="register tables and their broker users")
    tsub = t.add_subparsers(dest="tables_command", metavar="ACTION")
    tsub.required = True
    ta = tsub.add_parser("add", help="add tables: a row in the club database, a user in mosquitto's password file")
    ta.add_argument("--db", required=True)
    ta.add_argument("--passwd", required=True, metavar="FILE", help="mosquitto's password file (made when missing)")
    ta.add_argument("tables", nargs="+", metavar="TABLE", help="table ids, e.g. T1 T2 T3")
    d = sub.add_parser("demo", help="a local broker, the club server and virtual tables playing a round")
    d.add_argument("--tables", type=int, default=3, help="virtual tables (1-6, default 3)")
    d.add_argument("--hands", type=int, default=2, help="hands per table (default 2)")
    d.add_argument("--boards", type=int, default=0, metavar="B",
                   help="a duplicate evening instead: round 1 of a round robin, B boards at every table (1-8)")
    d.add_argument("--seed", type=int, default=7)
    d.add_argument("--db", help="keep the club database here (default: a temporary file)")
    d.add_argument("--web", metavar="HOST:PORT", default="127.0.0.1:0", help="the club pages (default: any port)")
    c = sub.add_parser("certs", help="the club's TLS certificates for the broker (mqtts://)")
    csub = c.add_subparsers(dest="certs_command", metavar="ACTION")
    csub.required = True
    cm = csub.add_parser("make", help="a CA of the club's own and the broker's certificate, made with openssl")
    cm.add_argument("dir", help="an empty directory for ca.pem, ca.key, broker.pem, broker.key")
    cm.add_argument("--host", action="append", required=True,
                    help="a name or IP address the tables reach the broker by (repeat for more)")
    club_boards.add_parser(sub)
    club_round.add_parsers(sub)


def _err(text: str) -> int:
    print(f"error: {text}", file=sys.stderr)
    return 2


def run(args) -> int:
    return {"serve": _serve, "standings": _standings, "tables": _tables, "demo": _demo, "certs": _certs,
            "boards": club_boards.run, "partnerships": club_round.run_partnerships,
            "round": club_round.run_round, "rules": club_round.run_rules}[args.club_command](args)


def _open_db(path: str, *, must_exist: bool):
    from ..club.db import ClubDB, ClubDBError
    if must_exist and not pathlib.Path(path).is_file():
        raise ClubDBError(f"{path}: no such club database")
    return ClubDB(path)


def _standings(args) -> int:
    from ..club.db import ClubDBError
    from ..club.standings import scoring, standings
    try:
        db = _open_db(args.db, must_exist=True)
    except ClubDBError as exc:
        return _err(str(exc))
    try:
        session = None
        if args.session is not None:
            session = db.one("SELECT id FROM sessions WHERE name=?", (args.session,))
            if session is None:
                names = [r[0] for r in db.q("SELECT name FROM sessions ORDER BY id")]
                return _err(f"no session {args.session!r} in {args.db} (sessions: {', '.join(names) or 'none'})")
        rows = standings(db, session, scoring(db, args.scoring))
    finally:
        db.close()
    if args.json:
        print(json.dumps({"session": args.session, "scoring": args.scoring, "standings": rows}, ensure_ascii=False,
                         indent=1))
        return 0
    how = "cross-IMPs per board" if args.scoring == "duplicate" else "levels gained"
    print(f"Standings{' — ' + args.session if args.session else ' (all sessions)'}, {how}:")
    if not rows:
        print("  no hands recorded yet")
    for r in rows:
        print(f"  {r['rank']:>2}. {r['label']:<30} {r['score']:>4}   ({r['hands']} hands)")
    return 0


def _tables(args) -> int:
    from ..club.broker import CLUB_USER, BrokerError, add_user
    from ..club.db import ClubDBError
    from ..club.wire import WireError, check_table_id
    try:
        for t in args.tables:
            check_table_id(t)
        db = _open_db(args.db, must_exist=False)
    except (WireError, ClubDBError) as exc:
        return _err(str(exc))
    try:
        passwd = pathlib.Path(args.passwd)
        users = {line.split(":", 1)[0] for line in passwd.read_text().splitlines()} if passwd.exists() else set()
        if CLUB_USER not in users:
            print(f"broker user {CLUB_USER}: password {add_user(passwd, CLUB_USER)}   (club serve --password-file)")
        for t in args.tables:
            pw = add_user(passwd, t)
            with db.tx():
                db.add_table(t)
            print(f"broker user {t}: password {pw}   (table {t}: serve --club mqtt://{t}:PASSWORD@HOST:PORT "
                  f"--table-id {t})")
    except BrokerError as exc:
        return _err(str(exc))
    finally:
        db.close()
    print(f"reload the broker to read {args.passwd} (kill -HUP the mosquitto process)")
    return 0


def _serve(args) -> int:
    from ..club.db import ClubDBError
    from ..club.mqtt_client import check_ca
    from ..club.server import ClubServer
    from ..club.web import start_club_web
    from ..club.wire import WireError, parse_broker_url
    from ..face.web.auth import PinError, load_pin_file
    from ..face.web.server import check_tls, parse_address
    try:
        tls = check_tls(*args.web_tls) if args.web_tls else None
        if tls:
            raise ValueError(tls)
        broker = parse_broker_url(args.broker)
        if broker.ca_file is not None:
            check_ca(broker.ca_file)          # before the database is opened: bad input changes nothing
        host, port = parse_address(args.web)
        password = pathlib.Path(args.password_file).read_text().strip() if args.password_file else None
        pin = load_pin_file(args.organiser_pin_file) if args.organiser_pin_file else None
        server = ClubServer(args.db, broker, username=args.user, password=password)
    except (WireError, ValueError, PinError, ClubDBError) as exc:
        return _err(str(exc))
    except OSError as exc:
        return _err(f"cannot read {args.password_file}: {exc.strerror}")
    server.start()
    try:
        web = start_club_web(server, host, port, pin, scoring=args.scoring, tls=args.web_tls)
    except OSError as exc:
        server.stop()
        return _err(str(exc))
    print(f"club: database {args.db}, broker {broker}, pages at {web.url} (standings: {web.url}standings)",
          flush=True)
    try:
        deadline = time.monotonic() + args.seconds if args.seconds else None
        while deadline is None or time.monotonic() < deadline:
            time.sleep(0.2)
    except KeyboardInterrupt:
        pass
    finally:
        web.stop()
        server.stop()
    return 0


def _certs(args) -> int:
    from ..club.certs import CertError, make_certs
    try:
        paths = make_certs(args.dir, args.host)
    except CertError as exc:
        return _err(str(exc))
    print(f"club CA {paths.ca} (copy it to every table: --club 'mqtts://T1:PASSWORD@{args.host[0]}:8883?ca=ca.pem')\n"
          f"broker certificate {paths.cert} and key {paths.key} (mosquitto: certfile, keyfile)\n"
          f"keep {paths.ca_key} safe: it signs certificates the tables trust")
    return 0


def _demo(args) -> int:
    from ..sim.club_demo import run_club_demo
    if not 1 <= args.tables <= 6:
        return _err("--tables is 1…6")
    if not 1 <= args.hands <= 20:
        return _err("--hands is 1…20")
    if not 0 <= args.boards <= 8:
        return _err("--boards is 1…8 (a duplicate evening), or 0")
    from ..face.web.server import parse_address
    try:
        host, port = parse_address(args.web)
    except ValueError as exc:
        return _err(str(exc))
    from .progress import progress
    total = args.tables * (args.boards or args.hands)
    with progress(total, "hands played") as step:
        return run_club_demo(tables=args.tables, hands=args.hands, seed=args.seed, db=args.db, host=host,
                             port=port, boards=args.boards, on_hand=lambda table: step(note=f"last: table {table}"))
