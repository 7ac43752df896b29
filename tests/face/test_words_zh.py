"""Mandarin for the public sentences (face/words_zh.py): every announcement kind has Chinese with
card and rank names in Chinese and no Latin card code (``S5#1``, ``HA``, ``BJ``) or English word;
every sentence the game says in whole hands of every preset is known to the catalogue."""
import re
import sys
from pathlib import Path

import pytest

from shengji_table.face.words_zh import CATALOGUE, FALLBACK, cards_zh, kind_of, to_zh
from shengji_table.game.disclosure import NEUTRAL_REASONS, public_refusal
from shengji_table.game.effects import Refusal
from shengji_table.rules.ruleset import PRESETS

sys.path.insert(0, str(Path(__file__).parent))
from views import play_at_table, replay  # noqa: E402

# one sentence of each kind, as the game writes it (game/…: the Announce texts)
SAMPLES = {
    "deal": ["Hand 3: dealing, 25 cards each; level J.", "Next dealer: seat 2."],
    "declare": ["Seat 0 shows C2: seat 0 declares clubs.",
                "Seat 1 shows BJ BJ: seat 1 overcalls with jokers: no trump (反无主).",
                "Seat 3 makes a hidden declaration.", "Hidden declarations revealed: seat 2 with H4 H4 H4 stands.",
                "Seat 1's call stands: seat 1 deals.", "Nobody declared: seat 0, who drew first, deals.",
                "Seat 0 counter-declares with C3 C3: trump is clubs. seat 0 overcalls with clubs (反主). "
                "Seat 0 now swaps 6 cards drawn at random from the kitty.",
                "The dealer, seat 1, answers with LJ LJ: trump is no trump. seat 1 answers."],
    "trump": ["Trump: hearts, level 10; seat 3 deals.", "Nobody declared: no trump (R-6.4).",
              "Seat 1: trump no trump? Hold the button to name it."],
    "kitty": ["Seat 0 takes the kitty and buries 8 cards.", "Seat 2 has buried the kitty.",
              "Seat 1 draws 6 cards from the kitty at random and lays 6 back.",
              "Seat 1 has laid 6 cards back in the kitty.",
              "Last trick played: reveal the kitty."],
    "throw": ["Seat 1 throws SA SK SK: opponents may challenge.",
              "Seat 1's throw fails: ♠K ♠K is beaten by seat 2. Played: SK SK.",
              "Penalty against seat 1's side: 10 points for a failed throw.", "Seat 2 challenged with SA SA."],
    "trick": ["Trick 4 to seat 2, 25 points: seat 1 ♠A · seat 2 大王 · seat 3 ♠5 · seat 0 ♠10.",
              "Trick 5 to seat 0: seat 0 ♥3 · seat 1 ♥4 · seat 2 ♥6 · seat 3 ♥7."],
    "friend": ["Seat 1 calls for a friend: the first ♣A; the second ♥A.",
               "Seat 2 calls ♣A: press once for the first copy, twice for the second …; hold the button to confirm.",
               "Seat 2 calls the second ♣A? Hold the button to confirm.",
               "Seat 2: call 1 of 2 noted; tap the card of the next call.",
               "Seat 3 plays the second ♥A and is the dealer's friend.",
               "Seat 1 plays the first ♣A, already on the dealer's side: this call finds no friend."],
    "revoke": ["a declarer revoked: the hand ends and the attackers take over with no level.",
               "an attacker revoked: the hand ends and the declarers go up 1 level.",
               "the declarers' card count is wrong: the attackers take over with no level."],
    "settle": ["Attackers captured 110, kitty 5 × 2 = 10: 120 points. attackers took 120, 80 or more: they take over "
               "the deal and go up 1 level.",
               "Attackers captured 0: 0 points. attackers took no points: declarers go up 3 levels."],
    "level": ["Declarers go up two levels: 2 → 4", "Seat 0 (dealer) goes up one level: Q → K", "Nobody goes up.",
              "The attackers take over the deal.", "Seat 2 goes down one level: 5 → 4"],
    "match": ["Match over: seat(s) 0, 2 win."],
    "referee": ["Referee: 10 points against seat 3's side. Talking across the table."],
    "bid": ["Kitty cards shown: C2 BJ S8. Seat 0 bids first.", "Seat 1 passes.", "Seat 2 bids 115.",
            "Seat 0: bid 160? Hold the button to bid it, tap a card to pass.",
            "Seat 2 wins the bidding at 115 and deals."],
    "undo": ["Referee undid seat 1's play of S5 S5: misplayed."],
    "table": ["Reader 2 stopped answering: check its cable.", "Reader centre stopped answering: check its cable."],
    "refusal": [public_refusal(Refusal(2, "tap", rule, "secret"), lead_suit="D") for rule in NEUTRAL_REASONS]
    + [public_refusal(Refusal(1, "tap", "table.turn", "not your turn: seat 3 is on turn")),
       public_refusal(Refusal(None, "tap", "table.phase", "the centre reader takes the burial"), where="Centre"),
       public_refusal(Refusal(1, "tap", "table.unknown-tag", "unknown card: tag 04aa is not in this deck set")),
       public_refusal(Refusal(0, "bid", "R-9 bidding", "it is seat 2's turn to bid"))],
}
CARD_CODE = re.compile(r"(?<![A-Za-z])(?:[SHCD](?:10|[2-9JQKAT])|LJ|BJ)(?![a-z])|#\d")
# Latin letters left after the ranks (黑桃A, 打J, 从Q到K) are taken out: there must be none
RANKS = re.compile(r"(?<=[桃花块打从到])(?:[JQKA]|10)")


