"""Seeds for chunks: derived from the campaign seed and the chunk's place, never from scheduling.

In the spirit of numpy's ``SeedSequence.spawn``: a child seed is a hash of the
root seed and the path of indices that leads to it, so chunk 7 of campaign
seed 11 gets the same, statistically independent stream whether it runs
first, last, here or on another machine, and spawning further (a game inside
a chunk) keeps the streams apart. SHA-256 keeps it stable across Python
versions and platforms (``hash()`` is salted per process).
"""

from __future__ import annotations

import hashlib


def chunk_seed(root: int, *path: int | str) -> int:
    """A 63-bit seed for the node at ``path`` below ``root`` (e.g. ``chunk_seed(seed, chunk_index)``)."""
    text = ":".join(["verify-seed", str(int(root))] + [str(p) for p in path])
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big") >> 1


def spawn(root: int, n: int, *path: int | str) -> list[int]:
    """The seeds of ``n`` children of ``root`` (at ``path``), like ``SeedSequence(root).spawn(n)``."""
    return [chunk_seed(root, *path, i) for i in range(n)]


__all__ = ["chunk_seed", "spawn"]
