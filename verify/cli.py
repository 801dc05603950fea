"""The ``verify`` command line: one module per command under ``verify/commands``.

Errors are turned into one line and an exit status here, once, for every
command (so a new command inherits it):

* 0 done; 1 an error in the input or the environment (``file:line: [code]
  message``, or ``file: cannot write: reason``) or a check that failed;
* 2 a usage error (click's message, from a bad option or argument);
* 130 Ctrl-C (143 SIGTERM): one line, earlier outputs intact, no child process
  left (``verify.interrupt``).

No traceback reaches a user: an unexpected exception is a bug in the toolkit
and is reported in one line too (``VERIFY_DEBUG=1`` shows the traceback).

Importing this module is cheap (click and two small modules), and ``verify
--help`` lists the commands from ``COMMANDS`` without importing them: a
command's module, and the stages, z3, rich and jinja2 it brings (about half a
second), is imported only once the command is chosen, inside the signal
handling, so a Ctrl-C while it loads is the same one line and exit 130 as any
other.
"""

from __future__ import annotations

import importlib
import os
import signal
import sys

import click

from .errors import VerifyError
from .interrupt import EXIT_STATUS, Interrupted, announce, handling_signals, received, stop_children

#: Every command (a module ``verify/commands/NAME.py`` defining ``command``), in the order ``verify --help``
#: lists them, with the line it shows there.
COMMANDS = {
    "rulesets": "List the bundled rulesets and what each extends.",
    "show": "Show a ruleset's values with their quotes or reasons.",
    "params": "List the catalogued parameters (all, or one area's).",
    "lint": "Check rulesets: quotes, types, constraints, completeness.",
    "coverage": "Show which sentences of each source are cited or waived.",
    "compile": "Compile a ruleset into an engine config (JSON) or SMT-LIB 2.",
    "simulate": "Play seeded games of a ruleset and summarise them.",
    "replay": "Re-check every step of a trace against its ruleset.",
    "check": "Prove the invariants of rulesets, action by action.",
    "contradictions": "Find where rulesets disagree, with witness situations.",
    "diff": "Show what a table changes against its base.",
    "ask": "Answer a rules question from every ruleset.",
    "report": "Write the HTML report.",
    "conform": "Check an engine step by step against a ruleset.",
    "study": "Compare rulesets on the same seeded games.",
}


def _fail(message: str, status: int = 1):
    click.echo(message, err=True)
    sys.exit(status)


class _Group(click.Group):
    """The command line; each command's module is imported when the command is used (or listed)."""

    def list_commands(self, ctx) -> list[str]:
        return list(COMMANDS)

    def format_commands(self, ctx, formatter) -> None:
        # the listing reads COMMANDS: importing every command only to print one line each took 0.3 s
        rows = [(name, COMMANDS[name]) for name in self.list_commands(ctx)]
        if rows:
            with formatter.section("Commands"):
                formatter.write_dl(rows)

    def get_command(self, ctx, cmd_name: str):
        if cmd_name not in COMMANDS:
            return None
        return importlib.import_module(f".commands.{cmd_name}", __package__).command

    def invoke(self, ctx):
        try:
            return super().invoke(ctx)
        except KeyboardInterrupt:       # before our handler is in place (or outside the main thread)
            raise Interrupted() from None

    def main(self, *args, **kwargs):
        with handling_signals():
            try:
                try:
                    return super().main(*args, **kwargs)
                except Exception as exc:
                    # a failure after the signal is the signal's doing (a solver call it cancelled)
                    if received() is not None:
                        raise Interrupted(received()) from exc
                    raise
            except Interrupted as exc:
                stop_children()
                announce(exc.detail or "verify: interrupted; stopped before finishing, earlier outputs are unchanged")
                for s in EXIT_STATUS:       # stopped: a further Ctrl-C while Python shuts down must not
                    signal.signal(s, signal.SIG_IGN)   # end it as killed by the signal (status -2)
                sys.exit(exc.status)
            except VerifyError as exc:
                _fail(str(exc))
            except OSError as exc:
                if os.environ.get("VERIFY_DEBUG"):
                    raise
                where = f"{exc.filename}: " if exc.filename else ""
                _fail(f"{where}{exc.strerror or exc}")
            except (MemoryError, RecursionError) as exc:
                _fail(f"verify: the input is too large to process ({type(exc).__name__})")
            except Exception as exc:  # noqa: BLE001 - a bug: one line, never a traceback
                if os.environ.get("VERIFY_DEBUG"):
                    raise
                _fail(f"verify: internal error ({type(exc).__name__}: {exc}); please report it, "
                      "with VERIFY_DEBUG=1 for the traceback")


@click.group(cls=_Group, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="monopoly-verify")
def main() -> None:
    """Verify Monopoly rulebooks: cited rule specs, a reference engine, SMT proofs, reports."""


if __name__ == "__main__":  # pragma: no cover
    main()
