"""Tuning the heuristic and the search (``skip-ai tune``, ``skip-ai positions``): a heuristic's
weights and an ISMCTS search's parameters by the cross-entropy method over duplicate matches
(:mod:`.players`), and the search's rollouts by simulation balancing over expert positions
(:mod:`.rollout_balancing`)."""
