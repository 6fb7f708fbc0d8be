"""Round-robin tournaments on duplicate deals (``skip-ai tournament CONFIG.toml``).

config (TOML) → :mod:`schedule` of games → :mod:`worker` plays them → :mod:`store` writes
Parquet shards under ``OUT/records`` (read them with :func:`skip_ai.records.read_records`);
:mod:`runner` ties these together and resumes an interrupted batch; :mod:`cluster` runs the
tasks on Ray instead of the local pool.
"""

from skip_ai.tournament.config import ConfigError, TournamentConfig, load_config
from skip_ai.tournament.runner import BatchSummary, run_tournament
from skip_ai.tournament.store import StoreError

__all__ = [
    "BatchSummary",
    "ConfigError",
    "StoreError",
    "TournamentConfig",
    "load_config",
    "run_tournament",
]
