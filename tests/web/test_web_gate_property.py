"""The PIN gate's promises for every sequence of attempts (hypothesis; ``face/web/auth.py``,
``docs/security.md``): however many wrong PINs come from however many other addresses, at whatever
times, the referee's right PIN from their own address is let in and the referee's open session is
never refused; and every wrong or refused attempt is counted once in the summaries, which name at
most ``MAX_SUMMARIES`` addresses at a time (plus one line for the rest)."""
import hashlib

from hypothesis import given
from hypothesis import strategies as st

from shengji_table.face.web import auth
from shengji_table.face.web.auth import MAX_SUMMARIES, RefereeGate

PIN = "2468-1357"
SALT = b"0123456789abcdef"
# scrypt at its cheapest (n=2): the gate reads the parameters from the hash; the tests stay fast
CHEAP = f"scrypt$2$1$1${SALT.hex()}${hashlib.scrypt(PIN.encode(), salt=SALT, n=2, r=1, p=1, dklen=32).hex()}"

attempt = st.tuples(st.sampled_from(["referee"] + [f"10.0.0.{i}" for i in range(1, 40)]),
                    st.floats(min_value=0, max_value=400, allow_nan=False))


@given(st.lists(attempt, max_size=120))
def test_nobody_else_locks_the_referee_out_and_every_failure_is_summarised(attempts):
    """Also with room for only 8 addresses in memory: those forgotten are still counted."""
    kept, auth.MAX_ADDRESSES = auth.MAX_ADDRESSES, 8
    try:
        _run(attempts)
    finally:
        auth.MAX_ADDRESSES = kept


def _run(attempts) -> None:
    now = [0.0]
    gate = RefereeGate(CHEAP, clock=lambda: now[0])
    session = gate.open_session()
    failures, summarised = 0, 0
    for who, wait in attempts:
        now[0] += wait
        if who == "referee":
            assert gate.check(PIN, "192.168.1.5", "form") == "ok"
        else:
            assert gate.check("guess", who, "basic") in ("wrong", "locked")
            failures += 1
        assert gate.session_ok(session) and gate.csrf_ok(session, gate.csrf_token(session))
        rows = gate.summaries()
        assert len(rows) <= MAX_SUMMARIES + 1
        summarised += sum(r["wrong"] + r["refused_locked"] for r in rows)
    rows = gate.summaries(force=True)
    summarised += sum(r["wrong"] + r["refused_locked"] for r in rows)
    assert summarised == failures
    assert gate.locked_for("192.168.1.5") == 0


@given(st.integers(min_value=0, max_value=2 ** 64 - 1))
def test_one_ipv6_64_is_one_address_for_the_lockout(host_part):
    """A machine can hold a whole IPv6 /64: every address in it counts as one for the lockout;
    IPv4 addresses (and IPv4-mapped ones) count each on its own."""
    import ipaddress

    from shengji_table.face.web.guard import throttled
    v6 = str(ipaddress.IPv6Address((0x20010DB8_00000001 << 64) | host_part))
    assert throttled(v6) == "2001:db8:0:1::/64"
    v4 = str(ipaddress.IPv4Address(host_part & 0xFFFFFFFF))
    assert throttled(v4) == v4 and throttled(f"::ffff:{v4}") == v4
