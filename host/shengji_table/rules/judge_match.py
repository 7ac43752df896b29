"""The judge's queries beyond one trick: the match, the deal, three players' bidding, find a friend.

Each query is a function ``(situation, ruleset) -> ruling`` registered in :data:`QUERIES`, with its
keys in :data:`KEYS` (besides ``query``, ``preset``, ``options``); ``rules.judge`` dispatches to them
and the contract is in ``docs/judge.md``.  They reuse the pure rules: ``settle`` and ``levels``
(level changes, next dealer), ``bidding`` (bids, 反牌's swap), ``friend`` (the called copies).
"""
from __future__ import annotations

from collections.abc import Mapping

from .bidding import BIDDING_RULE, COUNTER_SWAP, BidState, bid_step, deal_sizes, named_standing
from .cards import level_text, trump_text
from .declare import Declaration, check_declaration
from .friend import RULE as FRIEND_RULE, FriendTracker, check_calls
from .judge_read import (SituationError, check_copies, read_cards, read_int, read_level, read_match_level,
                         read_object, read_seat, read_seat_cards, read_trump)
from .levels import DEAL_RULE, apply_settlement, pass_deal
from .judge_transfer import judge_transfers
from .ruleset import Ruleset
from .settle import JOKER_LEVEL, Settlement, settle

__all__ = ["QUERIES", "KEYS"]


# ---- match ------------------------------------------------------------------------------------

def _level_out(level: int) -> str:
    return "jokers" if level == JOKER_LEVEL else level_text(level)


def _match_levels(sit: Mapping, ruleset: Ruleset, declarers: list) -> list:
    """Each seat's level: a list in seat order, or (fixed sides) ``{"declarers": L, "attackers": L}``."""
    raw = sit.get("levels")
    n = ruleset.players
    if isinstance(raw, Mapping):
        if ruleset.teams == "find-friend" or set(raw) != {"declarers", "attackers"}:
            raise SituationError("'levels' by side is {\"declarers\": L, \"attackers\": L} (not for find a friend: "
                                 "give a list, one level per seat)")
        dec = read_match_level(raw["declarers"], "levels.declarers", ruleset)
        att = read_match_level(raw["attackers"], "levels.attackers", ruleset)
        return [dec if s in declarers else att for s in range(n)]
    if not isinstance(raw, list) or len(raw) != n:
        raise SituationError(f"'levels' is a list of {n} levels, one per seat (e.g. [\"5\", \"A\", …]), "
                             "or by side {\"declarers\": L, \"attackers\": L}")
    return [read_match_level(v, f"levels[{i}]", ruleset) for i, v in enumerate(raw)]


def _match_declarers(sit: Mapping, ruleset: Ruleset, dealer: int) -> list:
    n = ruleset.players
    if ruleset.teams == "fixed":
        if "declarers" in sit:
            raise SituationError("'declarers' is only for find a friend; fixed sides follow from the dealer")
        return [s for s in range(n) if (s - dealer) % 2 == 0]
    if ruleset.teams == "solo":
        return [dealer]
    raw = sit.get("declarers")
    if not isinstance(raw, list) or not raw:
        raise SituationError("find a friend: give 'declarers', the dealer first, then the friends found")
    declarers = [read_seat(s, "'declarers'", ruleset) for s in raw]
    if declarers[0] != dealer or len(set(declarers)) != len(declarers) or len(declarers) == n:
        raise SituationError("'declarers' lists the dealer first, each seat once, and leaves somebody to attack")
    return declarers


