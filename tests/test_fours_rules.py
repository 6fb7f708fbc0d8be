"""RULES.md §7 (Fours), through the public API with chosen deals.

Deals are written rank by rank: ``"0112"`` for the 6s means 6s to seat 0, 6c and 6d to seat 1,
6h to seat 2 (suits in the order s c d h). Teams: {0, 1} and {2, 3}; captains 0 and 2.
"""

import numpy as np
import pyspiel
import pytest
from trick_helpers import hand_sizes, suit_hands

from skip_ai import IllegalActionError, cards
from skip_ai.scenario import deal, play

OBS_FOURS = 72 + 228  # after the common and the trick parts


def layout(ranks: dict[str, str], deck: int = 36) -> dict[int, list[int]]:
    """Hands from a rank-by-rank layout; every rank of the deck must be given."""
    assert "".join(ranks) == cards.RANK_CHARS[-(deck // 4) :]
    hands: dict[int, list[int]] = {p: [] for p in range(4)}
    for rank, seats in ranks.items():
        for suit, seat in zip(cards.SUIT_CHARS, seats, strict=True):
            hands[int(seat)].append(cards.from_str(rank + suit))
    assert [len(h) for h in hands.values()] == [deck // 4] * 4
    return hands


def start(hands, deck=36, lead_order="clockwise", trick_lead="winner"):
    game = pyspiel.load_game(
        f"skip_fours(deck={deck},lead_order={lead_order},trick_lead={trick_lead})"
    )
    return deal(game.new_initial_state(), hands)


def ranks(text: str) -> list[int]:
    """Action ids of ranks given as rank characters."""
    return sorted(cards.RANK_CHARS.index(r) for r in text)


def table_cards(state, player=0) -> str:
    t = np.array(state.observation_tensor(player))
    return cards.cards_to_str(np.flatnonzero(t[72:126]).tolist())


# Clockwise leads: a 3:1 take, 2:2 continuations (one with a skip, one wrapping from seat 3 to
# seat 0, one where only the previous leader still holds cards), 0:4, 1:3 and 4:0 takes.
DEAL_C = layout(
    {
        "6": "0112",
        "7": "0133",
        "8": "1133",
        "9": "2222",
        "T": "1222",
        "J": "1123",
        "Q": "0133",
        "K": "0033",
        "A": "0000",
    }
)
# Seat 1 runs out first, then seat 0 leads 2:2s with an empty partner, then its last cards.
DEAL_T = layout(
    {
        "6": "0112",
        "7": "0113",
        "8": "0112",
        "9": "1113",
        "T": "0023",
        "J": "0023",
        "Q": "0023",
        "K": "2222",
        "A": "3333",
    }
)
# Team 1 loses every trick's lead and runs out of cards before its turn to lead comes.
DEAL_A = layout(
    {
        "6": "0123",
        "7": "0123",
        "8": "0123",
        "9": "0223",
        "T": "1223",
        "J": "0233",
        "Q": "1233",
        "K": "0000",
        "A": "1111",
    }
)
# Team 0 takes every trick until it has no cards, while team 1 still holds 12.
DEAL_E = layout(
    {
        "6": "0002",
        "7": "0003",
        "8": "0002",
        "9": "1113",
        "T": "1112",
        "J": "1113",
        "Q": "2222",
        "K": "3333",
        "A": "2233",
    }
)
# One 2:2, a 3:1 take, a 1:3 take, then 2:2s to the last card: the final table is split.
DEAL_S = layout(
    {
        "6": "0123",
        "7": "0112",
        "8": "0233",
        "9": "0123",
        "T": "0123",
        "J": "0123",
        "Q": "0123",
        "K": "0123",
        "A": "0123",
    }
)


# --- parameters -----------------------------------------------------------------------------


def test_parameters_and_defaults():
    game = pyspiel.load_game("skip_fours")
    assert str(game) == "skip_fours(deck=52,lead_order=clockwise,trick_lead=winner)"
    assert game.num_players() == 4
    assert game.num_distinct_actions() == 13
    assert "Четверки" in game.get_type().long_name
    with pytest.raises(pyspiel.SpielError, match="Unknown parameter 'players'"):
        pyspiel.load_game("skip_fours(players=4)")
    with pytest.raises(ValueError, match="lead_order=partner is not allowed"):
        pyspiel.load_game("skip_fours(lead_order=partner)")
    with pytest.raises(ValueError, match="trick_lead=loser is not allowed"):
        pyspiel.load_game("skip_fours(trick_lead=loser)")


# --- rule 1: the deal; seat 0 leads ----------------------------------------------------------


@pytest.mark.parametrize("deck", [36, 52])
def test_whole_deck_is_dealt_and_seat_0_leads(deck):
    game = pyspiel.load_game(f"skip_fours(deck={deck})")
    state = game.new_initial_state()
    assert [a for a, _ in state.chance_outcomes()] == cards.deck(deck).tolist()
    rng = np.random.default_rng(deck)
    while state.is_chance_node():
        state.apply_action(int(rng.choice(state.legal_actions())))
    assert hand_sizes(state) == [deck // 4] * 4
    assert state.current_player() == 0


# --- rule 2: the lead and the automatic follow ------------------------------------------------


def test_the_leader_may_lead_only_a_rank_he_holds():
    state = start(DEAL_C)
    assert state.legal_actions() == ranks("67QKA")
    assert [state.action_to_string(0, a) for a in state.legal_actions()] == list("67QKA")
    before = str(state)
    with pytest.raises(IllegalActionError):
        state.apply_action(ranks("9")[0])
    assert str(state) == before


def test_a_lead_puts_down_every_card_of_the_rank_from_the_leaders_hand():
    state = start(DEAL_E)
    play(state, ["6"])  # seat 0 holds 6s 6c 6d: all three go down, 6h follows
    assert "6 led by seat 0 (0: 6s 6c 6d, 2: 6h)" in state.information_state_string(3)
    assert hand_sizes(state) == [6, 9, 8, 9]
    assert state.scores() == [4.0, 0.0]


@pytest.mark.parametrize("deck", [36, 52])
def test_every_other_holder_follows_at_once(deck):
    state = start(suit_hands(4, deck), deck=deck)  # seat p holds suit p: every rank is 2:2
    play(state, ["9"])
    assert table_cards(state) == "9s 9c 9d 9h"
    assert hand_sizes(state) == [deck // 4 - 1] * 4
    assert state.current_player() == 1  # the lead passed on: no follow is left to anybody
    assert "table: 9 led by seat 0 (0: 9s, 1: 9c, 2: 9d, 3: 9h)" in str(state)
    # the follow-plays are public: every player sees who put down which card
    for p in range(4):
        assert "9 led by seat 0 (0: 9s, 1: 9c, 2: 9d, 3: 9h)" in state.observation_string(p)
        assert state.information_state_string(p).endswith(
            "0:9 leads: 9 led by seat 0 (0: 9s, 1: 9c, 2: 9d, 3: 9h)"
        )


# --- rule 3: the count ------------------------------------------------------------------------


def test_3_1_and_4_0_take_the_table_for_the_majority():
    state = start(DEAL_C)
    play(state, ["6"])  # 6s (0), 6c 6d (1), 6h (2): 3:1
    assert state.scores() == [4.0, 0.0]
    assert table_cards(state) == ""
    play(state, ["7", "8"])  # two 2:2s: 8 cards stay on the table
    assert state.scores() == [4.0, 0.0]
    assert table_cards(state) == "7s 8s 7c 8c 7d 8d 7h 8h"
    play(state, ["9"])  # seat 2 holds all four 9s: 0:4
    assert state.scores() == [4.0, 12.0]
    assert state.current_player() == 2
    play(state, ["T"])  # Ts (1), Tc Td Th (2): 1:3
    assert state.scores() == [4.0, 16.0]


def test_clockwise_2_2_next_player_with_cards_wraps_and_falls_back_to_the_leader():
    state = start(DEAL_C)
    play(state, ["6", "7"])  # seat 0 leads 7: 2:2
    assert state.current_player() == 1  # the next player clockwise
    play(state, ["8", "9", "T", "J"])  # ...; seat 2 leads J, its last card: 2:2
    assert state.current_player() == 3
    play(state, ["Q"])  # seat 3 leads Q: 2:2
    assert state.current_player() == 0  # clockwise from seat 3: seat 0
    assert state.legal_actions() == ranks("KA")
    play(state, ["K"])  # 2:2 with the last cards of seats 1, 2, 3
    assert hand_sizes(state) == [4, 0, 0, 0]
    assert state.current_player() == 0  # nobody else holds cards: the leader again
    assert table_cards(state) == "Js Qs Ks Jc Qc Kc Jd Qd Kd Jh Qh Kh"
    play(state, ["A"])  # 4:0 takes J, Q, K and A
    assert state.scores() == [20.0, 16.0]
    assert state.is_terminal()
    assert state.returns() == [1.0, 1.0, -1.0, -1.0]


def test_team_2_2_partner_then_leader_again_then_next_clockwise():
    state = start(DEAL_T, lead_order="team")
    play(state, ["6", "7", "8"])  # three 3:1 takes; seat 1 keeps only 9s 9c 9d
    assert state.scores() == [12.0, 0.0]
    play(state, ["T"])  # seat 0: 2:2
    assert state.current_player() == 1  # the partner
    play(state, ["9"])  # 3:1: team 0 takes T and 9; seat 1 is empty
    assert state.scores() == [20.0, 0.0]
    assert state.current_player() == 0
    play(state, ["J"])  # 2:2; the partner has no cards
    assert state.current_player() == 0  # the previous leader again
    assert state.legal_actions() == ranks("Q")
    play(state, ["Q"])  # 2:2; neither 0 nor 1 holds a card
    assert state.current_player() == 2  # the next player clockwise with cards
    play(state, ["K"])  # 0:4 takes J, Q, K
    assert state.scores() == [20.0, 12.0]
    assert state.current_player() == 3  # captain 2 is empty: his partner leads
    play(state, ["A"])
    assert state.is_terminal()
    assert state.scores() == [20.0, 16.0]


def test_team_lead_order_differs_from_clockwise_where_the_partner_is_empty():
    state = start(DEAL_T, lead_order="clockwise")
    play(state, ["6", "7", "8", "T"])
    assert state.current_player() == 1  # clockwise and partner coincide here
    play(state, ["9", "J"])
    assert state.current_player() == 2  # clockwise skips the empty seat 1: seat 2


@pytest.mark.parametrize("lead_order,leaders", [("clockwise", "012301230"), ("team", "010101010")])
def test_the_two_lead_orders_over_a_whole_trick(lead_order, leaders):
    state = start(suit_hands(4, 36), lead_order=lead_order)
    seen = []
    for rank in "6789TJQKA":
        seen.append(str(state.current_player()))
        play(state, [rank])
    assert "".join(seen) == leaders


# --- rule 4: who leads the next trick ---------------------------------------------------------


def test_winner_captain_leads_the_next_trick_or_partner_without_cards():
    state = start(DEAL_E)
    play(state, ["6", "7"])
    assert state.current_player() == 0  # the captain of the taking team
    play(state, ["8"])  # seat 0 has no cards left
    assert state.current_player() == 1  # the partner leads
    state = start(DEAL_A)
    play(state, ["9"])  # team 1 takes
    assert state.current_player() == 2


def test_alternate_gives_tricks_to_the_teams_in_turn_with_fall_backs():
    state = start(DEAL_A, trick_lead="alternate")
    leaders = []
    for rank in "9TJQ678KA":
        leaders.append(state.current_player())
        play(state, [rank])
    # tricks 0..3 (9, T, J, Q) all taken by team 1, yet led by seats 0, 2, 0, 2; trick 4
    # (6, 7, 8, K) is led by seat 0 and taken by team 0 after team 1 ran out of cards (the
    # 2:2 by seat 2 wraps round to seat 0); trick 5 is team 1's, which has no cards, and
    # team 0's captain has none either: his partner leads
    assert leaders == [0, 2, 0, 2, 0, 1, 2, 0, 1]
    assert state.is_terminal()
    assert state.scores() == [20.0, 16.0]


# --- rule 5: the end ------------------------------------------------------------------------


def test_the_game_ends_when_the_taking_team_has_no_cards():
    state = start(DEAL_E)
    play(state, ["6", "7", "8", "9", "T"])
    assert not state.is_terminal()
    play(state, ["J"])
    assert state.is_terminal()
    assert hand_sizes(state) == [0, 0, 6, 6]  # team 1's cards no longer count
    assert state.scores() == [24.0, 0.0]
    assert state.returns() == [1.0, 1.0, -1.0, -1.0]


@pytest.mark.parametrize("lead_order", ["clockwise", "team"])
def test_a_final_2_2_is_split_in_half(lead_order):
    state = start(DEAL_S, lead_order=lead_order)
    play(state, ["6", "7"])  # 2:2, then 3:1: team 0 takes 8
    play(state, ["8"])  # 1:3: team 1 takes 4
    assert state.scores() == [8.0, 4.0]
    play(state, ["9", "T", "J", "Q", "K"])  # 2:2s
    assert not state.is_terminal()
    play(state, ["A"])  # 2:2 and nobody holds a card: 24 cards split
    assert state.is_terminal()
    assert state.scores() == [20.0, 16.0]
    assert state.returns() == [1.0, 1.0, -1.0, -1.0]
    assert "split in half" in str(state)


@pytest.mark.parametrize("deck", [36, 52])
def test_equal_cards_taken_is_a_draw(deck):
    state = start(suit_hands(4, deck), deck=deck)
    for rank in cards.RANK_CHARS[-(deck // 4) :]:
        play(state, [rank])
    assert state.is_terminal()
    assert state.scores() == [deck / 2, deck / 2]
    assert state.returns() == [0.0] * 4


# --- observation and text ---------------------------------------------------------------------


def test_observation_records_the_tricks_leaders_and_counts():
    state = start(DEAL_C)
    play(state, ["6", "7", "8"])  # trick 1: seat 0 led 7, seat 1 led 8
    t = np.array(state.observation_tensor(2))
    fours = t[OBS_FOURS:]
    assert fours[:4].tolist() == [0, 0, 1, 0]  # first leader: seat 0 = 2 seats after seat 2
    assert fours[4:8].tolist() == [0, 0, 0, 1]  # latest leader: seat 1
    assert fours[8] == pytest.approx(2 / 13)
    assert fours[9] == pytest.approx(1 / 13)
    assert "taken: team 0 4 cards, team 1 0 cards (tricks: 1)" in str(state)


# --- against a reference model, every variant ------------------------------------------------


class Reference:
    """RULES §7 written out plainly, to follow random games move by move."""

    def __init__(self, hands, lead_order, trick_lead):
        self.hands = [set(h) for h in hands]
        self.lead_order, self.trick_lead = lead_order, trick_lead
        self.table, self.taken, self.tricks, self.cur = 0, [0, 0], 0, 0

    def held_ranks(self, seat):
        return sorted({c % 13 for c in self.hands[seat]})

    def with_cards(self, seats):
        return next((q for q in seats if self.hands[q]), None)

    def lead(self, rank):
        leader = self.cur
        count = [0, 0]
        for seat in range(4):
            down = {c for c in self.hands[seat] if c % 13 == rank}
            self.hands[seat] -= down
            count[seat // 2] += len(down)
        self.table += 4
        if count == [2, 2]:
            if self.lead_order == "team":
                order = [leader ^ 1, leader] + [(leader + k) % 4 for k in range(1, 4)]
            else:
                order = [(leader + k) % 4 for k in range(1, 5)]
            self.cur = self.with_cards(order)
            if self.cur is None:
                self.taken = [t + self.table // 2 for t in self.taken]
            return
        team = 0 if count[0] > 2 else 1
        self.taken[team] += self.table
        self.table = 0
        self.tricks += 1
        due = team if self.trick_lead == "winner" else self.tricks % 2
        self.cur = self.with_cards(
            [2 * team, 2 * team + 1]
            if self.trick_lead == "winner"
            else [2 * due, 2 * due + 1, 2 - 2 * due, 3 - 2 * due]
        )
        if not (self.hands[2 * team] or self.hands[2 * team + 1]):
            self.cur = None


@pytest.mark.parametrize("deck", [36, 52])
@pytest.mark.parametrize("lead_order", ["clockwise", "team"])
@pytest.mark.parametrize("trick_lead", ["winner", "alternate"])
def test_random_games_follow_the_reference_model(deck, lead_order, trick_lead):
    game = pyspiel.load_game(
        f"skip_fours(deck={deck},lead_order={lead_order},trick_lead={trick_lead})"
    )
    rng = np.random.default_rng(7)
    for _ in range(40):
        state = game.new_initial_state()
        while state.is_chance_node():
            state.apply_action(int(rng.choice(state.legal_actions())))
        hands = [
            cards.cards_from_str(state.observation_string(p).splitlines()[1].split(":")[1])
            for p in range(4)
        ]
        ref = Reference(hands, lead_order, trick_lead)
        while ref.cur is not None:
            assert state.current_player() == ref.cur
            assert state.legal_actions() == ref.held_ranks(ref.cur)
            a = int(rng.choice(state.legal_actions()))
            state.apply_action(a)
            ref.lead(a)
            assert state.scores() == ref.taken
        assert state.is_terminal()
        assert sum(ref.taken) + sum(map(len, ref.hands)) == deck
        d = np.sign(ref.taken[0] - ref.taken[1])
        assert state.returns() == [d, d, -d, -d]
