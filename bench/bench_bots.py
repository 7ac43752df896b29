"""How long a bot takes to decide, per preset: card plays of whole hands, bots only.

The hands are played out without the game layer (views built by ``tests/game/scenario.py``), so
the figures are the bots' own share of a simulated hand; ``bench_game`` measures whole hands per
second.
The random bot must stay a small share of the game target (≥ 100 classic hands/s, ~100 plays a
hand, so ≤ 100 µs a play in total for game and bot together).
"""
import pathlib
import random
import statistics
import sys
import time

from shengji_table.game.bots import make_bot
from shengji_table.game.bots.sampling import take_cards
from shengji_table.game.view import TrickView
from shengji_table.rules.order import TrumpOrder
from shengji_table.rules.ruleset import PRESETS, Ruleset
from shengji_table.rules.throw import check_throw
from shengji_table.rules.trick import Play, trick_points, winning_index

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1] / "tests" / "game"))
from scenario import bury_view, play_view, random_deal  # noqa: E402  (a test fixture: hands typed in)

HANDS = 6
STRONG_HANDS = 1          # the strong bot searches: ~100 times dearer a play, so fewer hands
STRONG_PRESETS = ("classic", "four-decks", "six-players")
PLAY_CLOCK_S = 15.0       # the table's play clock (docs/house-rules.md); the aim is under 1 s


def time_hand(ruleset, kind, seed, times, clock=time.perf_counter):
    rng = random.Random(seed)
    hands, kitty = random_deal(ruleset, rng)
    level, trump = rng.randint(2, 14), rng.choice(["S", "H", "C", "D", None])
    order = TrumpOrder(ruleset, level, trump)
    bots = [make_bot(kind, seed * 10 + s) for s in range(ruleset.players)]
    dealer = 0
    if ruleset.kitty_size:
        view = bury_view(ruleset, level, trump, dealer, hands[dealer] + kitty)
        buried = bots[dealer].choose(view).cards
        hands[dealer] = take_cards(list(view.hand), buried)
    leader, finished = dealer, []
    while hands[leader]:
        plays = []
        for k in range(ruleset.players):
            seat = (leader + k) % ruleset.players
            view = play_view(ruleset, level, trump, seat, hands[seat], plays, tricks=finished,
                             dealer=dealer, order=order)
            t = clock()
            cards = tuple(bots[seat].choose(view).cards)
            times.append(clock() - t)
            if not plays:
                check = check_throw(cards, {s: hands[s] for s in hands if s != seat}, order)
                if not check.ok:
                    cards = check.forced
            hands[seat] = take_cards(hands[seat], cards)
            plays.append(Play(seat, cards))
        w = winning_index(plays, order)
        finished.append(TrickView(tuple(plays), plays[w].seat, trick_points(plays)))
        leader = plays[w].seat


def main():
    print(f"{'preset':28s} {'bot':10s} {'plays':>6s} {'mean µs':>9s} {'p99 µs':>9s} {'max µs':>9s}")
    for preset in PRESETS:
        rs = Ruleset.from_preset(preset)
        for kind in ("random", "heuristic"):
            times = []
            for seed in range(HANDS):
                time_hand(rs, kind, seed, times)
            times.sort()
            p99 = times[min(len(times) - 1, int(0.99 * len(times)))]
            print(f"{preset:28s} {kind:10s} {len(times):6d} {statistics.mean(times) * 1e6:9.1f} "
                  f"{p99 * 1e6:9.1f} {times[-1] * 1e6:9.1f}", flush=True)
    # CPU time: on a shared machine the wall time of a search mostly measures the other processes
    print(f"\nstrong bot, CPU time per play (target: within the {PLAY_CLOCK_S:g} s play clock; aim < 1 s)")
    for preset in STRONG_PRESETS:
        times = []
        for seed in range(STRONG_HANDS):
            time_hand(Ruleset.from_preset(preset), "strong", seed, times, clock=time.process_time)
        times.sort()
        p99 = times[min(len(times) - 1, int(0.99 * len(times)))]
        print(f"{preset:28s} {'strong':10s} {len(times):6d} mean {statistics.mean(times) * 1e3:7.1f} ms, "
              f"p99 {p99 * 1e3:7.1f} ms, max {times[-1] * 1e3:7.1f} ms", flush=True)


if __name__ == "__main__":
    main()
