"""RULES.md §6 (Domino), through the public API with chosen deals."""

import numpy as np
import pyspiel
import pytest
from trick_helpers import check_trick_takers_lead, hand_sizes, suit_hands

from skip_ai import IllegalActionError, cards, sim
from skip_ai.kernel.rng import make_rng
from skip_ai.kernel.state import LOC
from skip_ai.scenario import UNSEEN, deal, play

ABOVE, BELOW, PASS = 54, 108, 162
C = cards.from_str


def ids(text):
    return cards.cards_from_str(text)


def names(state):
    return [state.action_to_string(a) for a in state.legal_actions()]


# Hands of 4 players with 36 cards. In both, seat 0 leads Qs, seat 1 puts Qc below it, seat 2
# puts Jc left of Qc: the seed's own example.
HANDS_A = {
    0: "Qs 6s 7s 8s 9s 6c 7c 8c 9c",
    1: "Qc Ts Ks As 6d 7d 8d 9d Td",
    2: "Jc Tc Kc Ac Jd Qd Kd Ad 6h",
    3: "Js Jh 7h 8h 9h Th Qh Kh Ah",
}
# B: seat 3 then opens hearts below clubs, and seat 0 holds Js (spades row, not adjacent).
HANDS_B = {
    0: "Qs Js 6s 7s 8s 6c 7c 8c 9c",
    1: "Qc Ts 9s Ks As 6d 7d 8d 9d",
    2: "Jc Tc Kc Ac Td Qd Kd Ad 6h",
    3: "Jh Jd 7h 8h 9h Th Qh Kh Ah",
}
SEED_EXAMPLE = ["Qs", "Qc-below", "Jc"]


def game_with(hands, voluntary=False, players=4, deck=36):
    game = pyspiel.load_game(
        f"skip_domino(players={players},deck={deck},remove4=false,"
        f"voluntary_pass={str(voluntary).lower()})"
    )
    return deal(game.new_initial_state(), hands)


def grid(state):
    """The grid part of str(state): the rank header and one line per suit row."""
    lines = str(state).splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("  table:")) + 1
    return [line for line in lines[start:] if not line.startswith("  taken")]


def relative_rows(state, player=0):
    """From the observation tensor: suit -> its row relative to the last card's row."""
    t = np.array(state.observation_tensor(player))[300:328].reshape(4, 7)
    return {suit: int(np.flatnonzero(t[suit])[0]) - 3 for suit in range(4) if t[suit].any()}


# --- parameters and rule 1: the deal ------------------------------------------------------


def test_defaults_depend_on_players():
    assert (
        str(pyspiel.load_game("skip_domino"))
        == "skip_domino(deck=52,players=4,remove4=False,voluntary_pass=False)"
    )
    assert (
        str(pyspiel.load_game("skip_domino(players=2)"))
        == "skip_domino(deck=36,players=2,remove4=True,voluntary_pass=False)"
    )
    assert (
        str(pyspiel.load_game("skip_domino(players=2,deck=52,remove4=false)"))
        == "skip_domino(deck=52,players=2,remove4=False,voluntary_pass=False)"
    )
    game = pyspiel.load_game("skip_domino(players=6,voluntary_pass=true)")
    assert str(game) == "skip_domino(deck=52,players=6,remove4=False,voluntary_pass=True)"
    assert game.num_distinct_actions() == 163


@pytest.mark.parametrize(
    "game_string,sizes",
    [
        ("skip_domino", [13] * 4),
        ("skip_domino(players=2)", [16, 16]),
        ("skip_domino(players=4,deck=36)", [9] * 4),
        ("skip_domino(players=6,deck=52)", [9, 9, 8, 9, 9, 8]),
        ("skip_domino(players=6,deck=36,remove4=true)", [6, 6, 5, 5, 5, 5]),
    ],
)
def test_deal_sizes_and_seat_0_leads(game_string, sizes):
    state = pyspiel.load_game(game_string).new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.legal_actions()[0])
    assert hand_sizes(state) == sizes
    assert state.current_player() == 0


