"""The serve loop (table/service.py) with a real SQLite log, real pyserial on a pseudo-terminal and
the firmware's link code as the Pico: nothing is acknowledged or shown before it is in the log; a
restarted host replays the log to the same state and takes no resent tap twice; a transaction
broken off half-way leaves no trace, so the resend is applied exactly once."""
import json
import time

import pytest

from shengji_table.game import events as ev
from shengji_table.rules.ruleset import Ruleset
from shengji_table.sim.cpython_pico import CPythonPico
from shengji_table.sim.players import deal_for, hand_seeds, play_direct
from shengji_table.sim.virtual_table import DEFAULT_BOARD, sim_deck_set, sim_pages, sim_uid
from shengji_table.store.log import EventLog
from shengji_table.table import protocol as P
from shengji_table.table.controller import Controller
from shengji_table.table.serial_link import SerialLink
from shengji_table.table.service import TableService, last_position

BOARD = json.loads(DEFAULT_BOARD.read_text())
RULESET = Ruleset.from_preset("one-deck")
SEEDS = hand_seeds(7, 1)
DRAWS = [e for e in play_direct(RULESET, "scanned", 7, 1).events if isinstance(e, ev.Draw)]


def make_service(device, log_path):
    log = EventLog(log_path)
    link = SerialLink(device, resume=last_position(log, "default"))
    ctl = Controller(RULESET, "scanned", BOARD, sim_deck_set(1), deal_for("scanned", SEEDS))
    svc = TableService(link, ctl, log)
    link.open()
    svc.restore()
    return svc


def run(svc, seconds, until=None):
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        svc.step()
        if until is not None and until():
            return True
    return False


def tap_draw(pico, e):
    pico.tap(e.seat, sim_uid(e.copy), sim_pages(e.copy))


def draws_applied(svc):
    return sum(isinstance(e, ev.Draw) for e in svc.controller.match.events)


def test_service_logs_before_it_acknowledges_or_shows(tmp_path):
    """Every ACK written acknowledges only events already durable in the log, and every ring frame
    follows the log rows of the effect it shows."""
    with CPythonPico() as pico:
        svc = make_service(pico.device, tmp_path / "log.db")
        log = svc.log
        checked = {"acks": 0, "rings": 0}
        wrong = []            # (a failure inside write() would only look like a pulled cable)
        real_write = svc.link.port.write
        dec = P.Decoder(P.TO_PICO)

        def write(data):
            for typ, _sender, _seq, payload in dec.feed(data):
                if typ == P.ACK:
                    acked = P.decode_ack(payload)
                    if not log.seen(svc.link.session.boot_id, acked):
                        wrong.append(f"ACK {acked} before it was logged")
                    checked["acks"] += 1
                elif typ == P.RING:
                    ring, *state = P.decode_ring(payload)
                    saved = [e.payload["controller"]["rings"].get(str(ring)) for e in log.entries(kind="meta")
                             if "controller" in e.payload]
                    if state not in saved:
                        wrong.append(f"ring {ring} {state} shown before it was logged")
                    checked["rings"] += 1
            return real_write(data)
        svc.link.port.write = write
        run(svc, 3, lambda: svc.link.caught_up())
        for e in DRAWS[:12]:
            tap_draw(pico, e)
        assert run(svc, 10, lambda: draws_applied(svc) == 12)
        run(svc, 0.3)
        assert wrong == []
        assert checked["acks"] >= 1 and checked["rings"] >= 12
        assert pico.pending == 0
        phys = [x for x in log.entries(kind="physical") if x.payload["type"] == "tap"]
        assert len(phys) == 12
        svc.link.close()


class DeafPort:
    """Wraps a port and swallows every write: the host hears the Pico, the Pico never hears back
    (no ACK arrives, so the Pico keeps resending)."""

    def __init__(self, port):
        self.port = port

    def __getattr__(self, name):
        return getattr(self.port, name)

    def write(self, data):
        return len(data)


