"""A human-readable text export of a match, in the spirit of PBN for bridge.

Each hand is a block of header tags ``[Tag "value"]`` followed by its tricks, one per line, and its
settlement.  Example::

    [Event "shengji-table match"]
    [Preset "classic"]
    [Players "4"]
    [Decks "2"]
    [Seats "0 bot:heuristic; 1 bot:heuristic; 2 bot:heuristic; 3 bot:heuristic"]

    [Hand "1"]
    [Dealer "2"]
    [Level "2"]
    [Trump "H"]
    [Declarers "0 2"]
    [Hand0 "BJ LJ H2 ..."]          (as drawn, faces in rules order)
    [Kitty "S3 D4 ..."]             (as dealt)
    [Buried "C3 C4 ..."]
    [Declarations "2: H2; 1: D2 D2"]
    [Friend "HA 2"]                  (find-a-friend only)
    [Counter "1: drew ...; laid ..."] (three players: a counter-declarer's swap with the kitty)
    {Trick 1} 2: SA | 3: S3 | 0: S4 | 1: S9 -> 2 +0
    ...
    [Result "attackers 85: declarers +0, attackers +0, take over"]
    [Rule "R-8.1"]
    [Transfer "0 -> 2: up 1, 10 -> J"]   (级数不浪费, when levels were passed on)
    [Levels "2 3 2 3"]

Hidden information is all there: an export is for the record and the referee, not for players.
"""
from __future__ import annotations

from ..rules.cards import level_text

__all__ = ["export_text"]


def _tag(name, value) -> str:
    return f'[{name} "{value}"]\n'


def _cards(copies, order=None) -> str:
    faces = [c.card for c in copies]
    if order is not None:
        faces = order.sorted(faces)
    return " ".join(str(f) for f in faces)


def _match_tags(match, seats) -> list:
    """The match's header: event, preset, players, decks, mode and (when known) the seats."""
    rs = match.ruleset
    out = [_tag("Event", "shengji-table match"), _tag("Preset", rs.preset), _tag("Players", rs.players),
           _tag("Decks", rs.decks), _tag("Mode", match.mode)]
    if seats:
        out.append(_tag("Seats", "; ".join(f"{i} {s}" for i, s in enumerate(seats))))
    return out


def _deal_tags(hand) -> list:
    """A hand's header, up to the play: who dealt at which level, the trump, the hands as drawn,
    the kitty, the calls and (three players) the counter-declarer's swaps."""
    out = [_tag("Hand", hand.number),
           _tag("Dealer", "?" if hand.dealer is None else hand.dealer),
           _tag("Level", level_text(hand.level)),
           _tag("Trump", "?" if hand.order is None else ("NT" if hand.trump is None else hand.trump)),
           _tag("Declarers", " ".join(map(str, hand.declarers())))]
    for seat in range(hand.players):
        if hand.dealt[seat]:
            out.append(_tag(f"Hand{seat}", _cards(hand.dealt[seat], hand.order)))
    if hand.dealt_kitty:
        out.append(_tag("Kitty", _cards(hand.dealt_kitty, hand.order)))
    if hand.buried:
        out.append(_tag("Buried", _cards(hand.buried, hand.order)))
    if hand.declarations:
        out.append(_tag("Declarations", "; ".join(f"{d.seat}: {_cards(c)}" for d, c in hand.declarations)))
    if hand.bids:
        out.append(_tag("Bids", "; ".join(f"{s}: {'pass' if p is None else p}" for s, p in hand.bids)))
    for s, drawn, laid in hand.exchanges:       # three players: a counter-declarer's swap (反牌)
        out.append(_tag("Counter", f"{s}: drew {_cards(drawn, hand.order) or '?'}; "
                                   f"laid {_cards(laid, hand.order)}"))
    if hand.friend_calls:
        out.append(_tag("Friend", "; ".join(f"{c} {n}" for c, n in hand.friend_calls)))
    return out


def _play_lines(hand) -> list:
    """A hand's tricks, one line each, then the plays taken back and the penalties."""
    out = []
    for i, (plays, winner, pts) in enumerate(hand.tricks, 1):
        body = " | ".join(f"{s}: {_cards(cards)}" for s, cards in plays)
        out.append(f"{{Trick {i}}} {body} -> {winner} +{pts}\n")
    for s, cards, reason in hand.undone:
        out.append(_tag("Undone", f"{s}: {' '.join(map(str, cards))} ({reason})"))
    for s, pts, reason in hand.penalties:
        out.append(_tag("Penalty", f"{s}: {pts} ({reason})"))
    return out


def _result_text(r) -> str:
    """The Result tag's value: the attackers' points and who goes up."""
    up = []
    if r["declarers_levels"]:
        up.append(f"declarers +{r['declarers_levels']}")
    if r["attackers_levels"]:
        up.append(f"attackers +{r['attackers_levels']}")
    if r["takeover"]:
        up.append("take over")
    return f"attackers {r['attackers_points']}: " + (", ".join(up) or "nobody moves")


def _settlement_tags(summary) -> list:
    """A settled hand's result: points and levels, the kitty bonus, the rule and its reason, the
    levels passed on (级数不浪费) and everybody's levels afterwards."""
    r = summary["result"]
    out = [_tag("Result", _result_text(r))]
    if r["bonus"]:
        out.append(_tag("KittyBonus", f"{r['kitty_points']} x {r['multiplier']} = {r['bonus']}"))
    out.append(_tag("Rule", r["rule"]))
    out.append(_tag("Reason", r["reason"].replace('"', "'")))
    for giver, target, k, up, before, after, refused in summary.get("transfers", ()):
        what = f"{giver} -> {target}: {'up' if up else 'down'} {k}, {level_text(before)} -> {level_text(after)}"
        out.append(_tag("Transfer", what + (" (refused)" if refused else "")))
    out.append(_tag("Levels", " ".join(level_text(lv) if lv <= 14 else "jokers"
                                       for lv in summary["levels_after"])))
    return out


def export_text(match, seats=None) -> str:
    """The whole match as PBN-like text (see the module doc)."""
    out = _match_tags(match, seats)
    summaries = {s["number"]: s for s in match.summaries}
    for hand in match.played_hands:
        out.append("\n")
        out += _deal_tags(hand)
        out += _play_lines(hand)
        summary = summaries.get(hand.number)
        if summary is not None:
            out += _settlement_tags(summary)
    if match.over:
        out.append("\n" + _tag("Winners", " ".join(map(str, match.winners))))
    return "".join(out)