def test_3v3_with_52_cards_first_and_second_of_each_team_get_9():
    game = pyspiel.load_game("skip_domino(players=6)")
    d = cards.deck(52).tolist()
    hands = {0: d[0:9], 1: d[9:18], 2: d[18:26], 3: d[26:35], 4: d[35:44], 5: d[44:52]}
    state = deal(game.new_initial_state(), hands)
    assert hand_sizes(state) == [9, 9, 8, 9, 9, 8]
    for p in range(6):
        assert state.observation_string(p).split("hand: ")[1].split("\n")[0] == cards.cards_to_str(
            hands[p]
        )


def test_remove4_cards_are_in_nobodys_information():
    game = pyspiel.load_game("skip_domino(players=2)")
    hidden = "Ts Tc Td Th"
    rest = [c for c in cards.deck(36) if c not in ids(hidden)]
    state = deal(game.new_initial_state(), {UNSEEN: hidden, 0: rest[:16], 1: rest[16:]})
    for p in range(2):
        info = state.information_state_string(p)
        assert info.split()[1:5] == ["c:?"] * 4  # the four unseen cards
        for c in hidden.split():
            assert c not in info and c not in state.observation_string(p)
        assert not any(state.observation_tensor(p)[c] for c in ids(hidden))
    assert "4 removed unseen" in str(state)
    # the resampler may put an unseen card in the other player's hand
    worlds = [state.resample_from_infostate(0, rng=make_rng(i)) for i in range(40)]
    holders = {int(w.kernel_state()[LOC + C("Ts")]) for w in worlds}
    assert 1 in holders and len(holders) > 1


# --- rule 2: the grid -----------------------------------------------------------------------


def test_every_suit_keeps_its_row_and_the_grid_is_drawn():
    state = play(game_with(HANDS_A), SEED_EXAMPLE)
    assert grid(state) == [
        "               6   7   8   9   T   J   Q   K   A",
        "    spades     ..  ..  ..  ..  ..  ..  Qs  ..  ..",
        "    clubs      ..  ..  ..  ..  .. [Jc] Qc  ..  ..",
    ]
    # the seed: "Js can only go ABOVE Jc, in line with Qs" (into the spades row, action c);
    # a heart only below Jc, as spades own the row above
    assert names(state) == ["Js", "Jh-below"]
    assert relative_rows(state) == {0: 1, 1: 0}
    play(state, ["Js"])
    assert grid(state)[1] == "    spades     ..  ..  ..  ..  .. [Js] Qs  ..  .."
    assert relative_rows(state) == {0: 0, 1: -1}
    assert len(grid(state)) == 3  # still two rows under the header


def test_rows_are_relative_and_the_table_is_empty_after_a_trick():
    state = play(game_with(HANDS_B), [*SEED_EXAMPLE, "Jh-below", "PASS", "PASS"])
    assert state.scores() == [0.0, 4.0]
    assert grid(state) == []
    assert "table: (empty)" in str(state)
    assert relative_rows(state) == {}
    play(state, ["Tc"])  # seat 2 leads a new table
    assert relative_rows(state) == {1: 0}
    # hearts had a row in the last trick; now it may open one on either side again
    assert names(state) == ["Th-above", "Th-below"]


# --- rule 3: where a card may go --------------------------------------------------------------


def test_empty_table_any_card_and_no_new_row_actions():
    state = game_with(HANDS_A)
    assert state.legal_actions() == sorted(ids(HANDS_A[0]))


def test_same_suit_next_rank_and_new_rows_above_and_below():
    state = play(game_with(HANDS_A), ["Qs"])
    assert names(state) == ["Ks", "Qc-above", "Qc-below"]
    assert state.legal_actions() == [C("Ks"), ABOVE + C("Qc"), BELOW + C("Qc")]


def test_new_row_above():
    state = play(game_with(HANDS_A), ["Qs", "Qc-above"])
    assert grid(state)[1:] == [
        "    clubs      ..  ..  ..  ..  ..  .. [Qc] ..  ..",
        "    spades     ..  ..  ..  ..  ..  ..  Qs  ..  ..",
    ]
    assert relative_rows(state) == {0: -1, 1: 0}
    # the row below Qc is the spades row: Qd may only open a row above
    assert names(state) == ["Jc", "Kc", "Qd-above"]


def test_new_row_below_and_opening_blocked_by_another_suits_row():
    state = play(game_with(HANDS_A), ["Qs", "Qc-below"])
    assert relative_rows(state) == {0: 1, 1: 0}
    # the row above Qc is the spades row: Qd may only open a row below
    assert names(state) == ["Jc", "Kc", "Qd-below"]
    for bad in (C("Qd"), ABOVE + C("Qd")):
        with pytest.raises(IllegalActionError):
            state.apply_action(bad)


