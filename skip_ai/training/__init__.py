"""Training strong opponents: deep Monte-Carlo Q models (``skip-ai train``) and heuristic
weight and search tuning (``skip-ai tune``), all scored by duplicate matches."""

from skip_ai.training.config import TrainConfig, load_train_config, load_train_configs
from skip_ai.training.dmc import run_training

__all__ = ["TrainConfig", "load_train_config", "load_train_configs", "run_training"]
