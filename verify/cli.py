"""The ``verify`` command line: one module per command under ``verify/commands``.

Every command turns a ``VerifyError`` into ``file:line: [code] message`` on
stderr and exit status 2; a traceback means a bug in the toolkit, not in the
user's input.
"""

from __future__ import annotations

import importlib
import sys

import click

from .errors import VerifyError

#: Command modules in the order ``verify --help`` lists them.
COMMANDS = ["rulesets", "show", "params", "lint", "coverage", "compile", "simulate", "replay",
            "check", "contradictions", "diff", "ask", "report", "conform"]


class _Group(click.Group):
    def invoke(self, ctx):
        try:
            return super().invoke(ctx)
        except VerifyError as exc:
            click.echo(str(exc), err=True)
            sys.exit(2)


@click.group(cls=_Group, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="monopoly-verify")
def main() -> None:
    """Verify Monopoly rulebooks: cited rule specs, a reference engine, SMT proofs, reports."""


for _name in COMMANDS:
    try:
        _mod = importlib.import_module(f".commands.{_name}", __package__)
    except ModuleNotFoundError as _exc:  # a command not built yet is simply absent
        if _exc.name != f"{__package__}.commands.{_name}":
            raise
        continue
    main.add_command(_mod.command, _name)


if __name__ == "__main__":  # pragma: no cover
    main()
