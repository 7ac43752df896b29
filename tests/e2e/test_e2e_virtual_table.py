"""End to end on the virtual table: the real firmware under MicroPython, the host over a
pseudo-terminal with pyserial, bots placing cards on simulated PN532 readers and pressing simulated
buttons — tag field → PN532 frames → firmware → serial frames → host → rules → ring frames.

Every run is checked against the same match played directly in the game layer (same seed, same
bots): the records must be equal, event for event, so a tap counted twice fails the test.  The bots
tap a card again when its action went missing, so a lost tap cannot show in the record: every run
is also audited against the line (``sim/tap_audit.py``): each Pico boot's logged sequence numbers
run 1..N with none missing, every tap the host acknowledged is in the log, and N is the firmware's own
count (``test_e2e_a_tap_the_host_acknowledged_and_dropped_fails_the_audit`` shows the audit sees one).

Faults: the cable pulled mid-trick, garbage and corrupted frames, the firmware
restarted mid-hand, the host killed with SIGKILL at random points (with cards tapped while it is
down, which the firmware holds and resends).  Bad input at the table is refused with its reason and
changes nothing.

``--table PATH`` runs the hardware-in-the-loop test against a real Pico flashed with the sim build
(``shengji-table flash --sim``); without it that test is skipped.
"""
import json
import random
import signal
import subprocess
import sys
import time

import pytest

from shengji_table.game.events import event_from_json
from shengji_table.game.match import Match
from shengji_table.game.record import to_record
from shengji_table.rules.ruleset import Ruleset
from shengji_table.sim.line_faults import FaultyLine
from shengji_table.sim.match_runner import SimHost
from shengji_table.sim.players import play_direct
from shengji_table.sim.tap_audit import LineWitness, audit_log
from shengji_table.sim.virtual_table import VirtualTable, sim_pages, sim_uid
from shengji_table.store.log import EventLog
from shengji_table.table.card_code import encode_card_code
from shengji_table.table.controller import R
from shengji_table.table.session import Snapshot

pytestmark = pytest.mark.micropython

PRESET = "one-deck"
RULESET = Ruleset.from_preset(PRESET)


def reference(mode, hands, seed=7):
    return to_record(play_direct(RULESET, mode, seed, hands))


def record_from_log(path, mode):
    with EventLog(path) as log:
        m = Match(RULESET, mode).apply_all(event_from_json(e) for e in log.game_events())
    return to_record(m)


def witnessed(to_host=None, to_pico=None, **kw):
    """VirtualTable arguments with a witness at each end of the line (wrapping its faults, if any)."""
    return {"faults_to_host": LineWitness(to_host), "faults_to_pico": LineWitness(to_pico, "pico"), **kw}


def assert_no_tap_lost(vt, log_path):
    """The log against the line: no tap acknowledged and not logged, none doubled, and the last boot's
    events all logged (sim/tap_audit.py)."""
    time.sleep(1.2)                      # one more heartbeat: the firmware's count as it ends
    audit = audit_log(log_path, vt.faults_to_host, vt.faults_to_pico)
    assert audit.ok, audit.problems
    assert sum(audit.logged.values()) > 0 and sum(audit.counted.values()) >= sum(audit.logged.values())
    return audit


def play(vt, tmp_path, mode, hands, idle=None, seed=7, timeout=90):
    host = SimHost(vt.device, tmp_path / f"{mode}.db", preset=PRESET, mode=mode, seed=seed, hands=hands)
    try:
        host.start()
        assert host.run(timeout=timeout, idle=(lambda: idle(host)) if idle else None), "the hands did not finish"
        return host, to_record(host.controller.match)
    finally:
        host.close()


def mid_trick(host, trick=2):
    """True once trick ``trick`` (0-based count of finished tricks) has cards on the table."""
    hand = host.controller.match.hand
    return hand is not None and hand.phase == "playing" and len(hand.tricks) >= trick and bool(hand.trick)