def test_a_suit_whose_row_is_not_adjacent_may_not_play_even_at_the_same_rank():
    state = play(game_with(HANDS_B), SEED_EXAMPLE)
    assert names(state) == ["Jd-below", "Jh-below"]
    play(state, ["Jh-below"])  # rows: spades, clubs, hearts (top down)
    assert relative_rows(state) == {0: 2, 1: 1, 3: 0}
    assert C("Js") in ids(HANDS_B[0])
    assert state.legal_actions() == [PASS]  # Js: spades row is two rows up
    for bad in (C("Js"), ABOVE + C("Js"), BELOW + C("Js")):
        with pytest.raises(IllegalActionError):
            state.apply_action(bad)


def test_no_card_beyond_the_ace_or_below_the_two():
    game = pyspiel.load_game("skip_domino(players=2,deck=52,remove4=false)")
    hands = {
        0: ids("3s 4s 5s 6s 7s 8s 9s Ts Js Qs As 2d 3d") + [13 + r for r in range(13)],
        1: ids("2s Ks") + [26 + r for r in range(2, 13)] + [39 + r for r in range(13)],
    }
    state = deal(game.new_initial_state(), hands)
    play(state, ["As"])
    assert names(state) == ["Ks", "Ad-above", "Ah-above", "Ad-below", "Ah-below"]
    play(state, ["Ks", "Qs"])
    # seat 1: Qs's neighbours are Js (seat 0) and Ks (on the table); Qd, Qh open rows
    assert names(state) == ["Qd-above", "Qh-above", "Qd-below", "Qh-below"]


# --- rule 4: passing -------------------------------------------------------------------------


def test_pass_is_forced_only_when_nothing_can_be_placed():
    state = play(game_with(HANDS_A), ["Qs"])
    assert PASS not in state.legal_actions()
    with pytest.raises(IllegalActionError):
        state.apply_action(PASS)
    state = play(game_with(HANDS_B), [*SEED_EXAMPLE, "Jh-below"])
    assert state.legal_actions() == [PASS]


def test_voluntary_pass_allowed_except_for_the_leader_of_an_empty_table():
    state = game_with(HANDS_A, voluntary=True)
    assert PASS not in state.legal_actions()  # seat 0 leads an empty table
    play(state, ["Qs"])
    assert names(state) == ["Ks", "Qc-above", "Qc-below", "PASS"]
    play(state, ["PASS", "PASS", "PASS"])  # seats 1, 2, 3: team 1 all passed
    assert state.scores() == [1.0, 0.0]
    assert state.current_player() == 0
    assert PASS not in state.legal_actions()  # the leader of the new table


def test_a_player_without_cards_can_only_pass():
    # 3v3 with 36 cards and remove4: seats 2..5 hold 5 cards
    game = pyspiel.load_game("skip_domino(players=6,deck=36,remove4=true,voluntary_pass=true)")
    hands = {
        UNSEEN: "6s 6c 6d 6h",
        0: "Ts Js Qs Ks As Tc",
        1: "Jc Qc Kc Ac Td Jd",
        2: "Qd Kd Ad Th Qh",
        3: "Jh Kh Ah 9s 9c",
        4: "9d 9h 8s 8c 8d",
        5: "8h 7s 7c 7d 7h",
    }
    state = deal(game.new_initial_state(), hands)
    play(state, ["Ts"])
    for c in "Js Qs Ks As".split():  # seats 1..5 pass, team 0 takes, seat 0 leads
        play(state, ["PASS"] * 5 + [c])
    play(state, ["PASS"] * 5)
    assert state.scores() == [5.0, 0.0]
    play(state, ["Tc"])  # seat 0 places its last card
    assert hand_sizes(state)[0] == 0
    play(state, ["PASS"] * 5)  # seats 1..5 pass: team 0 takes the Tc
    assert state.current_player() == 1  # seat 0 has no cards: seat 1 leads
    play(state, ["Jc", "PASS", "Jh-above"])  # seat 3 places: team 0 must pass again
    play(state, ["PASS", "PASS"])  # seats 4 and 5
    assert state.current_player() == 0
    assert state.legal_actions() == [PASS]  # no cards: PASS only, even by choice


