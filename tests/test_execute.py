"""The execution layer (verify/execute): seeds, exact merges, backends, campaign directories, lost workers.

A toy campaign (sums and a histogram of seeded random numbers) exercises the
layer without the engine; real campaigns (simulate, study) are covered in
tests/test_campaigns.py and, on a Dask LocalCluster, tests/test_execute_dask.py.
"""

from __future__ import annotations

import json
import os
import random
import signal
import statistics
import time
from dataclasses import dataclass
from pathlib import Path

import pytest

from verify.errors import VerifyError
from verify.execute import Campaign, CampaignStore, Histogram, InProcess, LocalProcesses, WorkerLost, chunk_seed, run
from verify.execute import spawn
from verify.execute.progress import Progress
from verify.execute.tally import add_counts, add_lists


@dataclass(frozen=True)
class Toy:
    index: int
    seed: int
    n: int
    #: a folder for markers: the chunk with index ``kill`` kills its worker process the first ``times`` runs
    markers: str | None = None
    kill: int = -1
    times: int = 1
    #: this chunk's result says "stop here"
    stop: bool = False
    #: the process that made the campaign (the test's): a chunk asked to kill its worker refuses to kill it
    main: int = 0


MAIN = os.getpid()


def toy_chunk(c: Toy) -> dict:
    if c.index == c.kill and c.markers is not None:
        runs = Path(c.markers) / f"ran-{c.index}"
        seen = len(runs.read_text()) if runs.exists() else 0
        runs.write_text("x" * (seen + 1))
        if seen < c.times:
            assert os.getpid() != c.main, f"chunk {c.index} was to kill a worker but runs in the main process"
            os.kill(os.getpid(), signal.SIGKILL)
    rng = random.Random(c.seed)
    xs = [rng.randrange(100) for _ in range(c.n)]
    h = Histogram()
    for x in xs:
        h.add(x)
    return {"index": c.index, "sum": sum(xs), "n": len(xs), "hist": h.to_json(), "stop": c.stop}


def toy_merge(results: list[dict]) -> dict:
    h = Histogram()
    for r in results:
        h.update(Histogram.from_json(r["hist"]))
    return {"chunks": [r["index"] for r in results], "sum": sum(r["sum"] for r in results),
            "n": sum(r["n"] for r in results), "median": h.median(), "p90": h.quantile(0.9)}


def toy(chunks: int = 12, seed: int = 5, stop_at: int | None = None, **kw) -> Campaign:
    specs = [Toy(i, chunk_seed(seed, i), 40 + i, stop=(i == stop_at), main=os.getpid(), **kw) for i in range(chunks)]
    return Campaign("toy", {"seed": seed, "chunks": chunks}, specs, toy_chunk, toy_merge,
                    weights=[c.n for c in specs], unit="numbers", stops=lambda r: r["stop"])


def test_chunk_seeds_depend_on_the_path_only():
    assert chunk_seed(11, 3) == chunk_seed(11, 3)
    seeds = spawn(11, 200)
    assert len(set(seeds)) == 200 and all(0 <= s < 2 ** 63 for s in seeds)
    assert seeds[3] == chunk_seed(11, 3) and chunk_seed(12, 3) != chunk_seed(11, 3)
    assert chunk_seed(11, 3, 0) != chunk_seed(11, 3)          # a child of chunk 3 is another stream


def test_histogram_merges_exactly_and_reads_like_the_statistics_module():
    rng = random.Random(1)
    xs = [rng.randrange(300) for _ in range(1001)]
    whole = Histogram()
    parts = [Histogram(), Histogram(), Histogram()]
    for i, x in enumerate(xs):
        whole.add(x)
        parts[i % 3].add(x)
    merged = Histogram()
    for p in parts:
        merged.update(Histogram.from_json(json.loads(json.dumps(p.to_json()))))
    assert merged == whole and merged.n == 1001 and merged.total == sum(xs)
    assert merged.median() == statistics.median(xs)
    assert merged.mean() == pytest.approx(statistics.fmean(xs))
    s = sorted(xs)
    assert merged.quantile(0.9) == s[round(0.9 * 1000)]
    assert Histogram({1: 1, 3: 1}).median() == 2 and Histogram({4: 2}).median() == 4
    assert whole.share_at_most([-1, 299]) == [0.0, 1.0]
    assert add_lists([1, 2], [1, 1, 1]) == [2, 3, 1] and add_counts({"a": 1}, {"a": 2, "b": 1}) == {"a": 3, "b": 1}