def _match_settlement(sit: Mapping, ruleset: Ruleset) -> Settlement:
    """The hand's result: the attackers' total points (and the bid), or a settlement given outright."""
    if ("attackers_points" in sit) == ("settlement" in sit):
        raise SituationError("give the hand's result: 'attackers_points' (their total, kitty bonus and "
                             "penalties included) or 'settlement' {\"declarers_levels\", \"attackers_levels\", "
                             "\"takeover\"}")
    if "settlement" in sit:
        raw = read_object(sit["settlement"], "'settlement'")
        if set(raw) - {"declarers_levels", "attackers_levels", "takeover"} or "takeover" not in raw:
            raise SituationError("'settlement' is {\"declarers_levels\": n, \"attackers_levels\": n, "
                                 "\"takeover\": bool}")
        dec, att = read_int(raw, "declarers_levels"), read_int(raw, "attackers_levels")
        if not isinstance(raw["takeover"], bool) or dec < 0 or att < 0 or (dec and att):
            raise SituationError("'settlement': levels are 0 or more, one side at most goes up, takeover is true/false")
        return Settlement(0, dec, att, raw["takeover"], "R-8", "the settlement as given.")
    points = read_int(sit, "attackers_points")
    bid = read_int(sit, "bid", required=False)
    if ruleset.bidding and (bid is None or bid <= 0):
        raise SituationError("a bidding hand (three players) is settled against the winning bid: give 'bid' (> 0)")
    if not ruleset.bidding and bid is not None:
        raise SituationError(f"preset {ruleset.preset!r} has no bidding: 'bid' does not apply")
    return settle(ruleset, points, bid=bid)


def judge_match(sit: Mapping, ruleset: Ruleset) -> dict:
    """Levels before, the hand's result → level changes (必打, A, beyond A, 级数不浪费, floor 2) and
    the next dealer (R-8.4, R-8.5, §9)."""
    if "dealer" not in sit:
        raise SituationError("'dealer' is missing: the dealer's seat")
    dealer = read_seat(sit["dealer"], "'dealer'", ruleset)
    declarers = _match_declarers(sit, ruleset, dealer)
    attackers = [s for s in range(ruleset.players) if s not in declarers]
    levels = _match_levels(sit, ruleset, declarers)
    s = _match_settlement(sit, ruleset)
    last = read_seat(sit["last_trick_seat"], "'last_trick_seat'", ruleset) if "last_trick_seat" in sit else None
    first_seat = read_seat(sit["first_seat"], "'first_seat'", ruleset) if "first_seat" in sit else 0
    try:
        step = apply_settlement(ruleset, levels, s, declarers, attackers, last_trick_seat=last)
    except ValueError as exc:
        raise SituationError(str(exc)) from None
    nxt, nxt_first = pass_deal(ruleset, dealer, s.takeover, first_seat)
    out: dict = {
        "settlement": {"declarers_levels": s.declarers_levels, "attackers_levels": s.attackers_levels,
                       "takeover": s.takeover, "rule": s.rule, "reason": s.reason},
        "declarers": declarers, "attackers": attackers,
        "levels_before": [_level_out(v) for v in levels], "levels_after": [_level_out(v) for v in step.levels],
        "changes": {str(seat): {"from": _level_out(a), "to": _level_out(b), "steps": k, "reason": why}
                    for seat, (a, b, k, why) in sorted(step.changes.items())},
        "over": bool(step.winners), "winners": list(step.winners),
        "next_dealer": None if step.winners else nxt, "rule": "R-8.4",
    }
    if step.leftovers:
        out["leftovers"] = {str(k): v for k, v in sorted(step.leftovers.items())}
        out["leftovers_reason"] = ("级数不浪费 (§9): levels a must-defend level stopped may be passed to team-mates "
                                   "(up, not past a must-defend level) or taken off opponents (down, not below 2)")
    out["level"] = _level_out(levels[dealer])                # R-2.6: the dealer's level is the level card
    after = [_level_out(v) for v in step.levels]
    if "transfers" in sit:                                      # 级数不浪费: passes and refusals (§9)
        winners = declarers if s.declarers_levels else attackers
        out["transfers"] = judge_transfers(sit, ruleset, step, declarers, attackers, winners)
        after = out["transfers"]["levels_after"]
    out["next_level"] = None if step.winners or nxt is None else after[nxt]
    if ruleset.bidding and not step.winners:
        out["next_first_bidder"] = nxt_first
        out["deal_rule"] = BIDDING_RULE
    else:
        out["deal_rule"] = DEAL_RULE
    return out


# ---- deal and bidding --------------------------------------------------------------------------

