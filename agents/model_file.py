"""What a model file may hold, read from its zip directory and ``.npy`` headers before a byte
of it is inflated (an 8 MB file once inflated to 8.6 GB before it was refused). The model's
own layout and bounds (``max_params``, passed in) are :mod:`agents.model`'s."""

from __future__ import annotations

import zipfile
import zlib
from pathlib import Path

import numpy as np

_SMALL_MEMBER = 1 << 16
"""The largest member other than ``params`` (the metadata, the layer sizes), in bytes."""


class _Refused(Exception):
    """Why :func:`npz_members` refuses a file (said with its path by the caller)."""


def npz_members(path: Path, max_params: int) -> dict[str, tuple[tuple[int, ...], np.dtype]]:
    """Each array of the model file ``path`` by key: its shape and type, read from its header
    after the zip's directory showed every member within a model's bounds (``params`` at most
    ``max_params`` float64 values, the rest :data:`_SMALL_MEMBER` bytes each), so that
    nothing is inflated past those bounds (the directory's sizes bound what zipfile inflates,
    and each header must account for its member's size exactly). A one-line ``ValueError``
    otherwise."""
    try:
        with zipfile.ZipFile(path) as zf:
            return {
                info.filename.removesuffix(".npy"): _header(zf, info)
                for info in zf.infolist()
                if _within_bounds(info, max_params)
            }
    except _Refused as e:
        raise ValueError(f"{path}: {e}") from None
    except (
        zipfile.BadZipFile,
        zipfile.LargeZipFile,
        zlib.error,
        OSError,
        ValueError,
        EOFError,
    ) as e:
        raise ValueError(f"{path} is not a model file (.npz without pickles): {e}") from None


def _within_bounds(info: zipfile.ZipInfo, max_params: int) -> bool:
    """True for an ``.npy`` member within its bound (other members are never read)."""
    params = info.filename == "params.npy"
    limit = _SMALL_MEMBER + (8 * max_params if params else 0)
    if info.file_size > limit:
        what = "a model's parameters take" if params else "a model's other members take"
        raise _Refused(
            f"member {info.filename!r} inflates to {info.file_size:,} bytes; {what} at most "
            f"{limit:,}"
        )
    return info.filename.endswith(".npy")


def _header(zf: zipfile.ZipFile, info: zipfile.ZipInfo) -> tuple[tuple[int, ...], np.dtype]:
    """The shape and type an ``.npy`` member's header declares, checked against its size."""
    with zf.open(info) as f:
        version = np.lib.format.read_magic(f)
        if version == (1, 0):
            shape, _, dtype = np.lib.format.read_array_header_1_0(f)
        elif version == (2, 0):
            shape, _, dtype = np.lib.format.read_array_header_2_0(f)
        else:
            raise ValueError(f"member {info.filename!r} has .npy version {version}")
        start = f.tell()
    if dtype.hasobject:
        raise ValueError(f"member {info.filename!r} holds pickled objects")
    if start + int(np.prod(shape, dtype=object)) * dtype.itemsize != info.file_size:
        raise ValueError(f"member {info.filename!r}: its header does not match its size")
    return tuple(shape), dtype