def where_chunk(c: Toy) -> dict:
    time.sleep(0.005)                    # long enough that a forked peer takes some chunks
    return dict(toy_chunk(c), pid=os.getpid())


def test_same_merged_result_in_process_and_on_two_local_processes():
    one = run(toy(), InProcess())
    two = run(toy(), LocalProcesses(2))
    assert one.result == two.result
    assert one.result["chunks"] == list(range(12)) and one.ran == two.ran == 12
    assert run(toy(seed=6), InProcess()).result != one.result


@pytest.mark.parametrize("here", [True, False])
def test_this_process_plays_beside_one_peer_when_the_campaign_allows_it(here):
    """--jobs 2 for a campaign of short chunks (games): one forked peer, and this process takes chunks from
    the same counter; otherwise (z3 tasks) two pool workers and this process waits."""
    base = toy(chunks=40)
    campaign = Campaign(base.kind, base.identity, base.chunks, where_chunk, lambda rs: rs, here=here)
    out = run(campaign, LocalProcesses(2))
    pids = [r["pid"] for r in out.result]
    assert (MAIN in pids) == here and len(set(pids)) == 2
    assert ("forked" in out.backend) == here
    assert [r["index"] for r in out.result] == list(range(40))
    import multiprocessing
    assert not {p.pid for p in multiprocessing.active_children()} & set(pids)     # the workers were joined
    assert run(toy(chunks=40), InProcess()).result == toy_merge(out.result)


def slow_chunk(c: Toy) -> dict:
    time.sleep(0.005)                    # long enough that a forked peer takes some chunks
    return toy_chunk(c)


@pytest.mark.parametrize("here", [False, True])
def test_an_early_stop_is_the_lowest_stopping_chunk_whatever_the_scheduling(here):
    """Pushed to a pool, or pulled by this process and a peer (which may take chunks after the stop)."""
    one = run(toy(stop_at=4), InProcess())
    base = toy(chunks=30, stop_at=4)
    two = run(Campaign(base.kind, base.identity, base.chunks, slow_chunk, toy_merge, weights=base.weights,
                       stops=base.stops, here=here), LocalProcesses(2))
    assert one.result == two.result and one.result["chunks"] == [0, 1, 2, 3, 4]
    assert one.ran == 5                      # in one process nothing after the stop runs
    assert two.ran < 30                      # the chunks after the stop are not all played


class Batching(InProcess):
    """This process, taking several short chunks per task as a Dask cluster does (``task_units``)."""

    slots = 2
    task_units = 200

    def __init__(self):
        self.tasks: list = []

    def submit(self, fn, arg):
        self.tasks.append([c.index for c in arg] if isinstance(arg, list) else [arg.index])
        return super().submit(fn, arg)


def test_short_chunks_go_several_to_a_task_and_the_last_tasks_alone():
    whole = run(toy(chunks=40), InProcess())
    backend = Batching()
    out = run(toy(chunks=40), backend)
    assert out.result == whole.result and out.ran == 40
    assert sum(backend.tasks, []) == list(range(40))         # every chunk once, in order
    assert len(backend.tasks[0]) == 4                          # 40+41+42+43 numbers fit in 200, a fifth not
    assert len(backend.tasks) < 25 and backend.tasks[-3:] == [[37], [38], [39]]
    stopped = run(toy(chunks=40, stop_at=5), Batching())
    assert stopped.result == run(toy(chunks=40, stop_at=5), InProcess()).result
    assert stopped.result["chunks"] == [0, 1, 2, 3, 4, 5]


class Interrupting(InProcess):
    """This process, with Ctrl-C arriving at the n-th submission."""

    def __init__(self, at: int):
        self.at, self.calls = at, 0

    def submit(self, fn, arg):
        self.calls += 1
        if self.calls == self.at:
            raise KeyboardInterrupt
        return super().submit(fn, arg)


