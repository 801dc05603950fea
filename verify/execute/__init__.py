"""The execution layer: a campaign's seeded chunks, run on local processes or a Dask cluster, merged exactly.

Every long run of the toolkit (``verify simulate``, ``verify check``, ``verify study``,
the checked campaign, conformance runs) is a ``Campaign``: an ordered list of
picklable chunks, a top-level function that turns one chunk into a JSON-able
result, and a merge that folds the results (in chunk order) into one exact
answer: sums, counts and histograms, never averages of averages. A chunk's
result depends only on the chunk (its seeds derive from the campaign seed and
the chunk index, ``chunk_seed``), so the merged result is the same whatever
runs the chunks: this process (``--jobs 1``), local worker processes
(``--jobs N``) or a Dask cluster (``--scheduler ADDRESS`` or ``local``).

This layer knows chunks and results, not Monopoly: it imports nothing it runs.
Modules: ``seeds`` (chunk seeds), ``tally`` (exact mergeable counts),
``backends`` (one ``concurrent.futures`` interface over processes and Dask),
``peers`` (games on local processes: this process and forked peers pulling chunks),
``store`` (a campaign directory: manifest and atomically written chunk results,
for ``--resume``), ``progress`` (a bar on a terminal, plain lines otherwise),
``runner`` (the loop: submit, collect, save, re-run lost chunks, stop cleanly on
Ctrl-C) and ``options`` (the shared command-line options).
"""

from .backends import Backend, DaskBackend, InProcess, LocalProcesses
from .runner import Campaign, Outcome, WorkerLost, run
from .seeds import chunk_seed, spawn
from .store import CampaignStore
from .tally import Histogram

__all__ = ["Campaign", "Outcome", "run", "WorkerLost", "Backend", "InProcess", "LocalProcesses", "DaskBackend",
           "CampaignStore", "Histogram", "chunk_seed", "spawn"]
