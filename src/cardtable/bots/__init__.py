"""Computer players for all three games (see :mod:`cardtable.bots.base` for the interface)."""

from cardtable.bots.base import Bot, RandomBot

__all__ = ["Bot", "RandomBot"]