@pytest.mark.parametrize("mode", ["scanned", "open"])
def test_e2e_full_hands_match_the_game_layer(tmp_path, mode):
    with VirtualTable(**witnessed()) as vt:
        host, record = play(vt, tmp_path, mode, hands=2)
        audit = assert_no_tap_lost(vt, tmp_path / f"{mode}.db")
    # fault-free: every event numbered is logged, but for the last button's release, which may come
    # after the match's last press ended the run
    assert {b: n + audit.unacked_at_end.get(b, 0) for b, n in audit.logged.items()} == audit.counted
    assert sum(audit.unacked_at_end.values()) <= 1
    assert record == reference(mode, 2)
    assert len(record["summary"]["hands"]) == 2
    assert host.service.stats.refusals == 0
    # the log alone rebuilds the same record (what a restarted host or `log export` sees)
    assert record_from_log(tmp_path / f"{mode}.db", mode) == record


def test_e2e_cable_pulled_and_put_back_mid_trick(tmp_path):
    """Mid-trick the cable is pulled; while it is out a stray (unenrolled) tag is laid on seat 1's
    reader and lifted.  The host reconnects, gets that tap exactly once (refused as unknown) and the
    match is the fault-free one."""
    from shengji_table.table import protocol as P
    w, buf = P.Writer(b"\x5e\x11\x0c\x02"), bytearray(P.MAX_FRAME)
    stray = bytes([0x04, 0xEE, 0xEE, 0xEE, 0xEE, 0x01, 0x01])
    done = []

    def pull(host):
        if not done and mid_trick(host):
            done.append(True)
            vt.pull_cable()
            # the card goes straight to the firmware's simulated reader (the cable is out)
            vt.inject(bytes(buf[:P.encode_sim_place(w, buf, 1, 1, stray, bytes(16))]), towards="pico")
            t = time.monotonic()
            while time.monotonic() - t < 0.6:       # the host keeps running: its port has failed
                host.service.step()
            vt.inject(bytes(buf[:P.encode_sim_lift(w, buf, 2, 1)]), towards="pico")
            vt.plug_cable()
    with VirtualTable(**witnessed()) as vt:
        host, record = play(vt, tmp_path, "scanned", hands=1, idle=pull)
        assert_no_tap_lost(vt, tmp_path / "scanned.db")
    assert done and host.link.reconnects == 1
    assert record == reference("scanned", 1)
    with EventLog(tmp_path / "scanned.db", read_only=True) as log:
        taps = [e.payload["uid"] for e in log.entries(kind="physical") if e.payload.get("type") == "tap"]
        refusals = [e.payload for e in log.entries(kind="ruling") if stray.hex() in json.dumps(e.payload)]
    assert taps.count(stray.hex()) == 1
    assert [r["rule"] for r in refusals] == ["table.unknown-tag"]


def test_e2e_garbage_and_corrupted_frames_both_ways(tmp_path):
    rng = random.Random(11)
    to_host = FaultyLine(random.Random(1), corrupt=0.02, truncate=0.01, garbage=0.02, duplicate=0.02)
    to_pico = FaultyLine(random.Random(2), corrupt=0.02, truncate=0.01, garbage=0.02, duplicate=0.02)
    bursts = []

    def garbage(host):
        hand = host.controller.match.hand
        if hand is not None and len(bursts) < 3 and len(hand.tricks) >= 2 * len(bursts) + 1 and hand.trick:
            bursts.append(True)
            vt.inject(bytes(rng.randrange(1, 256) for _ in range(300)) + b"\x00", "host")
            vt.inject(bytes(rng.randrange(0, 256) for _ in range(40)), "pico")
    with VirtualTable(**witnessed(to_host, to_pico)) as vt:
        host, record = play(vt, tmp_path, "scanned", hands=1, idle=garbage)
        assert_no_tap_lost(vt, tmp_path / "scanned.db")
    assert len(bursts) == 3
    assert to_host.injected_bad > 0 and to_pico.injected_bad > 0
    assert host.link.session.bad_frames >= to_host.injected_bad   # every damaged frame refused
    assert record == reference("scanned", 1)


