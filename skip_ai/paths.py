"""Where a command will write, checked before it does any work: a batch that plays for an
hour and then fails to save its result has lost the hour."""

from __future__ import annotations

from pathlib import Path


def output_file(path: str | Path, what: str) -> Path:
    """``path`` as a file that can be written: not a folder, under a folder (made if
    missing) rather than under a file. A ``ValueError`` of one line names ``what``."""
    path = Path(_given(path, what))
    if path.is_dir():
        raise ValueError(f"{what} {path} is a folder; give a file name")
    _folder(path.parent, f"the folder of {what} {path}")
    return path


def output_folder(path: str | Path, what: str) -> Path:
    """``path`` as a folder that can be written (made if missing); an empty path is refused
    (it would write into the current folder)."""
    path = Path(_given(path, what))
    _folder(path, f"{what} {path}")
    return path


def _given(path: str | Path, what: str) -> str | Path:
    """``path`` unless it is empty or only spaces: ``Path("")`` is the current folder, so an
    empty ``out`` would write a study or a run among whatever is there."""
    if isinstance(path, str) and not path.strip():
        raise ValueError(f"{what} is empty; give a folder or file path")
    return path


def _folder(path: Path, what: str) -> None:
    if path.exists() and not path.is_dir():
        raise ValueError(f"{what} is a file, not a folder")
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as e:  # a file further up, no permission, a read-only disk
        raise ValueError(f"cannot make {what}: {e.strerror or e}") from None
    probe = path / f".skip-ai-write-test-{id(path)}"
    try:
        probe.touch()
        probe.unlink()
    except OSError as e:
        raise ValueError(f"cannot write in {what}: {e.strerror or e}") from None
