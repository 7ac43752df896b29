"""``selftest --measure`` as a step machine (table/selftest_measure.py): placements timed from the
prompt to the TAP, misses, false lifts (the card lying still tapped again), false taps (a tap on a
reader not asked, or of another card), the two-card outcome, polls/s measured from the firmware's
poll counters in two snapshots, and the estimate from the spread of the latencies when the Pico
sends no counters."""
import pytest

from shengji_table.board import load_board
from shengji_table.hardware.build import BOARDS_DIR
from shengji_table.table import protocol as P
from shengji_table.table.selftest import AskSnapshot, Prompt
from shengji_table.table.selftest_measure import Measurement, ReaderFigures
from shengji_table.table.session import LinkStack, LinkTap, Snapshot

BOARD = load_board(BOARDS_DIR / "table-4.json")
BOOT = 7
ALIVE = P.READER_ALIVE


def snapshot(readers=(ALIVE,) * 5, clock=None, polls=None, boot=BOOT):
    """Without ``polls``: as firmware from before the poll counters sends it."""
    return Snapshot(boot, 0, 1, 1, 0, bytes(readers), bytes(4), (), clock, polls)


def tap(reader, uid):
    return LinkTap(BOOT, 1, reader, uid, None)


class Run:
    def __init__(self, placements=2, readers=(ALIVE,) * 5, first=None, **kw):
        kw.setdefault("hold_s", 1.0)
        kw.setdefault("lift_s", 1.0)
        kw.setdefault("step_timeout", 5.0)
        self.m = Measurement(BOARD, placements, **kw)
        self.now = 0.0
        self.prompts: list = []
        self.asked_snapshots = 0
        self._take(self.m.start(self.now))
        self._take(self.m.feed(first or snapshot(readers), self.now))

    def _take(self, outs):
        self.prompts += [o for o in outs if isinstance(o, Prompt)]
        self.asked_snapshots += sum(isinstance(o, AskSnapshot) for o in outs)

    def at(self, t):
        self.now = t
        self._take(self.m.tick(t))

    def feed(self, event):
        self._take(self.m.feed(event, self.now))

    @property
    def asked(self):
        return self.prompts[-1]


def _walk_clean(run, reader, uid_base, placements, latency=0.05):
    """Do what is asked at ``reader``: each placement tapped ``latency`` s after its prompt."""
    for k in range(placements):
        assert run.asked.ask == "place" and run.asked.index == reader
        run.at(run.now + latency + 0.01 * k)
        run.feed(tap(reader, bytes([4, uid_base, k, 0, 0, 0, 0x80])))
        run.at(run.now + 1.01)         # hold over: lift asked
        assert run.asked.ask == "lift"
        run.at(run.now + 1.01)         # lift over
    assert run.asked.ask == "two"
    run.feed(tap(reader, b"\x04two\x00\x00\x80"))
    run.feed(LinkStack(BOOT, 1, reader, 2))
    run.at(run.now + 2.01)
    run.at(run.now + 1.01)


def test_a_clean_run_passes_with_latencies_from_prompt_to_tap():
    run = Run(placements=3)
    for reader in range(5):
        _walk_clean(run, reader, reader, 3)
    assert run.m.done
    rep = run.m.report()
    assert rep.ok and rep.exit_status == 0
    for r in rep.per_reader:
        assert r.latencies_ms == pytest.approx([50, 60, 70])
        assert r.two_cards == "stack reported, and a tap of one card first"
    assert "RESULT: PASS" in rep.render()


def test_a_missed_placement_and_a_false_lift_fail_the_reader():
    run = Run(placements=1)
    run.at(5.0)                                    # no tap within the step time: a miss
    assert run.m.readers[0].misses == 1
    run.feed(tap(0, b"\x04late\x00\x80"))          # the late card now lands during the two-card test
    run.at(run.now + 2.01)                         # two cards' time over: lift both
    run.at(run.now + 1.01)
    assert run.asked.index == 1 and run.asked.ask == "place"
    run.at(run.now + 0.1)
    card = b"\x04card\x00\x80"
    run.feed(tap(1, card))
    run.at(run.now + 0.5)
    run.feed(tap(1, card))                         # the same card, still lying: lost and found again
    run.feed(tap(3, b"\x04oops\x00\x80"))          # a reader nobody touched
    rep = run.m.report()
    assert rep.per_reader[1].false_lifts == 1 and rep.per_reader[3].false_taps == 1
    assert not rep.per_reader[0].ok and not rep.per_reader[1].ok and not rep.ok


def test_a_dead_reader_is_not_measured_and_fails():
    dead = (ALIVE, P.READER_DEAD, ALIVE, ALIVE, ALIVE)
    run = Run(placements=1, readers=dead)
    rep = run.m.report()
    assert "reader of seat 1: not alive, not measured" in rep.problems
    assert [r.index for r in rep.per_reader if r.alive] == [0, 2, 3, 4]


def test_two_cards_that_flip_are_reported():
    r = ReaderFigures(0, "seat 0", two_cards_run=True, two_cards_uids=[b"a", b"b", b"a"])
    assert r.two_cards == "flips: 3 taps of 2 cards"
    assert ReaderFigures(0, "x", two_cards_run=True).two_cards == "no stack reported, neither card read"


def _run_to_two_cards():
    run = Run(placements=1)
    run.at(0.05)
    run.feed(tap(0, b"\x04one\x00\x00\x80"))
    run.at(run.now + 1.01)
    run.at(run.now + 1.01)
    assert run.asked.ask == "two"
    return run


