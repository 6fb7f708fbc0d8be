"""The one play loop: events in order, each seen before it is applied."""

import pyspiel

from agents import make_agent
from skip_ai.kernel.rng import make_rng
from skip_ai.play import play

GAME = "skip_columns(players=2,deck=36)"


def test_callbacks_see_every_event_before_it_is_applied():
    game = pyspiel.load_game(GAME)
    bots = [make_agent("random", game, seed=p) for p in range(2)]
    events = []

    def turn(state, player):
        assert state.current_player() == player
        events.append(("turn", len(state.history()), player))

    def decision(d):
        assert d.action in d.state.legal_actions() and d.seconds >= 0 and d.policy is None
        events.append(("decision", len(d.state.history()), d.player))

    def chance(state, outcome):
        assert state.is_chance_node() and outcome in state.legal_actions()
        events.append(("chance", len(state.history()), outcome))

    state = play(
        game.new_initial_state(),
        bots,
        make_rng(5),
        on_turn=turn,
        on_decision=decision,
        on_chance=chance,
    )
    assert state.is_terminal()
    history = state.full_history()
    applied = [e for e in events if e[0] != "turn"]
    assert [e[1] for e in applied] == list(range(len(history)))  # one event per action
    assert [e[0] == "chance" for e in applied] == [h.player < 0 for h in history]
    turns = [e[1:] for e in events if e[0] == "turn"]
    assert turns == [e[1:] for e in events if e[0] == "decision"]


def test_policies_are_asked_for_only_when_wanted_and_the_deal_follows_the_seed():
    game = pyspiel.load_game(GAME)
    seen = []
    deals = []
    for policies in (False, True):
        bots = [make_agent("random", game, seed=p) for p in range(2)]
        state = play(
            game.new_initial_state(),
            bots,
            make_rng(9),
            policies=policies,
            on_decision=lambda d: seen.append(d.policy),
        )
        first_move = next(i for i, h in enumerate(state.full_history()) if h.player >= 0)
        deals.append(state.history()[:first_move])
    assert deals[0] == deals[1]
    half = len(seen) // 2
    assert all(p is None for p in seen[:half])
    assert all(abs(sum(q for _, q in p) - 1) < 1e-9 for p in seen[half:])
