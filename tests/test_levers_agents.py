"""The heuristic and the search play every lever setting of every game (RULES §0.7): each
lever's settings one at a time (as :func:`skip_ai.pyspiel_wrapper.variants` lists them), and
the levers together as each game's tests chose them, other sizes included."""

import pyspiel
import pytest

from agents import make_agent
from skip_ai.kernel.rng import make_rng
from skip_ai.play import play
from skip_ai.pyspiel_wrapper import REGISTRY, variants

ONE_AT_A_TIME = [
    v
    for spec in REGISTRY.values()
    if spec.levers
    for v in variants(spec)
    if any(f"{p.name}=" in v for p in spec.levers)
]

OTHER_SETTINGS = [  # settings the contract tests' variants leave out (they take a few)
    "skip_pyatki(hand_size=4)",
    "skip_pyatki(hand_size=6)",
    "skip_pyatki(opener=seat_2)",
    "skip_pyatki_pairs(opener=seat_2)",
    "skip_pyatki_pairs(opener=seat_3)",
]

TOGETHER = [
    "skip_chains(seating=alternate,komi=-12)",
    "skip_brook(seating=alternate,trick_lead=loser,komi=-3)",
    "skip_brook(trick_lead=alternate,first_seat=1,komi=4)",
    "skip_brook(end=hands_out,trick_lead=loser,seating=alternate)",
    "skip_brook(players=6,deck=36,first_seat=5,seating=alternate,trick_lead=alternate)",
    "skip_brook(players=2,first_seat=1,trick_lead=loser)",
    "skip_two_captains(players=6,seating=alternate,first_seat=5,komi=-1)",
    "skip_little_country(seating=alternate,first_seat=3,komi=1,jokers=true)",
    "skip_little_country(players=6,pelicans=3,seating=alternate,first_seat=1)",
    "skip_chains(players=6,deck=36,seating=alternate,first_seat=5,komi=8)",
    "skip_columns(first_seat=3,seating=alternate,komi=-2)",
    "skip_columns(players=6,deck=36,first_seat=5,seating=alternate,komi=6)",
    "skip_domino(seating=alternate,komi=-3,voluntary_pass=true)",
    "skip_domino(players=6,deck=36,first_seat=5,seating=alternate,komi=4)",
    "skip_domino(players=2,first_seat=1,komi=-4)",
    "skip_harvest(first_seat=3,seating=alternate,komi=-3,end=team_out)",
    "skip_harvest(players=6,first_seat=5,seating=alternate,komi=9,end=team_out)",
    "skip_harvest(players=2,first_seat=1,komi=-12,end=team_out)",
    "skip_pyatki(players=6,deck=52,hand_size=7,opener=seat_5)",
    "skip_pyatki_pairs(deck=36,trump_card=first,opener=seat_3)",
]


@pytest.mark.parametrize("variant", ONE_AT_A_TIME + OTHER_SETTINGS + TOGETHER)
@pytest.mark.parametrize("agent", ["heuristic", "ismcts(iterations=50)"])
def test_the_agents_play_every_lever_setting(variant, agent):
    """Every move the bots choose is legal (the wrapper refuses any other), the game ends, and
    its returns sum to zero."""
    game = pyspiel.load_game(variant)
    bots = [make_agent(agent, game, seed=p) for p in range(game.num_players())]
    state = play(game.new_initial_state(), bots, make_rng(3))
    assert state.is_terminal() and abs(sum(state.returns())) < 1e-9
