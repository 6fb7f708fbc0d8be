"""Where Numba keeps compiled kernels: one folder per version of the kernel sources.

Numba's own cache checks only the file that defines a function, not the files of the
functions it calls; a kernel calling a changed helper in another module would silently run
stale code. Keying the cache folder by a hash of every source file of ``skip_ai`` and
``agents`` makes any edit start a fresh cache instead.
"""

import hashlib
import os
from pathlib import Path

import numba


def _fingerprint() -> str:
    root = Path(__file__).resolve().parent.parent
    h = hashlib.sha256(numba.__version__.encode())
    for pkg in ("skip_ai", "agents"):
        for path in sorted((root / pkg).rglob("*.py")):
            h.update(path.relative_to(root).as_posix().encode())
            h.update(path.read_bytes())
    return h.hexdigest()[:16]


def configure() -> Path:
    """Point Numba's cache at ``$SKIP_AI_CACHE`` (default ``~/.cache/skip_ai``)/numba/<hash>."""
    base = Path(os.environ.get("SKIP_AI_CACHE", Path.home() / ".cache" / "skip_ai"))
    folder = base / "numba" / _fingerprint()
    numba.config.CACHE_DIR = str(folder)
    return folder
