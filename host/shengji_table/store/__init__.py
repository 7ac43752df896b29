"""The append-only SQLite record of everything that happened at a table (events, rulings, effects)."""
from .log import EventLog, Entry, LogError, KINDS

__all__ = ["EventLog", "Entry", "LogError", "KINDS"]
