"""Golden transcripts: every preset × both ways to know the hands, played by bots for fixed seeds.

A transcript is the match record (its canonical text) followed by every event with the effects it
produced and, after each hand, the match snapshot.  The files under ``tests/game/golden/`` were
written before the game layer was restructured; ``test_golden_records.py`` plays the same matches
and compares byte for byte, so a refactor that changes any behaviour shows up as a diff.

Rewrite them (only when a behaviour change is intended, and say so in the commit)::

    .venv/bin/python tests/game/golden.py --write
"""
from __future__ import annotations

import json
import pathlib
import sys

HERE = pathlib.Path(__file__).resolve().parent
GOLDEN = HERE / "golden"

# (preset, mode, bot kind, driver options): every preset in both modes with random bots, plus the
# heuristic bots and the open table's unscanned burial where they take other paths.
CASES = [(preset, mode, "random", {}) for preset in (
    "classic", "one-deck", "one-deck-two-colour", "three-decks", "four-decks", "find-friend-4",
    "find-friend-5", "find-friend-5-three-decks", "six-players", "three-players", "tournament")
    for mode in ("scanned", "open")]
CASES += [
    ("classic", "scanned", "heuristic", {}),
    ("classic", "open", "heuristic", {}),
    ("find-friend-5", "scanned", "heuristic", {}),
    ("three-players", "scanned", "heuristic", {}),
    ("classic", "open", "random", {"scan_burial": False}),
    ("three-players", "scanned", "random", {"counter_declarations": False}),
]
SEEDS = (11, 12, 13)


def name(preset: str, mode: str, bot: str, options: dict) -> str:
    extra = "".join(f"-{k}={v}" for k, v in sorted(options.items()))
    return f"{preset}-{mode}-{bot}{extra}.txt"


def transcript(preset: str, mode: str, bot: str, options: dict) -> str:
    from shengji_table.game.bots import make_bot
    from shengji_table.game.driver import Driver
    from shengji_table.game.match import Match
    from shengji_table.game.record import dumps, to_record
    from shengji_table.rules.ruleset import Ruleset

    rs = Ruleset.from_preset(preset)
    match = Match(rs, mode)
    lines: list[str] = []

    def on_event(event, effects):
        lines.append(json.dumps({"event": event.to_json(), "effects": [f.to_json() for f in effects]},
                                sort_keys=True, ensure_ascii=False))

    driver = Driver(match, [make_bot(bot, 100 + i) for i in range(rs.players)], on_event, **options)
    for seed in SEEDS:
        if match.over:
            break
        driver.play_hand(seed)
        lines.append(json.dumps({"snapshot": match.snapshot()}, sort_keys=True, ensure_ascii=False))
    record = dumps(to_record(match, seats=[f"bot:{bot}"] * rs.players))
    return record + "\n".join(lines) + "\n"


def main(argv: list[str]) -> int:
    if argv != ["--write"]:
        print(__doc__)
        return 2
    GOLDEN.mkdir(exist_ok=True)
    for case in CASES:
        (GOLDEN / name(*case)).write_text(transcript(*case), encoding="utf-8")
    print(f"wrote {len(CASES)} transcripts to {GOLDEN}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
