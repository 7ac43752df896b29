"""The judge's 炒地皮 rounds (R-7.4): the ``steals`` of a ``declare`` situation — the counters made
after the burial, in time order — ruled by :func:`.declare.run_steals` (``docs/judge.md``)."""
from __future__ import annotations

from collections.abc import Mapping

from .cards import trump_text
from .declare import Declaration, Standing, run_steals
from .judge_read import SituationError, read_cards, check_copies, read_seat, read_seat_cards
from .ruleset import Ruleset

__all__ = ["judge_steals"]


def judge_steals(sit: Mapping, ruleset: Ruleset, level: int, standing: Standing | None) -> dict:
    """``{"results", "standing", "kitty_holder"}`` for ``sit["steals"]``; the first holder is
    ``sit["dealer"]``, else (the first hand, R-6.6) the seat whose call stands."""
    raw = sit["steals"]
    if not isinstance(raw, list):
        raise SituationError("'steals' is a list of {\"seat\": n, \"cards\": [...]}, in time order")
    if not ruleset.kitty_stealing:
        raise SituationError("'steals' needs the option kitty_stealing (炒地皮, R-7.4)")
    if "dealer" in sit:
        dealer = read_seat(sit["dealer"], "'dealer'", ruleset)
    elif standing is not None:
        dealer = standing.seat
    else:
        raise SituationError("'steals' needs 'dealer' when no call stands")
    decls = []
    for i, d in enumerate(raw):
        where = f"steals[{i}]"
        d = read_seat_cards(d, where)
        cards = read_cards(d["cards"], f"{where}.cards")
        check_copies(ruleset, [cards], where)
        decls.append(Declaration(read_seat(d["seat"], f"{where}.seat", ruleset), cards))
    results, end, holder = run_steals(ruleset, level, standing, dealer, decls)
    return {
        "results": [{"valid": r.valid, "rule": r.rule, "kind": r.kind, "reason": r.reason} for r in results],
        "standing": None if end is None else {"seat": end.seat, "trump": trump_text(end.trump),
                                              "cards": [str(c) for c in end.cards]},
        "kitty_holder": holder,
    }
