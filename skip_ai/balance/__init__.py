"""Balance studies (``skip-ai balance CONFIG.toml``): is a game fair between equally good
players, does skill matter, which variant is best.

A study plays, for every variant (game string), a skill ladder of self-play rungs — every seat
the same agent: random, heuristic, ISMCTS at doubling budgets, trained agents — and every rung
against the one below on duplicate deals (the skill trace). Its games are played, recorded and
resumed by the tournament's runner and record store (:func:`skip_ai.tournament.runner.run_batch`).

``config`` reads the study, ``ladder`` lists its games, ``halving`` decides which variants
stay in contention (optional successive halving), ``progress`` tells what is recorded,
``metrics`` turns records into measures, ``variants`` compares variants, ``findings`` says
what they mean in sentences, ``report`` writes ``report.md`` and its figures, ``study`` runs
the whole.
"""
