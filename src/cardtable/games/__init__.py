"""The three games, one package each with the same files: ``rules``, ``state``, ``actions``,
``engine``, ``view``, plus ``scoring`` (a hand's score in the game's own terms)."""
