"""Hidden information never reaches the public page: a bot match is fed to a real controller and
service event by event (as a table reports it), and after every event the public state — what
``GET /api/table`` returns and what the public ``/events`` stream sends — shows no card that is not
face up on the table: every card it draws is one of the plays of this hand (the kitty only once the
hand is over); no hand, no cards being entered, no stack."""
import collections
import json
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
from webtable import BOARD, NullLink, feed  # noqa: E402

from shengji_table.face.web.hub import Hub  # noqa: E402
from shengji_table.face.web.state import card_json, public_state  # noqa: E402
from shengji_table.rules.ruleset import Ruleset  # noqa: E402
from shengji_table.sim.players import play_direct  # noqa: E402
from shengji_table.sim.virtual_table import sim_deck_set  # noqa: E402
from shengji_table.store.log import EventLog  # noqa: E402
from shengji_table.table.controller import Controller  # noqa: E402
from shengji_table.table.service import TableService  # noqa: E402

FORBIDDEN_KEYS = {"hands", "pending", "buried", "stack", "shown", "declarations"}


def cards_in(value, path=()):
    """(path, face text) of every drawn card in a JSON value."""
    if isinstance(value, dict):
        if set(value) == {"rank", "suit", "text"}:
            yield path, value["text"]
            return
        for k, v in value.items():
            yield from cards_in(v, path + (k,))
    elif isinstance(value, list):
        for v in value:
            yield from cards_in(v, path)


def keys_in(value):
    if isinstance(value, dict):
        for k, v in value.items():
            yield k
            yield from keys_in(v)
    elif isinstance(value, list):
        for v in value:
            yield from keys_in(v)


def face_up(hand) -> collections.Counter:
    """The faces laid on the table this hand (committed plays), with their multiplicity."""
    seen: collections.Counter = collections.Counter()
    for t in hand.tricks:
        for _seat, cards in t.plays:
            seen.update(card_json(c.card)["text"] for c in cards)
    for _seat, cards in hand.trick:
        seen.update(card_json(c.card)["text"] for c in cards)
    return seen


def check(state: dict, hand) -> int:
    assert not FORBIDDEN_KEYS & set(keys_in(state)), FORBIDDEN_KEYS & set(keys_in(state))
    shown: collections.Counter = collections.Counter()
    for path, text in cards_in(state):
        if path[:1] == ("friend_calls",):
            continue                          # the face the dealer called: said aloud
        if path[:1] == ("kitty",):
            assert hand is not None and hand.result is not None, "the kitty before the hand is over"
            continue
        shown[text] += 1
    allowed = face_up(hand) if hand is not None else collections.Counter()
    assert not shown - allowed, f"cards not on the table: {shown - allowed}"
    return sum(shown.values())


@pytest.mark.parametrize("preset, mode, seed", [
    ("classic", "scanned", 3), ("find-friend-4", "scanned", 5), ("three-players", "scanned", 2),
    ("classic", "open", 4),
])
def test_public_state_shows_only_cards_on_the_table(tmp_path, preset, mode, seed):
    ruleset = Ruleset.from_preset(preset)
    match = play_direct(ruleset, mode, seed, 2)
    board = BOARD if ruleset.players <= 4 else None
    controller = Controller(ruleset, mode, board, sim_deck_set(ruleset.decks), lambda number: None)
    svc = TableService(NullLink(), controller, EventLog(tmp_path / "log.db"))
    svc.restore()
    hub = Hub(svc)
    unknown_seen = False
    drawn = 0
    for e in match.events:
        feed(svc, e)
        hand = controller.match.hand
        streamed = json.loads(hub.public_text())          # what the public /events stream sends
        with svc.lock:
            assert streamed == json.loads(json.dumps(hub.state(), ensure_ascii=False))
        drawn += check(streamed, hand)
        if streamed["teams"]["attackers"] == "unknown":
            unknown_seen = True
            assert len(streamed["teams"]["declarers"]) < 1 + ruleset.friend_calls
    assert controller.match.summaries and drawn > 100, "the hands were played and drawn"
    if ruleset.teams == "find-friend":
        assert unknown_seen
    final = public_state(controller)
    assert final["kitty"] is not None and final["result"]
