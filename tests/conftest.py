"""Session set-up shared by every test module.

The compiled engine is found in the user's cache (``verify.engine.native.cache_root``), which
follows ``$HOME``. pytester (the plugin's tests) points ``$HOME`` at a temporary folder, where no
build exists: each such run would start a background build of its own (minutes of CPU, outliving
the test). The cache is pinned here, before any test changes ``$HOME``; a test that wants an empty
cache sets ``VERIFY_CACHE_DIR`` itself.
"""

from __future__ import annotations

import os

from verify.engine.native import cache_root

os.environ.setdefault("VERIFY_CACHE_DIR", str(cache_root()))
