"""Find a friend (§9, seed 000 变异打法): the dealer calls a card and which copy; the friend is
revealed when that copy is played; a call the dealer fulfils finds no friend; a friend who never
appears leaves the dealer alone, and level rights follow 攻防双方总体级差权平等."""
from shengji_table.game import events as ev
from shengji_table.game.bots import make_bot
from shengji_table.game.driver import Driver
from shengji_table.game.effects import Announce, Refusal
from shengji_table.rules.cards import parse_card


def setup(table, hands, kitty="", **opts):
    t = table("find-friend-4", hands, kitty=kitty, **opts)
    t.draw(1)
    assert not isinstance(t.declare(0, "H2")[0], Refusal)
    t.draw()
    t.close()
    return t


def finish(t):
    bots = [make_bot("random", s) for s in range(t.rs.players)]
    Driver(t.match, bots).finish_hand()
    return t.match.summaries[-1]


def plain_spade(t, seat):
    return next(c for c in t.hand.hand_copies(seat) if c.card.suit == "S" and c.card.rank not in (2, 14))


def test_friend_revealed_by_the_second_copy(table):
    t = setup(table, {0: "H2 SK", 1: "SA", 3: "SA"})
    t.bury()
    assert t.hand.phase == "friend"
    out = t.ok(ev.CallFriend(0, ((parse_card("SA"), 2),)))
    assert any("the second ♠A" in e.text for e in out if isinstance(e, Announce))
    t.play(0, "SK")
    t.play(1, "SA")                              # the FIRST ♠A: no friend yet
    assert t.hand.friends == [] and t.hand.declarers() == (0,)
    t.ok(ev.Tap(2, plain_spade(t, 2)))
    out = t.play(3, "SA")                        # the second: seat 3 is the friend
    assert t.hand.friends == [3] and set(t.hand.declarers()) == {0, 3}
    assert any(isinstance(e, Announce) and "friend" in e.text for e in t.log[-1][1])
    summary = finish(t)
    assert set(summary["result"]["declarers"]) == {0, 3}


def test_friend_called_card_the_dealer_holds_finds_no_friend(table):
    t = setup(table, {0: "H2 SA SA"})
    t.bury()
    t.ok(ev.CallFriend(0, ((parse_card("SA"), 1),)))
    out = t.play(0, "SA", confirm=True)
    assert t.hand.friends == [] and t.hand.declarers() == (0,)
    assert any(isinstance(e, Announce) and "finds no friend" in e.text for e in out + t.log[-2][1])
    summary = finish(t)
    assert summary["result"]["declarers"] == [0]
    assert sorted(summary["result"]["attackers"]) == [1, 2, 3]


def test_friend_never_appears_dealer_alone_with_level_rights(table):
    """The called copy is buried: nobody can play it; the dealer plays 1 v 3 and, winning, goes up
    3 levels per level right (1 v 3: the dealer holds 3 rights, seed 000 变异打法)."""
    t = setup(table, {0: "H2"}, kitty="SA SA")
    t.bury()                                     # buries the kitty as dealt: both ♠A
    t.ok(ev.CallFriend(0, ((parse_card("SA"), 1),)))
    summary = finish(t)
    r = summary["result"]
    assert r["declarers"] == [0] and t.hand.friends == []
    k = r["declarers_levels"]
    change = summary["changes"].get("0")
    if k:
        assert change[2] == 3 * k                # the dealer's steps: 3 rights × k
    else:
        for seat in (1, 2, 3):                   # attackers share: 1 right each (they are the larger side)
            assert summary["changes"].get(str(seat), [0, 0, 0])[2] == r["attackers_levels"]


def test_friend_call_refusals(table):
    t = setup(table, {0: "H2"})
    t.bury()
    out = t.send(ev.CallFriend(1, ((parse_card("SA"), 1),)))
    assert isinstance(out[0], Refusal)
    out = t.send(ev.CallFriend(0, ((parse_card("SA"), 3),)))     # only 2 decks
    assert isinstance(out[0], Refusal) and "1 to 2" in out[0].reason
    out = t.send(ev.CallFriend(0, ()))
    assert isinstance(out[0], Refusal)


def test_friend_kitty_dug_with_j_drops_declarers(table):
    """Seed 000 变异打法 5: declarers at J, attackers dig the kitty with a single J and reach T →
    the dealer drops 4 and the friend 2 (6 in all); here the dealer is alone and drops all 6."""
    from shengji_table.game.hand import HandResult
    from shengji_table.rules.cards import parse_cards
    from shengji_table.rules.settle import Settlement
    t = table("find-friend-4", {0: "HJ"}, start_level="J")
    t.draw(1)
    t.declare(0, "HJ")
    t.draw()
    t.close()
    hand = t.hand
    # settle this hand as if the attackers (seat 1) won the last trick with a single ♣J and 170 points
    hand.result = HandResult(settlement=Settlement(170, 0, 2, True, "R-8.1", "test"), declarers=(0,),
                             attackers=(1, 2, 3), captured=170, kitty_points=0, multiplier=2, bonus=0,
                             penalty=0, last_winner=1, last_cards=tuple(parse_cards("CJ")), ruling=None,
                             at_fault=None, bid=None)
    out = t.match._settle_hand(hand)
    assert t.match.levels[0] == 11 - 6 and t.match.summaries[-1]["changes"]["0"][2] == -6
    assert any("goes down" in e.text for e in out if isinstance(e, Announce))
