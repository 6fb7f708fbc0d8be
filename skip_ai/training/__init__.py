"""Training learned opponents (``skip-ai train``): deep Monte-Carlo and policy gradient, the
models scored by duplicate matches along the way. Tuning the heuristic and the search is
:mod:`skip_ai.tuning`."""

from skip_ai.training.config import TrainConfig, load_train_config, load_train_configs
from skip_ai.training.run import run_training

__all__ = ["TrainConfig", "load_train_config", "load_train_configs", "run_training"]