def judge_deal(sit: Mapping, ruleset: Ruleset) -> dict:
    """Hand and kitty sizes of the preset and player count (R-1.1, R-7.1)."""
    out = deal_sizes(ruleset)
    out["rule"] = "R-7.1"
    out["reason"] = (f"{out['cards']} cards ({ruleset.decks} deck(s)) less a kitty of {ruleset.kitty_size} "
                     f"deal {out['hand_size']} to each of {ruleset.players} players.")
    if ruleset.bidding:
        out["bidding"] = {"rule": BIDDING_RULE, "counter_swap": COUNTER_SWAP,
                          "reason": "the seats bid for the deal; a counter-declarer (反牌) swaps "
                                    f"{COUNTER_SWAP} kitty cards drawn at random."}
    return out


def _bid_value(value, where: str):
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int):
        raise SituationError(f"{where} is a number of points, or null to pass, not {value!r}")
    return value


def _run_bids(sit: Mapping, ruleset: Ruleset) -> tuple:
    raw = sit.get("bids")
    if not isinstance(raw, list):
        raise SituationError("'bids' is a list of {\"seat\": n, \"bid\": points | null (a pass)}, in time order")
    first = read_seat(sit["first_seat"], "'first_seat'", ruleset) if "first_seat" in sit else 0
    state = BidState.start(ruleset, first)
    results = []
    for i, b in enumerate(raw):
        d = read_object(b, f"bids[{i}]")
        if set(d) != {"seat", "bid"}:
            raise SituationError(f"bids[{i}] is {{\"seat\": n, \"bid\": points | null}}")
        seat = read_seat(d["seat"], f"bids[{i}].seat", ruleset)
        points = _bid_value(d["bid"], f"bids[{i}].bid")
        state, refused = bid_step(ruleset, state, seat, points)
        if refused is None:
            what = "passes" if points is None else f"bids {points}"
            results.append({"seat": seat, "bid": points, "valid": True, "rule": BIDDING_RULE,
                            "reason": f"seat {seat} {what}."})
        else:
            results.append({"seat": seat, "bid": points, "valid": False, "rule": refused[0], "reason": refused[1]})
    return state, results


def _counters(sit: Mapping, ruleset: Ruleset, dealer: int) -> list:
    """反牌 (§9): counter-declarations against the dealer's named trump, in time order."""
    level = read_level(sit)
    named = read_trump(sit, ruleset)
    standing = named_standing(ruleset, level, dealer, named)
    raw = sit.get("counters")
    if not isinstance(raw, list):
        raise SituationError("'counters' is a list of {\"seat\": n, \"cards\": [...]}, in time order")
    out = []
    for i, d in enumerate(raw):
        d = read_seat_cards(d, f"counters[{i}]")
        seat = read_seat(d["seat"], f"counters[{i}].seat", ruleset)
        cards = read_cards(d["cards"], f"counters[{i}].cards")
        check_copies(ruleset, [cards], f"counters[{i}]")
        if seat == dealer and standing.seat == dealer:
            out.append({"seat": seat, "valid": False, "rule": "§9 反牌", "kind": None,
                        "reason": "the dealer named trump; the dealer may only answer another seat's counter"})
            continue
        res = check_declaration(ruleset, level, standing, Declaration(seat, cards))
        entry = {"seat": seat, "valid": res.valid, "rule": res.rule, "kind": res.kind, "reason": res.reason}
        if res.valid and res.standing is not None:
            standing = res.standing
            entry["trump"] = trump_text(standing.trump)
            if seat != dealer:
                entry["swap"] = {"cards": COUNTER_SWAP, "rule": "§9 反牌",
                                 "reason": f"seat {seat} draws {COUNTER_SWAP} kitty cards at random and lays "
                                           f"{COUNTER_SWAP} back (隨機換{COUNTER_SWAP}張)."}
        out.append(entry)
    return out


def judge_bidding(sit: Mapping, ruleset: Ruleset) -> dict:
    """Three players: the bids in order (lower each time, a pass is final, the lowest bid deals) and,
    with ``trump`` named by the dealer, the counter-declarations (反牌) and their six-card swap."""
    if not ruleset.bidding:
        raise SituationError(f"preset {ruleset.preset!r} has no bidding (try preset three-players)")
    state, results = _run_bids(sit, ruleset)
    out: dict = {"results": results, "bid": state.bid, "dealer": state.dealer,
                 "over": state.dealer is not None, "turn": None if state.dealer is not None else state.turn}
    if "counters" in sit:
        if state.dealer is None:
            raise SituationError("'counters' come after the bidding: the bids given do not decide a dealer")
        out["counters"] = _counters(sit, ruleset, state.dealer)
    elif "trump" in sit or "level" in sit:
        raise SituationError("'trump' and 'level' go with 'counters' (the dealer's named trump, the dealer's level)")
    return out


