"""PettingZoo AEC environments of the three games, laid out as PettingZoo's classic ones.

>>> from cardtable.envs.pettingzoo import indian_rummy_v0
>>> env = indian_rummy_v0.env(players=2, preset="default")
>>> env.reset(seed=7)
>>> sorted(env.last()[0])
['action_mask', 'observation']

They are turn-based, so no ``parallel_env`` is offered (PettingZoo's parallel API is for
simultaneous moves, and its AEC-to-parallel conversion refuses turn-based games).
"""

from cardtable.envs.pettingzoo import declaration_rummy_v0, indecision_v0, indian_rummy_v0

__all__ = ["declaration_rummy_v0", "indecision_v0", "indian_rummy_v0"]