def _latin(zh: str) -> list:
    return re.findall(r"[A-Za-z]+", RANKS.sub("", zh))


def test_every_announcement_kind_has_samples_and_a_catalogue():
    kinds = {"deal", "declare", "trump", "kitty", "throw", "trick", "friend", "revoke", "settle", "level", "match",
             "referee", "bid", "undo"}
    assert kinds <= set(SAMPLES) and kinds <= set(CATALOGUE) and kinds <= set(FALLBACK)


@pytest.mark.parametrize("kind", list(SAMPLES))
def test_mandarin_of_each_kind_has_no_latin_card_codes(kind):
    for text in SAMPLES[kind]:
        zh = to_zh(text, kind)
        assert not CARD_CODE.search(zh), (text, zh)
        assert not _latin(zh), (text, zh)
        assert re.search(r"[\u4e00-\u9fff]", zh), (text, zh)
        assert "请看屏幕" not in zh or kind in ("referee", "refusal"), (text, zh)


def test_cards_and_ranks_are_named_in_chinese():
    assert cards_zh("SA HA HA C10#2 D2 LJ BJ") == "黑桃A、一对红桃A、梅花10、方块2、小王、大王"
    assert cards_zh("♠T ♠T ♠T") == "三张黑桃10"
    assert to_zh("Declarers go up two levels: 2 → 4") == "庄家升两级，从2到4。"
    assert to_zh("Seat 2: refused — must follow the lead's tractors (R-4.6)") == "2号位：不行，必须跟拖拉机。"
    assert to_zh("Seat 2: refused — must follow trumps (R-4.4)") == "2号位：不行，必须跟主牌。"
    assert to_zh("Seat 1: refused — unknown card: tag 04aa is not in this deck set (table.unknown-tag)") == \
        "1号位：不行，不认识的牌。"


def test_an_unknown_sentence_gets_its_kinds_phrase_never_the_english():
    zh = to_zh("Seat 3 does something new with S5#1.", "throw")
    assert zh == "3号位：甩牌。" and not _latin(zh)


@pytest.mark.parametrize("preset", list(PRESETS))
@pytest.mark.parametrize("mode", ["scanned", "open"])
def test_every_sentence_of_whole_hands_is_in_the_catalogue(preset, mode):
    said = [t for _, texts in replay(preset, mode, seed=3, hands=2) for t in texts]
    assert said
    for text in said:
        assert kind_of(text) is not None, f"no Mandarin pattern for: {text}"
        zh = to_zh(text)
        assert not CARD_CODE.search(zh) and not _latin(zh), (text, zh)


@pytest.mark.parametrize("preset", ["find-friend-5", "three-players", "classic"])
@pytest.mark.parametrize("mode", ["scanned", "open"])
def test_every_sentence_at_the_table_is_in_the_catalogue(preset, mode):
    """Played with taps and presses: the controller's own sentences (a bid, trump or a friend
    call being entered) are known too."""
    _, said = play_at_table(preset, mode)
    assert said
    for text in said:
        assert kind_of(text) is not None, f"no Mandarin pattern for: {text}"
        zh = to_zh(text)
        assert not CARD_CODE.search(zh) and not _latin(zh), (text, zh)