def test_a_campaign_directory_resumes_to_the_same_result(tmp_path):
    whole = run(toy(), InProcess()).result
    store = tmp_path / "c"
    with pytest.raises(KeyboardInterrupt):
        run(toy(), Interrupting(6), CampaignStore(store))
    saved = sorted(p.name for p in store.glob("chunk-*.json"))
    assert len(saved) == 5 and (store / "manifest.json").exists() and not (store / "result.json").exists()
    again = run(toy(), LocalProcesses(2), CampaignStore(store))
    assert again.result == whole and again.resumed == 5 and again.ran == 7
    assert json.loads((store / "result.json").read_text()) == whole
    done = run(toy(), InProcess(), CampaignStore(store))          # all there: nothing runs
    assert done.ran == 0 and done.result == whole


def test_interrupt_without_a_directory_keeps_the_finished_chunks_in_a_new_one(capsys):
    with pytest.raises(KeyboardInterrupt):
        run(toy(), Interrupting(4))
    err = capsys.readouterr().err
    assert "3 of 12 chunks finished" in err and "--resume" in err
    kept = Path(err.split("kept in ")[1].split(";")[0])
    try:
        assert len(list(kept.glob("chunk-*.json"))) == 3
        assert run(toy(), InProcess(), CampaignStore(kept)).result == run(toy(), InProcess()).result
    finally:
        import shutil
        shutil.rmtree(kept)


def test_a_directory_of_another_campaign_is_refused_with_E025(tmp_path):
    store = tmp_path / "c"
    run(toy(), InProcess(), CampaignStore(store))
    with pytest.raises(VerifyError) as info:
        run(toy(seed=6), InProcess(), CampaignStore(store))
    assert info.value.code == "E025" and "seed is 5 there, 6 here" in str(info.value)
    assert "manifest.json" in str(info.value)
    other = tmp_path / "other"
    other.mkdir()
    (other / "notes.txt").write_text("mine")
    with pytest.raises(VerifyError) as info:
        run(toy(), InProcess(), CampaignStore(other))
    assert info.value.code == "E025" and "holds no campaign manifest" in str(info.value)
    assert (other / "notes.txt").read_text() == "mine"
    # a chunk file from another campaign (copied by hand) is refused too
    third = tmp_path / "third"
    run(toy(seed=6), InProcess(), CampaignStore(third))
    (store / "chunk-000000.json").write_bytes((third / "chunk-000000.json").read_bytes())
    with pytest.raises(VerifyError) as info:
        run(toy(), InProcess(), CampaignStore(store))
    assert info.value.code == "E025" and "chunk-000000.json" in str(info.value)


def test_a_damaged_chunk_file_is_run_again(tmp_path):
    store = tmp_path / "c"
    whole = run(toy(), InProcess(), CampaignStore(store)).result
    (store / "chunk-000003.json").write_text("{not json")
    again = run(toy(), InProcess(), CampaignStore(store))
    assert again.ran == 1 and again.result == whole


def test_a_killed_worker_has_its_chunk_run_again(tmp_path):
    whole = run(toy(), InProcess()).result
    backend = LocalProcesses(2)
    out = run(toy(markers=str(tmp_path), kill=5), backend)
    assert out.result == whole and out.rerun >= 1
    assert (tmp_path / "ran-5").read_text() == "xx"          # killed once, then finished


def _runs(markers: str, index: int) -> list[int]:
    """The processes that ran chunk ``index`` so far, in order (recorded by ``peer_trouble``)."""
    f = Path(markers) / f"ran-{index}"
    return [int(x) for x in f.read_text().split()] if f.exists() else []


