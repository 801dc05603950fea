"""The command-line face of the execution layer: ``--jobs``, ``--scheduler``, ``--resume``, one way for every command.

``campaign_options`` adds the three options to a click command;
``execute`` runs a ``Campaign`` with them (backend, campaign directory,
progress over the whole campaign) and turns the layer's failures into clear
one-line errors: a missing Dask or an unreachable scheduler is a usage error
(exit 2), a chunk that keeps killing its worker an error (exit 1). Ctrl-C is
not caught here: it reaches the CLI, which exits 130.
"""

from __future__ import annotations

import os
from contextlib import contextmanager
from pathlib import Path
from typing import Callable, Iterator

import click

from .backends import BackendUnavailable, make_backend
from .progress import Progress
from .runner import Campaign, Outcome, WorkerLost, run
from .store import CampaignStore

#: Worker processes per CPU at most: the work is CPU-bound, so processes beyond the cores only
#: share them; a few per core still overlap start-up and I/O, more only cost memory (every worker
#: holds the compiled rulesets) and start-up time (``--jobs 1000`` started 955 processes on 2 cores).
JOBS_PER_CPU = 4


def cpus() -> int:
    try:
        return len(os.sched_getaffinity(0)) or 1
    except (AttributeError, OSError):
        return os.cpu_count() or 1


class Jobs(click.ParamType):
    """Worker processes: 1 up to ``JOBS_PER_CPU`` x the CPUs this process may use."""

    name = "integer"

    def convert(self, value, param, ctx):
        if isinstance(value, int) and not isinstance(value, bool):
            n = value
        else:
            try:
                n = int(str(value), 10)
            except ValueError:
                self.fail(f"{value!r} is not a whole number", param, ctx)
        most = JOBS_PER_CPU * cpus()
        if n < 1:
            self.fail(f"{n} workers: at least 1 is needed", param, ctx)
        if n > most:
            self.fail(f"{n} workers is more than {JOBS_PER_CPU} per CPU ({cpus()} CPUs here, so at most "
                      f"{most}): the work is CPU-bound, extra processes only share the cores and cost memory",
                      param, ctx)
        return n


JOBS = Jobs()


def campaign_options(jobs_help: str = "Worker processes [default: 1; with --scheduler local, one per CPU]; "
                     "the result does not depend on it.") -> Callable:
    def decorate(f: Callable) -> Callable:
        f = click.option("--resume", "resume", type=click.Path(file_okay=False, path_type=Path), default=None,
                         help="Campaign directory: save each finished chunk there and, when it already holds "
                              "this campaign, run only the missing chunks (same result as one run).")(f)
        f = click.option("--scheduler", "scheduler", default=None, metavar="ADDRESS",
                         help="Run the chunks on a Dask cluster (tcp://host:8786), or `local` for a "
                              "LocalCluster of --jobs worker processes.")(f)
        f = click.option("--jobs", "-j", "jobs", default=None, type=JOBS, help=jobs_help)(f)
        return f
    return decorate


def execute(campaign: Campaign, jobs: int | None, scheduler: str | None, resume: Path | None,
            quiet: bool = False) -> Outcome:
    """Run ``campaign`` as the options say; progress on stderr unless ``quiet``."""
    backend = make_backend(jobs, scheduler)
    store = CampaignStore(resume) if resume is not None else None
    total = sum(campaign.weight(i) for i in range(len(campaign.chunks)))
    progress = Progress(total, campaign.unit, campaign.kind, mode="off" if quiet else None)
    with cli_errors():
        return run(campaign, backend, store, progress)


@contextmanager
def cli_errors() -> Iterator[None]:
    """The layer's own failures as one-line command-line errors."""
    try:
        yield
    except BackendUnavailable as exc:
        raise click.UsageError(str(exc)) from None
    except WorkerLost as exc:
        raise click.ClickException(str(exc)) from None


__all__ = ["campaign_options", "execute", "cli_errors", "JOBS", "cpus"]