def test_service_restart_replays_the_log_and_takes_no_resent_tap_twice(tmp_path):
    with CPythonPico() as pico:
        path = tmp_path / "log.db"
        a = make_service(pico.device, path)
        run(a, 3, lambda: a.link.caught_up())
        for e in DRAWS[:6]:
            tap_draw(pico, e)
        assert run(a, 10, lambda: draws_applied(a) == 6)
        a.link.port = DeafPort(a.link.port)    # from here the Pico gets no ACK
        for e in DRAWS[6:9]:
            tap_draw(pico, e)
        assert run(a, 10, lambda: draws_applied(a) == 9)
        state = json.dumps(a.controller.match.snapshot(), sort_keys=True)
        assert pico.pending >= 3                # logged by the host, still unacknowledged
        a.link.close()                          # the host dies without a word (the log is on disk) ...
        a.log.close()                           # ... and its lock on the log dies with it
        for e in DRAWS[9:11]:                   # taps while no host runs: the Pico keeps them
            tap_draw(pico, e)
        b = make_service(pico.device, path)
        assert json.dumps(b.controller.match.snapshot(), sort_keys=True) == state
        assert run(b, 5, lambda: draws_applied(b) == 11)
        run(b, 2, lambda: pico.pending == 0)
        assert pico.pending == 0                # the resends were re-acknowledged ...
        assert draws_applied(b) == 11           # ... the logged ones not applied again
        assert b.link.session.stats.duplicates >= 3
        assert [e.copy for e in b.controller.match.events if isinstance(e, ev.Draw)] == [d.copy for d in DRAWS[:11]]
        b.link.close()


def test_service_refuses_a_log_of_another_preset(tmp_path):
    with CPythonPico() as pico:
        a = make_service(pico.device, tmp_path / "log.db")
        a.link.close()
        a.log.close()
        log = EventLog(tmp_path / "log.db")
        link = SerialLink(pico.device, resume=last_position(log, "default"))
        ctl = Controller(Ruleset.from_preset("classic"), "scanned", BOARD, sim_deck_set(2))
        with pytest.raises(ValueError, match="started with preset 'one-deck'"):
            TableService(link, ctl, log).restore()


def test_service_transaction_broken_off_leaves_no_trace(tmp_path):
    """The host dies between writing a tap's physical row and its game event: the transaction is
    rolled back, so the restarted host neither skips the resend nor applies it twice."""
    with CPythonPico() as pico:
        path = tmp_path / "log.db"
        a = make_service(pico.device, path)
        run(a, 3, lambda: a.link.caught_up())
        tap_draw(pico, DRAWS[0])
        assert run(a, 5, lambda: draws_applied(a) == 1)
        real_append = a.log.append

        def dying_append(kind, payload, **kw):
            if kind == "game":
                raise KeyboardInterrupt("killed mid-transaction")
            return real_append(kind, payload, **kw)
        a.log.append = dying_append
        tap_draw(pico, DRAWS[1])
        with pytest.raises(KeyboardInterrupt):
            run(a, 5)
        a.link.close()
        a.log.close()                           # the dead host's lock goes with it
        with EventLog(path, read_only=True) as log:
            taps = [x for x in log.entries(kind="physical") if x.payload["type"] == "tap"]
            assert len(taps) == 1               # the second tap's row went with the rollback
        b = make_service(pico.device, path)
        assert run(b, 5, lambda: draws_applied(b) == 2)
        run(b, 0.3)
        assert draws_applied(b) == 2 and pico.pending == 0
        assert [e.copy for e in b.controller.match.events if isinstance(e, ev.Draw)] == [d.copy for d in DRAWS[:2]]
        b.link.close()


def test_service_unknown_tag_is_logged_as_a_ruling_and_shown_refused(tmp_path):
    with CPythonPico() as pico:
        svc = make_service(pico.device, tmp_path / "log.db")
        run(svc, 3, lambda: svc.link.caught_up())
        before = json.dumps(svc.controller.match.snapshot(), sort_keys=True)
        pico.tap(1, bytes.fromhex("04cafebabe0001"))
        assert run(svc, 5, lambda: svc.stats.refusals == 1)
        run(svc, 0.3)
        rulings = [e.payload for e in svc.log.entries(kind="ruling")]
        assert rulings[-1]["rule"] == "table.unknown-tag" and "04cafebabe0001" in rulings[-1]["reason"]
        assert pico.rings[1][0] == 3                       # rings.REFUSED reached the Pico
        assert json.dumps(svc.controller.match.snapshot(), sort_keys=True) == before
        svc.link.close()