def test_e2e_firmware_restarted_mid_hand(tmp_path):
    done = []

    def restart(host):
        if not done and mid_trick(host, 3):
            done.append(True)
            vt.restart_firmware()
    with VirtualTable(**witnessed()) as vt:
        host, record = play(vt, tmp_path, "open", hands=1, idle=restart)
        assert vt.boots == 2
        audit = assert_no_tap_lost(vt, tmp_path / "open.db")
    assert len(audit.counted) == 2                  # both boots audited
    assert done and host.link.session.stats.reboots == 1
    assert record == reference("open", 1)


def run_with_kills(tmp_path, mode, hands, kills, seed, between=(0.7, 2.2), while_down=None):
    """Run the host as its own process on the virtual table; SIGKILL it ``kills`` times at random
    moments, restarting it each time on the same log.  ``while_down(vt, k)`` runs after the k-th
    kill, before the restart: what happens at the table while no host is there."""
    rng = random.Random(seed)
    log = tmp_path / "kill.db"
    killed = 0
    with VirtualTable(**witnessed()) as vt:
        for _ in range(kills + 20):
            proc = subprocess.Popen([sys.executable, "-m", "shengji_table.sim.match_runner", "--device", vt.device,
                                     "--log", str(log), "--preset", PRESET, "--mode", mode, "--hands", str(hands),
                                     "--timeout", "120"])
            if killed < kills:
                try:
                    proc.wait(timeout=rng.uniform(*between))
                except subprocess.TimeoutExpired:
                    proc.send_signal(signal.SIGKILL)
                    proc.wait()
                    killed += 1
                    if while_down is not None:
                        while_down(vt, killed)
                    continue
            rc = proc.wait(timeout=150)
            assert rc == 0, f"host exited {rc}"
            break
        assert_no_tap_lost(vt, log)
    return killed, record_from_log(log, mode)


def test_e2e_host_killed_at_random_points_resumes_from_the_log(tmp_path):
    killed, record = run_with_kills(tmp_path, "scanned", hands=1, kills=3, seed=3)
    assert killed >= 1
    assert record == reference("scanned", 1)


def test_e2e_taps_made_while_the_host_is_dead_arrive_once_after_its_restart(tmp_path):
    """While the killed host is down, a stray tag is laid on seat 0's reader and lifted (a player
    tapping a card nobody enrolled).  The real firmware sees it and keeps the TAP until a host
    acknowledges it; the restarted host gets it exactly once (one physical row per tap in the log,
    refused as an unknown card), and the match is still the fault-free one."""
    from shengji_table.table import protocol as P
    w, buf = P.Writer(b"\x5e\x11\x0c\x01"), bytearray(P.MAX_FRAME)
    stray = []

    def tap_stray(vt, k):
        uid = bytes([0x04, 0xEE, 0xEE, 0xEE, 0xEE, 0x00, k])
        stray.append(uid.hex())
        vt.inject(bytes(buf[:P.encode_sim_place(w, buf, 2 * k, 0, uid, bytes(16))]), towards="pico")
        time.sleep(0.6)                                  # several scan laps: the firmware sees it
        vt.inject(bytes(buf[:P.encode_sim_lift(w, buf, 2 * k + 1, 0)]), towards="pico")
        time.sleep(0.3)

    killed, record = run_with_kills(tmp_path, "scanned", hands=1, kills=2, seed=5, between=(0.5, 1.2),
                                    while_down=tap_stray)
    assert killed >= 1 and len(stray) == killed
    assert record == reference("scanned", 1)
    with EventLog(tmp_path / "kill.db", read_only=True) as log:
        taps = [e.payload["uid"] for e in log.entries(kind="physical") if e.payload.get("type") == "tap"]
        texts = [json.dumps(e.payload, ensure_ascii=False) for e in log.entries() if e.kind != "physical"]
    for uid in stray:
        assert taps.count(uid) == 1, f"stray tap {uid} logged {taps.count(uid)} times"
        assert any(uid in t and "unknown" in t.lower() for t in texts), f"no refusal of {uid}"


