"""The reference engine: plays any compiled ruleset, seeded, traced and fast.

Stages, each its own module: ``config`` (Ruleset -> EngineConfig), ``state``
(the canonical JSON game state), ``rules`` (one implementation of every rule,
over a flat internal game), ``step`` (the public step API: ``legal_actions``
and ``apply``), ``policies`` (bots, separate from rules), ``simulate`` (the
fast game loop and campaign statistics) and ``trace`` (JSON Lines traces and
replay).
"""
