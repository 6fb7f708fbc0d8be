"""Training strong opponents: expert iteration for ISMCTS models (``skip-ai train``) and
heuristic weight tuning, both scored by duplicate matches."""

from skip_ai.training.config import TrainConfig, load_train_config
from skip_ai.training.loop import run_training

__all__ = ["TrainConfig", "load_train_config", "run_training"]
