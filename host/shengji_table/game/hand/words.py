"""Names the hand's announcements use."""
from __future__ import annotations

SUIT_NAME = {"S": "spades", "H": "hearts", "C": "clubs", "D": "diamonds", None: "no trump"}