@pytest.mark.slow
@pytest.mark.parametrize("mode", ["scanned", "open"])
def test_e2e_host_killed_many_times_across_several_hands(tmp_path, mode):
    killed, record = run_with_kills(tmp_path, mode, hands=6, kills=20, seed=17, between=(0.5, 1.5))
    assert record == reference(mode, 6)
    assert killed >= 8


@pytest.mark.slow
def test_e2e_classic_preset_both_modes_long(tmp_path):
    for mode in ("scanned", "open"):
        with VirtualTable() as vt:
            host = SimHost(vt.device, tmp_path / f"classic-{mode}.db", preset="classic", mode=mode, seed=5, hands=3)
            host.start()
            assert host.run(timeout=300)
            record = to_record(host.controller.match)
            host.close()
        assert record == to_record(play_direct(Ruleset.from_preset("classic"), mode, 5, 3))


def test_e2e_bad_input_at_the_table_is_refused_and_changes_nothing(tmp_path):
    """Unknown tag, foreign deck, the same physical card twice, a card from another seat's hand, a tap
    out of turn — each through the whole path, each refused with its reason; the Pico's ring of that
    seat shows REFUSED; the match then finishes exactly as the game layer plays it."""
    results = []
    snapshots = []

    def bad_inputs(host):
        hand = host.controller.match.hand
        if results or hand is None or hand.phase != "playing" or len(hand.tricks) < 2 or hand.trick \
                or not host.players.synced or host.players.awaiting:
            return
        svc = host.service
        turn = hand.turn
        other = (turn + 1) % 4
        played_seat, played_cards = hand.tricks[0][0][0]
        attempts = [
            ("table.unknown-tag", turn, bytes.fromhex("04c0ffee000001"), b""),
            ("table.foreign-deck", turn, bytes.fromhex("04c0ffee000002"),
             encode_card_code(hand.hand_copies(turn)[0], 0x0BAD)),
            ("table.already-played", played_seat, sim_uid(played_cards[0]), sim_pages(played_cards[0])),
            ("table.wrong-seat", turn, sim_uid(hand.hand_copies(other)[0]), sim_pages(hand.hand_copies(other)[0])),
            ("table.out-of-turn", other, sim_uid(hand.hand_copies(other)[0]), sim_pages(hand.hand_copies(other)[0])),
        ]
        for rule, reader, uid, pages in attempts:
            before = json.dumps(host.controller.match.snapshot(), sort_keys=True)
            n = svc.stats.refusals
            time.sleep(0.04)                                   # the last card's lift is seen
            svc.link.session.sim_place(reader, uid, pages)
            svc.link.flush()
            end = time.monotonic() + 5
            while svc.stats.refusals == n and time.monotonic() < end:
                svc.step()
            ruling = [e.payload for e in svc.log.entries(kind="ruling")][-1]
            after = json.dumps(host.controller.match.snapshot(), sort_keys=True)
            snapshots.clear()
            svc.link.request_snapshot()
            end = time.monotonic() + 3
            while not snapshots and time.monotonic() < end:
                svc.step()
            ring = snapshots[-1].rings[reader] if snapshots else None
            results.append((rule, ruling["rule"], ruling["reason"], before == after, ring))

    with VirtualTable() as vt:
        host = SimHost(vt.device, tmp_path / "bad.db", preset=PRESET, mode="scanned", seed=7, hands=1)
        host.add_hook(lambda e, out: snapshots.append(e) if isinstance(e, Snapshot) else None)
        try:
            host.start()
            assert host.run(timeout=90, idle=lambda: bad_inputs(host))
            record = to_record(host.controller.match)
        finally:
            host.close()
    assert [r[0] for r in results] == [r[1] for r in results]          # each refused for its reason
    reasons = {r[0]: r[2] for r in results}
    assert "04c0ffee000001 is not in this deck set" in reasons["table.unknown-tag"]
    assert "of deck set 2989" in reasons["table.foreign-deck"]
    assert "earlier trick" in reasons["table.already-played"]
    assert "belongs to seat" in reasons["table.wrong-seat"]
    assert "turn" in reasons["table.out-of-turn"]
    assert all(r[3] for r in results)                                   # state unchanged
    assert all(r[4] is not None and r[4][0] == R.REFUSED for r in results)   # the Pico shows it
    assert record == reference("scanned", 1)


