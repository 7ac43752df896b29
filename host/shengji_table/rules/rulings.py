"""Deprecated: the R-10 referee rulings are :mod:`.penalties` now.  Kept only until game/hand.py
imports from there; do not add importers."""
from .penalties import (check_hand_size, check_kitty_size, revoke, throw_penalty, undo_policy,  # noqa: F401
                        wrong_count)
