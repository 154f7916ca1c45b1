"""Research adapters: the three games as PettingZoo, Gymnasium and OpenSpiel environments.

Install with ``pip install cardtable[research]``. Nothing else in cardtable imports this
package, and importing it loads none of the research libraries; each adapter lives in its own
submodule:

* :mod:`cardtable.envs.pettingzoo`: AEC environments laid out as PettingZoo's classic ones
  (``indecision_v0``, ``indian_rummy_v0``, ``declaration_rummy_v0``).
* :mod:`cardtable.envs.gymnasium`: single-seat environments against cardtable's computer
  players, registered as ``cardtable/Indecision-v0``, ``cardtable/IndianRummy-v0`` and
  ``cardtable/DeclarationRummy-v0``.
* :mod:`cardtable.envs.openspiel`: ``python_cardtable_indecision``,
  ``python_cardtable_indian_rummy`` and ``python_cardtable_declaration_rummy``, registered with
  ``pyspiel`` on import.

The shared parts: :mod:`cardtable.envs.actions` (fixed action indices),
:mod:`cardtable.envs.encoding` (observation vectors from a seat's view) and
:mod:`cardtable.envs.spec` (:class:`~cardtable.envs.spec.ResearchSpec`, what the adapters know of a
game). Each game's own spec is ``cardtable.envs.<game>.RESEARCH`` (its action table, layout,
encoder and rules for environments), found through the registry (:func:`game_spec`).
"""

from cardtable.envs.spec import ResearchSpec, game_spec

__all__ = ["ResearchSpec", "game_spec"]