def test_e2e_real_pico_plays_a_hand(tmp_path, table_path):
    """Hardware in the loop: a Pico on USB running the sim build plays the same hand."""
    host = SimHost(table_path, tmp_path / "pico.db", preset=PRESET, mode="scanned", seed=7, hands=1, slow=8)
    try:
        host.start()
        assert host.run(timeout=300)
        assert to_record(host.controller.match) == reference("scanned", 1)
    finally:
        host.close()


def test_e2e_a_tap_the_host_acknowledged_and_dropped_fails_the_audit(tmp_path):
    """The audit can see a lost tap: this host acknowledges its 30th tap and never logs it (the bots
    tap the card again, so the record still equals the fault-free one, which is why the record
    alone cannot show it); the audit names the missing seq."""
    from shengji_table.table.controller import Outcome
    from shengji_table.table.session import LinkTap
    dropped = []
    with VirtualTable(**witnessed()) as vt:
        host = SimHost(vt.device, tmp_path / "drop.db", preset=PRESET, mode="open", seed=7, hands=1)
        handle, taps = host.service.handle, []

        def swallow_one(e, t0=0.0):
            if isinstance(e, LinkTap):
                taps.append(e.seq)
                if len(taps) == 30:
                    dropped.append(e.seq)
                    return Outcome()           # delivered, so acknowledged; never logged
            return handle(e, t0)
        host.service.handle = swallow_one
        try:
            host.start()
            assert host.run(timeout=90)
            record = to_record(host.controller.match)
        finally:
            host.close()
        time.sleep(1.2)
        audit = audit_log(tmp_path / "drop.db", vt.faults_to_host, vt.faults_to_pico)
    assert dropped and record == reference("open", 1)            # the record cannot see it …
    assert not audit.ok                                          # … the audit does
    assert any(f"acknowledged by the host but not in the log: seq [{dropped[0]}]" in p for p in audit.problems), \
        audit.problems


def test_e2e_each_hands_end_checkpoints_so_a_copy_of_the_db_alone_holds_that_hand(tmp_path):
    """At each hand's end the table moves the log's -wal into the .db: a plain copy of the .db made
    then (or a -wal lost later) holds every row written up to that hand's end, chain whole."""
    import shutil
    path, copies = tmp_path / "hands.db", []
    with VirtualTable() as vt:
        host = SimHost(vt.device, path, preset=PRESET, mode="open", seed=7, hands=2)

        def at_hand_end(_e, _out):
            settled = len(host.controller.match.summaries)
            if settled > len(copies):
                copy = tmp_path / f"hand{settled}.db"
                shutil.copy(path, copy)              # the .db alone, no -wal
                copies.append((copy, host.log.last_id(), host.log.head()))
        host.service.add_listener(at_hand_end)
        try:
            host.start()
            assert host.run(timeout=90)
        finally:
            host.close()
    assert len(copies) == 2
    for copy, rows, head in copies:
        with EventLog(copy, read_only=True) as log:
            v = log.verify()
        assert v.ok and v.rows == rows and v.head == head
