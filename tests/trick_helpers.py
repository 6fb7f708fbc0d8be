"""Helpers shared by the trick-stream games' rule tests."""

import numpy as np
import pyspiel

from skip_ai import cards


def suit_hands(players: int, deck: int = 52) -> dict[int, list[int]]:
    """Seat p holds whole suits: with 4 players seat p holds suit p."""
    d = cards.deck(deck).tolist()
    per = len(d) // players
    return {p: d[per * p : per * (p + 1)] for p in range(players)}


def hand_sizes(state) -> list[int]:
    line = [row for row in state.observation_string(0).splitlines() if "hand sizes" in row][0]
    return [int(x) for x in line.split(":")[1].split()]


def check_trick_takers_lead(game_string: str, seeds=range(30), captain_first=True):
    """Play random games; after every trick (a change of scores) the next to move is the
    taking team's captain, or the next member with cards, and the game ends exactly when
    that team has no cards. Returns how often the captain was skipped (to show it happened)."""
    game = pyspiel.load_game(game_string)
    k = game.num_players() // 2
    skipped = 0
    for seed in seeds:
        rng = np.random.default_rng(seed)
        state = game.new_initial_state()
        while not state.is_terminal():
            before = state.scores()
            state.apply_action(int(rng.choice(state.legal_actions())))
            after = state.scores()
            if state.is_chance_node() or after == before:
                continue
            team = 0 if after[0] > before[0] else 1
            sizes = hand_sizes(state)
            members = [team * k + i for i in range(k)]
            with_cards = [m for m in members if sizes[m] > 0]
            if not with_cards:
                assert state.is_terminal()
            else:
                assert state.current_player() == with_cards[0]
                skipped += with_cards[0] != members[0]
    return skipped
