"""Test helper (not a test): the settlement tables of docs/rules.md written out again, independently of
``rules/settle.py``, for the tests that recompute every hand's settlement (R-8.1, R-8.2, R-8.3 and
the three-player bidding table of §9)."""


def expected_levels(rs, p, bid=None):
    """R-8.1 / R-8.2 / R-8.3 / §9 bidding, written out again: (declarers +, attackers +, take over)."""
    s, t = 20 * rs.decks, 40 * rs.decks
    if rs.bidding:
        if p >= bid:
            return 0, 1 + int((p - bid) // (bid / 2)), True
        return (6 if p <= 0 else 4 if p < bid / 2 else 2), 0, False
    if rs.scoring == "one-deck-hundred":
        tot = 100 * rs.decks
        if p <= 0:
            return 2, 0, False
        if p < tot * 0.4:
            return 1, 0, False
        if p < tot * 0.8:
            return 0, 0, True
        return (0, 1, True) if p < tot else (0, 2, True)
    if p <= 0:
        return 3, 0, False
    if p < s:
        return 2, 0, False
    if p < t:
        return 1, 0, False
    return 0, (p - t) // s + (1 if rs.scoring == "takeover-plus-one" else 0), True
