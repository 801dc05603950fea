"""``verify compile``: write a resolved ruleset in a form another stage or tool executes.

Targets are a table (``TARGETS``: name -> "module:function"); the function takes a resolved
``Ruleset`` and returns the text to write. ``engine-config`` is the engine's ``EngineConfig`` as
JSON; ``smt2`` (SMT-LIB 2) is ``verify.smt.to_smt2.to_smt2``. A target's module is imported when it
is used, so ``verify compile`` alone does not load z3.
"""

from __future__ import annotations

import importlib
import json
from typing import Callable

import click

from ..output import output_option
from ..spec import DEFAULT_RULESET, load_ruleset
from ..spec.played import announce
from ..config import EngineConfig

#: target name -> "module:function"; the function takes a resolved Ruleset and returns text
TARGETS: dict[str, str] = {
    "engine-config": "verify.commands.compile:engine_config_text",
    "smt2": "verify.smt.to_smt2:to_smt2",
}


def engine_config_text(ruleset) -> str:
    cfg = EngineConfig.from_ruleset(ruleset)
    doc = {"schema": "verify.engine-config/1", "ruleset": ruleset.id, "config_hash": cfg.hash(),
           "config": cfg.to_json()}
    return json.dumps(doc, indent=2, ensure_ascii=False) + "\n"


def _target(name: str) -> Callable:
    module, _, func = TARGETS[name].partition(":")
    return getattr(importlib.import_module(module), func)


@click.command()
@click.argument("ruleset", required=False, default=DEFAULT_RULESET)
@click.option("--target", "target", default="engine-config", show_default=True,
              help="What to write: engine-config or smt2.")
@output_option
def command(ruleset: str, target: str) -> None:
    """Compile RULESET (an id, a file, or base+overlay) for a backend: engine-config JSON or SMT-LIB 2."""
    if target not in TARGETS:
        raise click.BadParameter(f"unknown target {target!r}; one of {', '.join(sorted(TARGETS))}",
                                 param_hint="--target")
    r = load_ruleset(ruleset)
    announce(r, checking="compile")               # on stderr: what is compiled for a table's undecided values
    click.echo(_target(target)(r), nl=False)
