"""game/disclosure.py: what the shared screen and the voice may say of a refusal."""
from shengji_table.game.disclosure import NEUTRAL_REASONS, public_reason, public_refusal, seat_refusal
from shengji_table.game.effects import Refusal


def test_an_illegal_follow_is_told_by_the_led_suit_only_R_4_4():
    r = Refusal(2, "tap", "R-4.4", "you hold 3 ♦ and must play 1 ♦")
    assert public_refusal(r, lead_suit="D") == "Seat 2: refused — must follow ♦ (R-4.4)"
    assert public_reason(r, lead_suit="T") == "must follow trumps"
    assert public_reason(r) == NEUTRAL_REASONS["R-4.4"]
    assert seat_refusal(r) == "Seat 2: refused — you hold 3 ♦ and must play 1 ♦ (R-4.4)"


def test_shape_obligations_and_holdings_are_told_in_general_R_4_5_R_4_6():
    for rule in ("R-4.5", "R-4.6", "R-4.7", "hand", "table.not-in-hand", "table.wrong-seat", "table.kitty",
                 "table.draw-card"):
        r = Refusal(1, "tap", rule, "you hold ♠QQ, so your play must contain that; S5#1 belongs to seat 3")
        text = public_refusal(r, lead_suit="S")
        assert "QQ" not in text and "seat 3" not in text and "S5" not in text, text


def test_refusals_about_turns_and_the_table_are_told_as_they_are():
    r = Refusal(0, "tap", "table.out-of-turn", "it is seat 3's turn, not seat 0's")
    assert public_refusal(r, names={0: "Li"}) == \
        "Seat 0 (Li): refused — it is seat 3's turn, not seat 0's (table.out-of-turn)"
    assert public_refusal(Refusal(None, "tap", "table.phase", "nothing to bury"), where="Centre").startswith("Centre:")
