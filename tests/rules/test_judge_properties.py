"""Property tests (hypothesis) for the outcome rules and the judge's robustness.

* R-8: settlement is monotone in the attackers' points for every preset (more points never help the
  declarers, never cost the attackers).
* R-6: along any sequence of calls, every accepted call is strictly stronger than the one it
  replaces, and the standing call is the last accepted one.
* The judge: any JSON value at all gives a ruling or a SituationError — never another exception.
"""
import json

from hypothesis import given
from hypothesis import strategies as st

from shengji_table.rules.cards import ALL_FACES
from shengji_table.rules.declare import Declaration, run_declarations
from shengji_table.rules.judge import SituationError, judge
from shengji_table.rules.ruleset import PRESETS, Ruleset
from shengji_table.rules.settle import settle

FACES = [str(c) for c in ALL_FACES]
PLAIN_PRESETS = sorted(p for p in PRESETS if not PRESETS[p].get("bidding"))


def _rank(s):
    """A total order of outcomes from the declarers' point of view (higher = better for them)."""
    return (s.declarers_levels, -int(s.takeover), -s.attackers_levels)


@given(st.sampled_from(PLAIN_PRESETS), st.sampled_from(["classic", "takeover-plus-one", "one-deck-hundred"]),
       st.integers(-200, 900), st.integers(0, 300))
def test_r8_settlement_is_monotone_in_points(preset, scoring, p, extra):
    """R-8.1–8.3: P ≤ P' ⇒ the declarers do no better with P' than with P."""
    rs = Ruleset.from_preset(preset, scoring=scoring)
    a, b = settle(rs, p), settle(rs, p + extra)
    assert _rank(b) <= _rank(a)
    assert not (a.declarers_levels and a.attackers_levels)


@given(st.integers(1, 400), st.integers(-50, 900), st.integers(0, 300))
def test_s9_bidding_settlement_is_monotone(bid, p, extra):
    """§9 bidding: the same monotonicity against any bid."""
    rs = Ruleset.from_preset("three-players")
    assert _rank(settle(rs, p + extra, bid=bid)) <= _rank(settle(rs, p, bid=bid))


LADDER_CARDS = ["S10", "H10", "C10", "D10", "LJ", "BJ"]


@st.composite
def calls(draw):
    n = draw(st.integers(1, 8))
    out = []
    for _ in range(n):
        face = draw(st.sampled_from(LADDER_CARDS))
        out.append(Declaration(draw(st.integers(0, 3)), [face] * draw(st.integers(1, 4))))
    return out


@given(st.sampled_from(["classic", "one-deck", "three-decks", "four-decks"]), st.booleans(), st.booleans(), calls())
def test_r6_accepted_calls_strictly_climb_the_ladder(preset, self_overcall, suit_order, decls):
    """R-6.1–6.5: each accepted call is strictly stronger than the call it replaces; the standing call
    is the last accepted one; with self_overcall off nobody changes their own suit."""
    rs = Ruleset.from_preset(preset, self_overcall=self_overcall, suit_order_overcall=suit_order)
    results, standing = run_declarations(rs, 10, decls)
    prev = None
    last_valid = None
    for d, r in zip(decls, results):
        if r.valid:
            if prev is not None:
                assert r.standing.strength > prev.strength
                if not self_overcall and d.seat == prev.seat:
                    assert r.standing.trump == prev.trump
            prev = last_valid = r.standing
        else:
            assert r.standing is prev
    assert standing is last_valid


json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-5, 60) | st.sampled_from(FACES + ["10", "S", "NT", "x", "#"]),
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(
        st.sampled_from(["query", "preset", "options", "level", "trump", "hands", "trick", "seat", "cards",
                         "declarations", "dealer", "attackers_points", "kitty", "last_trick", "0", "1"]),
        inner, max_size=6),
    max_leaves=20)


@given(json_values)
def test_judge_any_json_gives_a_ruling_or_a_situation_error(value):
    """The judge never fails with anything but SituationError, whatever JSON it is given."""
    try:
        out = judge(value)
    except SituationError as exc:
        assert str(exc)
    else:
        assert isinstance(out, dict)
        json.dumps(out)


@st.composite
def trick_situations(draw):
    preset = draw(st.sampled_from(["classic", "one-deck", "three-decks", "four-decks", "six-players"]))
    rs = Ruleset.from_preset(preset)
    lead = draw(st.integers(0, rs.players - 1))
    seats = [(lead + i) % rs.players for i in range(draw(st.integers(1, rs.players)))]
    n = draw(st.integers(1, 4))
    trick = [{"seat": s, "cards": draw(st.lists(st.sampled_from(FACES), min_size=n, max_size=n))} for s in seats]
    sit = {"preset": preset, "level": draw(st.sampled_from(["2", "5", "10", "A"])),
           "trump": draw(st.sampled_from(["S", "H", "C", "D", "NT"])), "trick": trick}
    if draw(st.booleans()):
        sit["hands"] = {str(p["seat"]): p["cards"] + draw(st.lists(st.sampled_from(FACES), max_size=6))
                        for p in trick}
    return sit


@given(trick_situations())
def test_judge_random_tricks_rule_or_refuse_cleanly(sit):
    """Random (often impossible) tricks: a complete ruling, or a SituationError for too many copies.
    Every play is ruled, in playing order, the top-level fields are the last play's.  The points
    are those of the plays that stand: an illegal follow is refused and not counted; a failed throw
    stands as its forced unit; any other lead stands as played (rules/trick_ruling.py)."""
    try:
        r = judge(sit)
    except SituationError as exc:
        assert "deck" in str(exc)
        return
    assert isinstance(r["legal"], bool) and r["rule"] and r["reason"]
    assert r["winner"] in {p["seat"] for p in sit["trick"]}
    assert [p["seat"] for p in r["plays"]] == [p["seat"] for p in sit["trick"]]
    assert {k: r[k] for k in ("legal", "rule", "reason")} == \
        {k: r["plays"][-1][k] for k in ("legal", "rule", "reason")}
    if r.get("throw") and r["throw"]["ok"] is False and r["throw"]["forced"]:
        counted = [r["throw"]["forced"]]
    else:
        counted = [sit["trick"][0]["cards"]]
    counted += [p["cards"] for p, ruled in zip(sit["trick"][1:], r["plays"][1:]) if ruled["legal"]]
    assert r["points"] == sum(5 if f[1:] == "5" else 10 if f[1:] in ("10", "K") else 0
                              for cards in counted for f in cards)
