"""cardtable: three meld card games as a library, a terminal game and a web app.

The package is layered (see the README): ``cards`` and ``errors`` at the bottom, the pure
meld solvers in ``melds``, one package per game in ``games``, then the driver, records,
registry, bots and coach, then storage, and finally the web server and the CLI.
"""

__version__ = "0.1.0"