def test_two_cards_that_flip_fail_naming_the_seat_R_10_4():
    """A reader that taps the two cards in turn (a flip: at a game, a take-back) fails, named."""
    run = _run_to_two_cards()
    run.feed(tap(0, b"\x04aaa\x00\x00\x80"))
    run.feed(tap(0, b"\x04bbb\x00\x00\x80"))
    rep = run.m.report()
    assert not rep.per_reader[0].ok and not rep.ok
    text = rep.render()
    assert "RESULT: FAIL" in text and "reader of seat 0: two cards laid on it: flips: 2 taps of 2 cards" in text


def test_two_cards_without_a_stack_report_fail_naming_the_seat():
    run = _run_to_two_cards()
    run.feed(tap(0, b"\x04aaa\x00\x00\x80"))
    rep = run.m.report()
    assert "reader of seat 0: two cards laid on it: no stack reported: one card read" in rep.render()


def test_two_cards_reported_as_a_stack_pass():
    run = _run_to_two_cards()
    run.feed(LinkStack(BOOT, 1, 0, 2))
    run.feed(LinkStack(BOOT, 2, 0, 0))
    r = run.m.report().per_reader[0]
    assert r.ok and r.two_cards == "stack reported"


def test_a_stack_where_one_card_was_asked_for_fails_naming_the_seat():
    run = Run(placements=1)
    run.at(0.05)
    run.feed(tap(0, b"\x04one\x00\x00\x80"))
    run.feed(LinkStack(BOOT, 1, 0, 2))                 # a second card laid on it during the hold
    rep = run.m.report()
    assert rep.per_reader[0].stray_stacks == 1 and not rep.ok
    assert "reader of seat 0: two cards on the pad 1 time(s) where one was asked for: clear the pad" \
        in rep.render()


def test_polls_per_second_estimated_from_the_spread_of_latencies_without_counters():
    """N uniform landings over one lap spread over (N-1)/(N+1) of it: 3 latencies 40 ms apart -> 80 ms lap."""
    r = ReaderFigures(0, "seat 0", latencies_ms=[20.0, 40.0, 60.0])
    assert r.polls_per_s == pytest.approx(1000 / 80)
    assert ReaderFigures(0, "seat 0", latencies_ms=[20.0]).polls_per_s is None


def _measured_run(first_polls, last, placements=2):
    """A clean run begun with a snapshot carrying ``first_polls`` at Pico clock 1000 ms; at the end
    ``last`` (a Snapshot, or None: no answer) is fed to the measurement, which asked for it."""
    run = Run(placements=placements, first=snapshot(clock=1000, polls=first_polls))
    for reader in range(5):
        _walk_clean(run, reader, reader, placements)
    assert not run.m.done and run.asked_snapshots == 2          # the second one: the counters at the end
    if last is not None:
        run.feed(last)
    else:
        run.at(run.now + 10.01)                                 # connect_timeout: no snapshot came
    assert run.m.done
    return run, run.m.report()


def test_polls_per_second_measured_from_the_counters_of_two_snapshots():
    """Δcount / Δclock of the Pico, per reader; the window is printed beside the host's time."""
    run, rep = _measured_run((100, 100, 100, 100, 100), snapshot(clock=61000, polls=(1000, 1000, 999, 999, 400)))
    assert [r.polls_per_s for r in rep.per_reader] == pytest.approx([15.0, 15.0, 15 - 1 / 60, 15 - 1 / 60, 5.0])
    assert rep.per_reader[0].estimated_polls_per_s is not None      # the estimate is still there, not shown
    assert rep.window_s[0] == pytest.approx(60.0) and rep.window_s[1] == pytest.approx(run.now)
    text = rep.render()
    assert "polls/s measured: the firmware's poll counters over 60.0 s of the Pico's clock" in text
    assert " 15.0 " in text and "~" not in text


def test_without_counters_at_the_end_polls_per_second_is_the_labelled_estimate():
    for last in (None, snapshot(clock=61000, polls=(9,) * 5, boot=BOOT + 1), snapshot()):
        _, rep = _measured_run((1,) * 5, last)
        assert all(r.measured_polls_per_s is None for r in rep.per_reader)
        assert rep.per_reader[0].polls_per_s == rep.per_reader[0].estimated_polls_per_s is not None
        text = rep.render()
        assert "polls/s marked ~ estimated" in text and "~" + f"{rep.per_reader[0].polls_per_s:.1f}" in text
        assert any("polls/s estimated" in n for n in rep.notes)


def test_an_older_pico_gets_the_estimate_without_being_asked_again():
    run = Run(placements=2)
    for reader in range(5):
        _walk_clean(run, reader, reader, 2)
    assert run.m.done and run.asked_snapshots == 1
    assert "polls/s marked ~ estimated" in run.m.report().render()


def test_bad_arguments_are_refused():
    with pytest.raises(ValueError):
        Measurement(BOARD, 0)
    with pytest.raises(ValueError):
        Measurement(BOARD, 2, hold_s=0)


@pytest.mark.parametrize("argv", [["--measure", "0"], ["--measure", "3", "--hold", "0"],
                                  ["--measure", "3", "--lift-wait", "-1"]])
def test_the_command_refuses_bad_measure_options_before_opening_anything(argv, capsys):
    from shengji_table.cli import main
    assert main(["selftest", "--device", "/dev/nonexistent-tty", *argv]) == 2
    assert "--measure needs a whole number of placements from 1" in capsys.readouterr().err
