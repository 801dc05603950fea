"""In-process protocol-1 adapters for third-party Monopoly engines.

An adapter translates representations only: it builds the other engine's game
from the canonical state (``verify.state/1``), drives one action at a time
through that engine's own rule code and reads its game back into the canonical
state. Where the engine's rules or board differ from a ruleset, the harness
finds it; the adapter never papers over it.

``gnome``: the USC/ISI GNOME simulator (``monopoly-simulator-test``), as
``verify.conform.adapters.gnome:GnomeEngine``.

``simclasses``: ``simulation-classes-catherineannie13``, an engine that plays whole
turns: not an adapter but a logging shim, whose game log ``verify conform
--validate-trace`` checks (``python -m verify.conform.adapters.simclasses``).
"""