# --- rule 4, knowledge: a forced pass proves the passer holds no playable card --------------


def passer_holdings(voluntary, tries=150):
    """Seat 0 passes on Jh (playable: Th, Qh, Jd, all held by seat 3); how often does a
    resample from seat 1's view give seat 0 one of them?"""
    state = play(game_with(HANDS_B, voluntary), [*SEED_EXAMPLE, "Jh-below", "PASS"])
    playable = ids("Th Qh Jd")
    hits, elsewhere = 0, set()
    for i in range(tries):
        s = state.resample_from_infostate(1, rng=make_rng(i)).kernel_state()
        hits += any(s[LOC + c] == 0 for c in playable)
        elsewhere |= {int(s[LOC + c]) for c in playable}
    return hits, elsewhere


def test_a_forced_pass_keeps_playable_cards_out_of_the_passers_resampled_hand():
    hits, elsewhere = passer_holdings(voluntary=False)
    assert hits == 0
    assert elsewhere == {2, 3}  # they are still re-dealt among the others


def test_a_voluntary_pass_proves_nothing():
    hits, _ = passer_holdings(voluntary=True)
    assert hits > 0


# --- rule 5: the trick -----------------------------------------------------------------------


def test_the_team_that_placed_last_takes_once_the_other_team_all_passed():
    state = play(game_with(HANDS_B), [*SEED_EXAMPLE, "Jh-below"])
    play(state, ["PASS"])  # seat 0 (team 0)
    assert state.scores() == [0.0, 0.0]  # seat 1 has not passed yet
    assert state.current_player() == 1
    assert "passed since: 0" in str(state)
    play(state, ["PASS"])  # seat 1: team 0 all passed since Jh
    assert state.scores() == [0.0, 4.0]
    assert state.current_player() == 2  # team 1's captain leads


def test_passes_of_the_placing_team_do_not_count_and_a_card_restarts_the_count():
    state = play(game_with(HANDS_A, voluntary=True), ["Qs", "PASS", "PASS"])
    assert state.scores() == [0.0, 0.0]  # seat 1 is seat 0's partner; seat 3 to come
    play(state, ["Js"])  # seat 3 places: team 0 must pass again
    play(state, ["PASS"])
    assert state.scores() == [0.0, 0.0]
    play(state, ["PASS"])
    assert state.scores() == [0.0, 2.0]
    assert state.current_player() == 2


def test_3v3_trick_needs_all_three_opponents():
    state = game_with(suit_hands(6, 36), voluntary=True, players=6)
    play(state, ["9s", "PASS", "PASS", "PASS", "PASS"])  # seats 1..4
    assert state.scores() == [0.0, 0.0]
    play(state, ["PASS"])  # seat 5: team 1 all passed
    assert state.scores() == [1.0, 0.0]
    assert state.current_player() == 0


@pytest.mark.parametrize(
    "game_string",
    [
        "skip_domino(players=4,deck=36)",
        "skip_domino(players=6,voluntary_pass=true)",
        "skip_domino(players=2)",
    ],
)
def test_trick_takers_lead_and_game_ends_when_they_have_no_cards(game_string):
    skipped = check_trick_takers_lead(game_string)
    if "players=2" not in game_string:
        assert skipped > 0  # the captain-without-cards case did occur


# --- rule 6: the end and the outcome ------------------------------------------------------------


def test_game_ends_when_the_taking_team_has_no_cards_even_if_the_other_has():
    # the tens are out unseen: 6..9 and J..A are two blocks nobody can answer across
    game = pyspiel.load_game("skip_domino(players=2)")
    low = [c for c in cards.deck(36) if cards.rank(c) <= 9]
    high = [c for c in cards.deck(36) if cards.rank(c) >= 11]
    state = deal(game.new_initial_state(), {UNSEEN: "Ts Tc Td Th", 0: low, 1: high})
    for c in low:
        assert state.current_player() == 0
        play(state, [cards.to_str(c)])
        assert state.legal_actions() == [PASS]
        play(state, ["PASS"])
    assert state.is_terminal()
    assert hand_sizes(state) == [0, 16]
    assert state.scores() == [16.0, 0.0]
    assert state.returns() == [1.0, -1.0]


