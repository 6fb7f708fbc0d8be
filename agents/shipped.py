"""The models shipped with the package, by name: ``learned(model=skip_columns)``.

Every SKIP game's default variant has a model in the package's data, ``skip_ai/models/<game>.npz``,
with a card beside it (``<game>.md``: the config and command that made it, the commit that
committed it, how well it plays on held-out deals). An agent's ``model=`` is either such a name
(the game's name, no folder, no suffix), found from any working directory and in an installed
package alike, or a model file's path.
"""

from __future__ import annotations

from importlib import resources
from importlib.resources.abc import Traversable
from pathlib import Path

PACKAGE, FOLDER = "skip_ai", "models"


def models_folder() -> Traversable:
    """The shipped models' folder (package data of ``skip_ai``)."""
    return resources.files(PACKAGE) / FOLDER


def shipped_models() -> list[str]:
    """The names of the shipped models, sorted."""
    return sorted(
        f.name.removesuffix(".npz") for f in models_folder().iterdir() if f.name.endswith(".npz")
    )


def model_file(model: str) -> str:
    """The file an agent's ``model=`` names: a path as given; a name (no folder, no suffix)
    that is not a file here, the shipped model of that name, or a ``ValueError`` of one line
    listing the shipped models."""
    model = str(model)
    path = Path(model)
    if path.is_file() or path.name != model or path.suffix:
        return model  # a path: any error is the model loader's to give
    shipped = models_folder() / f"{model}.npz"
    if not shipped.is_file():
        raise ValueError(
            f"no shipped model {model!r} (nor a file of that name here); the shipped models: "
            f"{', '.join(shipped_models())}; or give a model file's path"
        )
    return str(shipped)
