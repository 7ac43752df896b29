"""Open play (hands not scanned): the engine checks what it can see, proves a revoke from later
evidence (R-10.2), and lets an opponent challenge a throw by showing a unit that beats it (R-4.3)."""
from shengji_table.game import events as ev
from shengji_table.game.effects import Announce, Refusal
from shengji_table.rules.cards import parse_copy


def cp(text):
    return parse_copy(text)


def open_table(table, **opts):
    t = table("classic", mode="open", **opts)
    t.ok(ev.Declare(0, (cp("S2#1"),)))           # seat 0 declares spades: trump ♠, level 2
    t.ok(ev.CloseDeclarations())
    t.ok(ev.TakeKitty(0))
    t.ok(ev.Confirm(0))                          # the burial is not scanned in open play
    assert t.hand.phase == "playing" and t.hand.trump == "S"
    return t


def tap(t, seat, *cards, confirm=False):
    out = []
    for c in cards:
        out = t.send(ev.Tap(seat, cp(c)))
    if confirm:
        out = t.send(ev.Confirm(seat))
    return out


def test_open_play_revoke_proven_by_later_evidence_r10_2(table):
    t = open_table(table)
    tap(t, 0, "H5#1", confirm=True)
    tap(t, 1, "C3#1")            # seat 1 does not follow hearts: accepted, nobody can tell yet
    tap(t, 2, "H6#1")
    tap(t, 3, "H7#1")
    assert t.hand.phase == "playing" and t.hand.tricks[-1][1] == 3
    tap(t, 3, "H8#1", confirm=True)
    tap(t, 0, "H9#1")
    out = tap(t, 1, "HK#1")      # ... and now plays a heart: it held one in trick 1
    res = t.hand.result
    assert t.hand.phase == "over" and res.ruling == "R-10.2" and res.at_fault == 1
    assert res.settlement.declarers_levels == 1 and not res.settlement.takeover   # an attacker revoked
    assert any(isinstance(e, Announce) and e.kind == "revoke" and "trick 1" in e.text for e in out)
    summary = t.match.summaries[-1]
    assert summary["levels_after"] == [3, 2, 3, 2]


def test_open_play_following_suit_is_no_revoke(table):
    t = open_table(table)
    tap(t, 0, "H5#1", confirm=True)
    for seat, c in ((1, "H3#1"), (2, "H6#1"), (3, "H7#1")):
        tap(t, seat, c)
    tap(t, 3, "C8#1", confirm=True)
    tap(t, 0, "C9#1")
    tap(t, 1, "HK#1")            # a heart on a club lead: no evidence of a revoke (it may be void)
    assert t.hand.phase == "playing" and t.hand.result is None


def test_open_play_declarer_revoke_gives_takeover(table):
    t = open_table(table)
    tap(t, 0, "D5#1", confirm=True)
    tap(t, 1, "D6#1")
    tap(t, 2, "C4#1")            # the dealer's partner discards a club on diamonds …
    tap(t, 3, "D7#1")
    tap(t, 3, "D8#1", confirm=True)
    tap(t, 0, "D9#1")
    tap(t, 1, "D10#1")
    tap(t, 2, "DJ#1")            # … and later shows a diamond
    res = t.hand.result
    assert res.ruling == "R-10.2" and res.at_fault == 2
    assert res.settlement.takeover and res.settlement.attackers_levels == 0
    assert t.match.dealer == 1   # attackers took over → the seat after the dealer