class Reference:
    """Rules 3-6 written again, plainly, to check the kernel action by action."""

    def __init__(self, players, voluntary):
        self.n, self.voluntary = players, voluntary
        self.rows, self.last, self.last_seat, self.passed = {}, None, None, set()
        self.table, self.taken = 0, [0, 0]

    def team(self, seat):
        return seat // (self.n // 2)

    def legal(self, hand):
        if not hand:
            return [PASS]
        if self.last is None:
            return sorted(hand)
        suit, rank = divmod(self.last, 13)
        row = self.rows[suit]
        out = []
        for c in hand:
            su, r = divmod(c, 13)
            if su == suit and abs(r - rank) == 1:
                out.append(c)
            elif su != suit and r == rank:
                if su in self.rows:
                    if abs(self.rows[su] - row) == 1:
                        out.append(c)
                else:
                    out += [
                        a + c
                        for a, other in ((ABOVE, row + 1), (BELOW, row - 1))
                        if other not in self.rows.values()
                    ]
        if not out or self.voluntary:
            out.append(PASS)
        return sorted(out)

    def apply(self, seat, a, sizes):
        """The next player, or None at the end."""
        if a == PASS:
            self.passed.add(seat)
            team = self.team(self.last_seat)
            if all(q in self.passed for q in range(self.n) if self.team(q) != team):
                self.taken[team] += self.table
                self.rows, self.last, self.passed, self.table = {}, None, set(), 0
                members = [q for q in range(self.n) if self.team(q) == team and sizes[q]]
                return members[0] if members else None
            return (seat + 1) % self.n
        c = a % 54
        if self.last is None:
            self.rows[c // 13] = 0
        elif a >= ABOVE:
            self.rows[c // 13] = self.rows[self.last // 13] + (1 if a < BELOW else -1)
        self.last, self.last_seat, self.passed = c, seat, set()
        self.table += 1
        return (seat + 1) % self.n


def test_random_games_agree_with_a_plain_statement_of_the_rules():
    seen = {"above": 0, "below": 0, "forced": 0, "empty": 0, "draw": 0}
    for game_string in [
        "skip_domino(players=2)",
        "skip_domino(players=4,deck=36)",
        "skip_domino(players=6)",
        "skip_domino(players=2,voluntary_pass=true)",
        "skip_domino(players=4,voluntary_pass=true)",
    ]:
        game = pyspiel.load_game(game_string)
        voluntary = game.get_parameters()["voluntary_pass"]
        for seed in range(15):
            rng = np.random.default_rng(seed)
            state = game.new_initial_state()
            while state.is_chance_node():
                state.apply_action(int(rng.choice(state.legal_actions())))
            ref = Reference(game.num_players(), voluntary)
            while not state.is_terminal():
                p = state.current_player()
                hand = ids(
                    state.observation_string(p).split("hand: ")[1].split("\n")[0].replace("-", "")
                )
                legal = state.legal_actions()
                assert legal == ref.legal(hand)
                a = int(rng.choice(legal))
                seen["above"] += ABOVE <= a < BELOW
                seen["below"] += BELOW <= a < PASS
                seen["forced"] += legal == [PASS] and bool(hand)
                seen["empty"] += not hand
                state.apply_action(a)
                nxt = ref.apply(p, a, hand_sizes(state))
                assert state.scores() == [float(t) for t in ref.taken]
                assert state.is_terminal() == (nxt is None)
                if nxt is not None:
                    assert state.current_player() == nxt
            d = np.sign(ref.taken[0] - ref.taken[1])
            assert state.returns() == [
                d if ref.team(q) == 0 else -d for q in range(game.num_players())
            ]
            seen["draw"] += d == 0
    assert all(seen.values()), seen


@pytest.mark.parametrize(
    "game_string",
    [
        "skip_domino(players=2)",
        "skip_domino(players=4,voluntary_pass=true)",
        "skip_domino(players=6,deck=36,remove4=true)",
    ],
)
def test_batch_simulation_plays_the_same_games_as_the_api(game_string):
    df = sim.simulate(game_string, 15, seed=7)
    game = pyspiel.load_game(game_string)
    for row in df.itertuples():
        state = sim.play_game(game, int(row.seed))
        assert state.returns() == [getattr(row, f"return_{p}") for p in range(game.num_players())]
        assert state.scores() == [row.score_0, row.score_1]
        assert len(state.history()) == row.num_actions