def peer_trouble(c: Toy) -> dict:
    """In a peer: record the run, then die (``times`` runs of the chunk) or raise (``stop``). In the main
    process: wait until a peer has started some chunk, so that every test sees the peers' trouble."""
    runs = _runs(c.markers, c.index)
    (Path(c.markers) / f"ran-{c.index}").write_text(" ".join(map(str, runs + [os.getpid()])))
    if os.getpid() == c.main:
        for _ in range(1000):
            if any(p != c.main for f in Path(c.markers).glob("ran-*") for p in map(int, f.read_text().split())):
                break
            time.sleep(0.01)
        time.sleep(0.02)
    elif c.stop:
        raise ValueError(f"chunk {c.index} refuses to run in a peer")
    elif len(runs) < c.times:
        time.sleep(0.005)
        os.kill(os.getpid(), signal.SIGKILL)
    return toy_chunk(Toy(c.index, c.seed, c.n))


def peer_campaign(markers: Path, chunks: int = 12, times: int = 1, stop: bool = False) -> Campaign:
    specs = [Toy(i, chunk_seed(5, i), 40 + i, str(markers), times=times, stop=stop, main=MAIN)
             for i in range(chunks)]
    return Campaign("toy", {"seed": 5, "chunks": chunks}, specs, peer_trouble, toy_merge, here=True)


def test_a_lost_peer_has_its_chunks_run_again_in_new_peers_never_here(tmp_path):
    """Every chunk kills the peer that runs it the first time: each such chunk runs again alone in a new
    peer (a chunk that kills its process would end the campaign here), and the result is the same."""
    whole = run(toy(), InProcess()).result
    out = run(peer_campaign(tmp_path), LocalProcesses(2))
    assert out.result == whole and out.rerun >= 1
    killed = [i for i in range(12) if _runs(str(tmp_path), i)[0] != MAIN]
    assert killed and out.rerun == len(killed)
    for i in killed:
        assert len(_runs(str(tmp_path), i)) == 2 and MAIN not in _runs(str(tmp_path), i)
    import multiprocessing
    assert not multiprocessing.active_children()


def test_a_chunk_that_always_kills_its_peer_gives_up_clearly(tmp_path):
    with pytest.raises(WorkerLost) as info:
        run(peer_campaign(tmp_path, chunks=2, times=99), LocalProcesses(2), max_attempts=3)
    i = next(i for i in range(2) if _runs(str(tmp_path), i)[0] != MAIN)
    assert f"chunk {i} " in str(info.value) and "3 times" in str(info.value)
    assert len(_runs(str(tmp_path), i)) == 3


def test_an_error_in_a_chunk_reaches_the_caller_intact_from_a_peer(tmp_path):
    with pytest.raises(ValueError, match="refuses to run in a peer"):
        run(peer_campaign(tmp_path, chunks=4, stop=True), LocalProcesses(2))
    import multiprocessing
    assert not multiprocessing.active_children()


def test_a_chunk_that_always_kills_its_worker_gives_up_clearly(tmp_path):
    with pytest.raises(WorkerLost) as info:
        run(toy(chunks=3, markers=str(tmp_path), kill=1, times=99), LocalProcesses(2), max_attempts=3)
    assert "chunk 1" in str(info.value) and "3 times" in str(info.value)


def test_an_error_in_a_chunk_reaches_the_caller_intact_from_a_worker():
    from verify.engine.campaign import CampaignSpec, Row, games_campaign
    from verify.spec import load_ruleset
    from verify.config import EngineConfig
    cfg = EngineConfig.from_ruleset(load_ruleset("official"))
    bad = CampaignSpec(cfg, 4, 0, policy="nonsense")
    with pytest.raises(ValueError, match="unknown policy"):
        run(games_campaign([Row("official", bad, 4)]), LocalProcesses(2))


def test_plain_progress_lines_name_the_rate_and_the_eta(capsys):
    import io
    buf = io.StringIO()
    p = Progress(100, "games", "simulate", stream=buf, interval=0.0)
    p.start(20)
    p.advance(30)
    p.close()
    lines = buf.getvalue().splitlines()
    assert lines[0] == "simulate: resumed with 20/100 games already done"
    assert lines[1].startswith("simulate: 50/100 games (50%), ") and "ETA" in lines[1]
    assert lines[-1].startswith("simulate: 50/100 games in ")
    quiet = io.StringIO()
    q = Progress(10, "games", "simulate", stream=quiet)        # short runs print nothing
    q.start()
    q.advance(10)
    q.close()
    assert quiet.getvalue() == ""