def test_open_play_throw_challenged_r4_3(table):
    t = open_table(table)
    out = tap(t, 0, "HA#1", "HK#1", confirm=True)
    assert any(isinstance(e, Announce) and e.kind == "throw" for e in out)
    # the dealer's partner cannot challenge, and a card that beats nothing is refused
    out = t.send(ev.Challenge(2, (cp("HA#2"),)))
    assert isinstance(out[0], Refusal) and "opponent" in out[0].reason
    out = t.send(ev.Challenge(1, (cp("H3#1"),)))
    assert isinstance(out[0], Refusal) and out[0].rule == "R-4.2"
    out = t.send(ev.Challenge(1, (cp("HA#2"),)))  # the other ♥A beats the ♥K
    assert not isinstance(out[0], Refusal)
    assert [c.card for c in t.hand.trick[0][1]] == [cp("HK#1").card]   # forced: the beatable unit
    assert cp("HA#1") not in t.hand.played                              # back in the leader's hand
    assert t.hand.lead_count() == 1
    tap(t, 1, "H3#1")
    assert len(t.hand.trick) == 2


def test_open_play_throw_stands_when_window_closes(table):
    t = open_table(table)
    tap(t, 0, "HA#1", "HK#1", confirm=True)
    tap(t, 1, "H3#1", "H4#1")                   # the next play closes the challenge window
    out = t.send(ev.Challenge(3, (cp("HA#2"),)))
    assert isinstance(out[0], Refusal) and "no throw open" in out[0].reason
    assert len(t.hand.trick[0][1]) == 2


def test_open_play_wrong_kitty_size_r10_3(table):
    """Open play: the kitty is scanned after the last trick; a wrong size ends the hand against the
    declarers (R-10.3)."""
    t = open_table(table)
    ranks = ["3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]
    groups = [[f"{s}{r}#{d}" for r in ranks for d in (1, 2)] for s in "HCD"]
    groups.append([f"S{r}#{d}" for r in ranks for d in (1, 2)] + ["LJ#1", "LJ#2", "BJ#1", "BJ#2"])
    tricks = [g[i:i + 4] for g in groups for i in range(0, len(g), 4)][:25]
    for cards in tricks:
        lead = t.hand.turn
        for k, c in enumerate(cards):
            tap(t, (lead + k) % 4, c, confirm=(k == 0))
    assert t.hand.phase == "over" and t.hand.result is None          # waiting for the kitty
    out = t.send(ev.Deal(seed=1))
    assert isinstance(out[0], Refusal)                                # not settled yet
    t.send(ev.RevealKitty((cp("S2#2"), cp("H2#1"))))                 # 2 cards, not 8
    res = t.hand.result
    assert res.ruling == "R-10.3" and res.at_fault == 0
    assert res.settlement.takeover and t.match.dealer == 1


def test_open_play_kitty_revealed_settles_with_bonus_r7_3(table):
    t = open_table(table)
    ranks = ["3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]
    groups = [[f"{s}{r}#{d}" for r in ranks for d in (1, 2)] for s in "HCD"]
    groups.append([f"S{r}#{d}" for r in ranks for d in (1, 2)] + ["LJ#1", "LJ#2", "BJ#1", "BJ#2"])
    tricks = [g[i:i + 4] for g in groups for i in range(0, len(g), 4)][:25]
    for cards in tricks:
        lead = t.hand.turn
        for k, c in enumerate(cards):
            tap(t, (lead + k) % 4, c, confirm=(k == 0))
    kitty = ("S2#2", "H2#1", "H2#2", "C2#1", "C2#2", "D2#1", "D2#2", "S2#1")
    t.ok(ev.RevealKitty(tuple(cp(c) for c in kitty)))
    res = t.hand.result
    assert res.ruling is None and res.kitty_points == 0
    assert res.settlement.attackers_points == res.captured + res.bonus


def test_open_play_revoke_proven_by_a_later_lead_r10_2(table):
    t = open_table(table)
    tap(t, 0, "H5#1", confirm=True)
    tap(t, 1, "S3#1")            # seat 1 ruffs the heart lead (claims to be void in hearts) …
    tap(t, 2, "H6#1")
    tap(t, 3, "H7#1")
    assert t.hand.tricks[-1][1] == 1
    tap(t, 1, "HK#1", confirm=True)   # … and then leads a heart
    res = t.hand.result
    assert res is not None and res.ruling == "R-10.2" and res.at_fault == 1