# ---- find a friend -----------------------------------------------------------------------------

def _friend_calls(sit: Mapping, ruleset: Ruleset) -> tuple:
    raw = sit.get("calls")
    if not isinstance(raw, list):
        raise SituationError("'calls' is a list of {\"card\": \"HA\", \"copy\": 2} (the second ♥A)")
    calls = []
    for i, c in enumerate(raw):
        d = read_object(c, f"calls[{i}]")
        if set(d) != {"card", "copy"}:
            raise SituationError(f"calls[{i}] is {{\"card\": \"HA\", \"copy\": n}}")
        card = read_cards([d["card"]], f"calls[{i}].card")[0]
        calls.append((card, read_int(d, "copy")))
    why = check_calls(ruleset, calls)
    if why is not None:
        raise SituationError(f"'calls': {why}")
    return tuple(calls)


def _friend_tricks(sit: Mapping, ruleset: Ruleset) -> list:
    raw = sit.get("tricks")
    if not isinstance(raw, list):
        raise SituationError("'tricks' is a list of tricks, each a list of {\"seat\": n, \"cards\": [...]} in order")
    tricks = []
    for t, trick in enumerate(raw):
        if not isinstance(trick, list) or not trick or len(trick) > ruleset.players:
            raise SituationError(f"tricks[{t}] is a non-empty list of at most {ruleset.players} plays")
        plays = []
        for i, p in enumerate(trick):
            d = read_seat_cards(p, f"tricks[{t}][{i}]")
            plays.append((read_seat(d["seat"], f"tricks[{t}][{i}].seat", ruleset),
                          read_cards(d["cards"], f"tricks[{t}][{i}].cards")))
        if len({seat for seat, _ in plays}) != len(plays):
            raise SituationError(f"tricks[{t}]: a seat plays once in a trick")
        tricks.append(plays)
    check_copies(ruleset, [cards for trick in tricks for _, cards in trick], "the tricks")
    return tricks


def judge_friend(sit: Mapping, ruleset: Ruleset) -> dict:
    """Find a friend in play: the dealer's calls (card and copy), the tricks played so far → which
    trick reveals each friend and the teams after it (§9)."""
    if ruleset.teams != "find-friend":
        raise SituationError(f"preset {ruleset.preset!r} does not find a friend (try find-friend-4)")
    if "dealer" not in sit:
        raise SituationError("'dealer' is missing: the dealer's seat")
    dealer = read_seat(sit["dealer"], "'dealer'", ruleset)
    calls = _friend_calls(sit, ruleset)
    tracker = FriendTracker(calls, dealer)
    answers = []
    for t, trick in enumerate(_friend_tricks(sit, ruleset)):
        for seat, cards in trick:
            for a in tracker.observe_faces(seat, cards):
                declarers = [dealer] + list(tracker.friends)
                answers.append({"trick": t, "seat": seat, "card": str(a.card), "copy": a.nth, "found": a.found,
                                "declarers": declarers,
                                "attackers": [s for s in range(ruleset.players) if s not in declarers],
                                "reason": (f"seat {seat} plays the called copy and joins the dealer" if a.found else
                                           f"seat {seat} is already on the dealer's side: this call finds nobody")})
    declarers = [dealer] + list(tracker.friends)
    open_calls = [{"card": str(c), "copy": n} for c, n in calls if (c, n) not in tracker.spent]
    return {"answers": answers, "open_calls": open_calls, "declarers": declarers,
            "attackers": [s for s in range(ruleset.players) if s not in declarers],
            "teams_known": not open_calls, "rule": FRIEND_RULE}


QUERIES = {"match": judge_match, "deal": judge_deal, "bidding": judge_bidding, "friend": judge_friend}
KEYS = {
    "match": ("dealer", "levels", "declarers", "attackers_points", "bid", "settlement", "last_trick_seat",
              "first_seat", "transfers"),
    "deal": (),
    "bidding": ("bids", "first_seat", "level", "trump", "counters"),
    "friend": ("dealer", "calls", "tricks"),
}
