"""RULES.md §11 (Chains), every rule through the public API, deals chosen by chance actions;
the scoring function also on hand-made tables."""

import numpy as np
import pyspiel
import pytest

from skip_ai import IllegalActionError, cards, sim
from skip_ai.games.chains import (
    CH_CELL,
    OBS_BOX,
    OBS_COL,
    OBS_DRAWN,
    OBS_GIVEN,
    OBS_ROW,
    OBS_SIZE,
    OBS_TABLE,
    chains,
    links_of,
)
from skip_ai.kernel.rng import below, make_rng
from skip_ai.kernel.state import KNOWN, LOC
from skip_ai.scenario import deal, play

C = cards.from_str


def colour_cards(deck, colour):
    return [int(c) for c in cards.deck(deck) if cards.colour(int(c)) == colour]


def split(deck, players):
    """Original hands: the red cards round robin to the Red seats, the black to the Black."""
    k = players // 2
    hands = {}
    for team, colour in ((0, cards.RED), (1, cards.BLACK)):
        own = colour_cards(deck, colour)
        sizes = [len(own) // k + (1 if i < len(own) % k else 0) for i in range(k)]
        for i, size in enumerate(sizes):
            hands[team * k + i], own = own[:size], own[size:]
    return hands


def start(game_string="skip_chains", hands=None, draws=None):
    """Deal ``hands`` (default :func:`split`), then make the blind draws: ``draws`` lists the
    cards in draw order (default: the lowest possible card every time)."""
    game = pyspiel.load_game(game_string)
    p = game.get_parameters()
    state = deal(game.new_initial_state(), hands or split(p["deck"], p["players"]))
    for c in cards.cards_from_str(draws) if draws else []:
        state.apply_action(c)
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    return state


def outcomes(state):
    return [a for a, _ in state.chance_outcomes()]


def cell_of(text):
    r, c = text.split("@")[1].split(",")
    return int(r), int(c)


def legal_cells(state):
    p = state.current_player()
    return {cell_of(state.action_to_string(p, a)) for a in state.legal_actions()}


def put(state, cells):
    """Place cards on ``cells`` (row, column offsets) in turn, each player his lowest card."""
    for r, c in cells:
        p = state.current_player()
        texts = [state.action_to_string(p, a) for a in state.legal_actions()]
        play(state, [next(t for t in texts if cell_of(t) == (r, c))])
    return state


def block(rows, cols):
    """The cells of a rows × cols rectangle from (0, 0), row by row."""
    return [(r, c) for r in range(rows) for c in range(cols)]


def table_of(state):
    """(row, column) → card of the table, read from the rendering."""
    lines = str(state).splitlines()
    i = next(i for i, line in enumerate(lines) if line.startswith("  table ("))
    columns = [int(x) for x in lines[i + 1].split()]
    out = {}
    for line in lines[i + 2 :]:
        if line.startswith("  chains"):
            break
        row, *texts = line.split()
        for col, t in zip(columns, texts):
            if t != "..":
                out[int(row), col] = C(t)
    return out


def score_table(rows, n=13):
    """Score a hand-made table: ``rows`` of card texts, ``..`` empty. Returns
    ((Red, Black), chains as text)."""
    w = 2 * n - 1
    cells = np.full(54, -1, np.int64)
    for r, line in enumerate(rows):
        for c, t in enumerate(line.split()):
            if t != "..":
                cells[C(t)] = (n - 1 + r) * w + n - 1 + c
    starts, lengths = np.empty(24, np.int64), np.empty(24, np.int64)
    red, black, count = chains(links_of(cells, 0, w), starts, lengths)
    found = sorted(
        "-".join(cards.to_str(c) for c in range(s, s + k))
        for s, k in zip(starts[:count].tolist(), lengths[:count].tolist())
    )
    return (red, black), found


# --- rule 1: the deal by colour -------------------------------------------------------------


@pytest.mark.parametrize(
    "players,deck,sizes",
    [
        (4, 52, [13, 13, 13, 13]),
        (4, 36, [9, 9, 9, 9]),
        (6, 52, [9, 9, 8, 9, 9, 8]),
        (6, 36, [6, 6, 6, 6, 6, 6]),
    ],
)
def test_red_cards_to_red_seats_then_black_to_black_seats(players, deck, sizes):
    state = pyspiel.load_game(f"skip_chains(players={players},deck={deck})").new_initial_state()
    red, black = colour_cards(deck, cards.RED), colour_cards(deck, cards.BLACK)
    k = players // 2
    for i in range(deck):
        colour = red if i < deck // 2 else black
        # only the undealt cards of the colour being dealt can come
        dealt = set(state.history())
        assert outcomes(state) == [c for c in colour if c not in dealt]
        state.apply_action(outcomes(state)[-1])
    s = state.kernel_state()
    for seat in range(players):
        held = [c for c in range(52) if s[LOC + c] == seat]
        assert len(held) == sizes[seat]
        assert set(held) <= set(red if seat < k else black)
    assert state.is_chance_node()  # the blind draws follow


def test_a_card_of_the_other_colour_cannot_be_dealt():
    state = pyspiel.load_game("skip_chains").new_initial_state()
    for _ in range(25):
        with pytest.raises(IllegalActionError):
            state.apply_action(C("2s"))  # while the red cards are dealt
        state.apply_action(outcomes(state)[0])
    state.apply_action(outcomes(state)[0])
    assert outcomes(state) == colour_cards(52, cards.BLACK)


@pytest.mark.parametrize("players,deck,d", [(4, 36, 2), (4, 52, 3), (6, 52, 2), (6, 36, 1)])
def test_each_seat_draws_d_cards_from_the_opposite_seat(players, deck, d):
    game = pyspiel.load_game(f"skip_chains(players={players},deck={deck})")
    hands = split(deck, players)
    state = deal(game.new_initial_state(), hands)
    for seat in range(players):
        opposite = players - 1 - seat
        for _ in range(d):
            assert state.is_chance_node()
            # drawn blind from the opposite seat's original cards not taken yet
            taken = set(state.history()[deck:])
            assert outcomes(state) == [c for c in hands[opposite] if c not in taken]
            state.apply_action(outcomes(state)[0])
    assert state.current_player() == 0  # then seat 0 starts
    s = state.kernel_state()
    for seat in range(players):
        held = {c for c in range(52) if s[LOC + c] == seat}
        assert len(held) == len(hands[seat])
        assert len(held - set(hands[seat])) == d
        assert held - set(hands[seat]) <= set(hands[players - 1 - seat])


def test_a_draw_never_takes_a_card_the_drawn_from_seat_drew_itself():
    """Seat 3 draws from seat 0 after seat 0 drew three black cards from it: only seat 0's
    original red cards can come."""
    hands = split(52, 4)  # seat 0 diamonds, 1 hearts, 2 spades, 3 clubs
    state = deal(pyspiel.load_game("skip_chains").new_initial_state(), hands)
    for c in cards.cards_from_str("2c 3c 4c 2s 3s 4s 2h 3h 4h"):  # seats 0, 1, 2 draw
        state.apply_action(c)
    assert outcomes(state) == hands[0]  # seat 3's turn: seat 0's diamonds only
    with pytest.raises(IllegalActionError):
        state.apply_action(C("2c"))


def test_only_the_drawer_and_the_drawn_from_seat_see_the_card():
    hands = split(52, 4)
    state = start(hands=hands, draws="5c")  # seat 0 draws 5c from seat 3 (clubs)
    for p in (0, 3):
        assert "c:5c" in state.information_state_string(p).split()
    for p in (1, 2):
        info = state.information_state_string(p).split()
        assert "c:5c" not in info
        assert info[1 + 52] == "c:?03"  # the first draw, after the 52 deal nodes
    s = state.kernel_state()
    assert s[LOC + C("5c")] == 0 and s[KNOWN + C("5c")] & 0b1111 == 0b1000
    t0, t3 = np.array(state.observation_tensor(0)), np.array(state.observation_tensor(3))
    assert t0[OBS_DRAWN + C("5c")] == 1 and t3[OBS_GIVEN + C("5c")] == 1
    assert t0[OBS_GIVEN : OBS_GIVEN + 54].sum() == 3  # what seat 3 drew from seat 0
    assert t0[OBS_DRAWN : OBS_DRAWN + 54].sum() == 3
    line = state.observation_string(0).split("drawn from seat 3: ")[1].split("\n")[0]
    assert "5c" in line.split()
    assert "5c" not in state.observation_string(1)


def test_resampling_keeps_every_drawn_card_in_its_colour():
    """From seat 1's view the exchange between seats 0 and 3 is hidden: a resampled world
    may change those cards, but a card seat 0 drew from seat 3 is always black and one seat
    3 drew from seat 0 always red; seat 1's own knowledge stays as it is."""
    state = start()
    put(state, [(0, 0), (0, 1), (1, 0)])
    s = state.kernel_state()
    own = {
        c: (int(s[LOC + c]), int(s[KNOWN + c]))
        for c in range(52)
        if s[LOC + c] in (1, 2) and s[KNOWN + c] & 0b0110
    }
    changed = set()
    for i in range(200):
        r = state.resample_from_infostate(1, rng=make_rng(i)).kernel_state()
        for c in range(52):
            seat = int(r[LOC + c])
            if not 0 <= seat < 4:
                continue
            opposite = 3 - seat
            drawn = (r[KNOWN + c] >> opposite) & 1
            expected = (
                (cards.RED if opposite < 2 else cards.BLACK)
                if drawn
                else (cards.RED if seat < 2 else cards.BLACK)
            )
            assert cards.colour(c) == expected
            if drawn and seat in (0, 3):
                changed.add(c)
        for c, place in own.items():
            assert (int(r[LOC + c]), int(r[KNOWN + c])) == place
    assert len(changed) > 6  # the hidden exchange really was re-drawn


# --- rule 2: placing cards ------------------------------------------------------------------


def test_first_card_defines_cell_0_0():
    state = start()
    n, w = 13, 25
    held = [c for c in range(52) if state.kernel_state()[LOC + c] == 0]
    assert state.legal_actions() == [c * w * w + (n - 1) * w + (n - 1) for c in held]
    assert legal_cells(state) == {(0, 0)}
    play(state, [state.action_to_string(0, state.legal_actions()[0])])
    assert state.current_player() == 1


def test_a_card_goes_into_an_empty_cell_next_to_a_placed_card():
    state = put(start(), [(0, 0)])
    assert legal_cells(state) == {(-1, 0), (1, 0), (0, -1), (0, 1)}
    put(state, [(0, 1)])
    assert legal_cells(state) == {(-1, 0), (1, 0), (0, -1), (-1, 1), (1, 1), (0, 2)}
    put(state, [(1, 1)])
    assert (0, 0) not in legal_cells(state) and (1, 0) in legal_cells(state)
    # every card of the hand may go into every such cell
    assert len(state.legal_actions()) == 13 * len(legal_cells(state))
    card = state.legal_actions()[0] // 625
    with pytest.raises(IllegalActionError):
        state.apply_action(card * 625 + (12 + 2) * 25 + 12 + 2)  # at (2, 2): touches none


def test_a_wide_table_may_not_grow_a_fifth_row():
    state = put(start(), block(4, 5))  # 4 rows × 5 columns
    cells = legal_cells(state)
    assert not any(r in (-1, 4) for r, _ in cells)  # 5 tall and 5 wide: not 4 × N
    assert {(0, -1), (3, -1), (0, 5), (3, 5)} <= cells  # still 4 tall: may grow to 13 wide
    put(state, [(r, c) for r in range(4) for c in range(5, 13)])  # 4 × 13: the full table
    assert state.is_terminal()


def test_a_tall_n_by_4_table_is_allowed():
    state = put(start("skip_chains(deck=36)"), block(5, 4))  # 5 rows × 4 columns, N = 9
    cells = legal_cells(state)
    assert not any(c in (-1, 4) for _, c in cells)  # 5 wide and 5 tall: not N × 4
    assert {(-1, 0), (-1, 3), (5, 0), (5, 3)} <= cells
    put(state, [(r, c) for r in range(5, 9) for c in range(4)])  # 9 × 4
    assert state.is_terminal()
    assert len(table_of(state)) == 36


def test_no_more_than_n_rows():
    state = put(start("skip_chains(deck=36)"), [(r, 0) for r in range(9)])  # a 9 × 1 column
    cells = legal_cells(state)
    assert (-1, 0) not in cells and (9, 0) not in cells
    assert {(0, -1), (8, 1)} <= cells


def test_a_player_without_cards_is_skipped():
    """3 vs 3 with 52 cards: seats 2 and 5 hold 8 cards, the others 9; the last round is
    played by seats 0, 1, 3 and 4 only."""
    state = start("skip_chains(players=6)")
    movers = []
    rng = np.random.default_rng(2)
    while not state.is_terminal():
        movers.append(state.current_player())
        state.apply_action(int(rng.choice(state.legal_actions())))
    assert movers[:48] == list(range(6)) * 8
    assert movers[48:] == [0, 1, 3, 4]


@pytest.mark.parametrize(
    "game_string",
    [
        "skip_chains",
        "skip_chains(players=6)",
        "skip_chains(deck=36)",
        "skip_chains(players=6,deck=36)",
    ],
)
def test_the_game_ends_with_a_full_4_by_n_or_n_by_4_rectangle(game_string):
    game = pyspiel.load_game(game_string)
    n = game.get_parameters()["deck"] // 4
    shapes = set()
    for seed in range(12):
        rng = np.random.default_rng(seed)
        state = game.new_initial_state()
        while not state.is_terminal():
            actions = state.legal_actions()
            assert actions  # a move is always possible
            if state.is_player_node():
                assert sorted(actions) == sorted(reference_moves(state))
            state.apply_action(int(rng.choice(actions)))
        table = table_of(state)
        rows = {r for r, _ in table}
        cols = {c for _, c in table}
        assert len(table) == len(rows) * len(cols) == 4 * n
        assert (len(rows), len(cols)) in ((4, n), (n, 4))
        shapes.add(len(rows) == 4)
    assert shapes == {True, False}  # both ways round occur


def reference_moves(state):
    """The legal actions straight from rule 2, for comparison with the kernel's."""
    n = state.get_game().get_parameters()["deck"] // 4
    w = 2 * n - 1
    table = table_of(state) if "table (" in str(state) else {}
    p = state.current_player()
    s = state.kernel_state()
    held = [c for c in range(52) if s[LOC + c] == p]
    if not table:
        free = {(0, 0)}
    else:
        free = set()
        for r, c in table:
            for cell in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
                if cell in table:
                    continue
                rows = [x for x, _ in table] + [cell[0]]
                cols = [y for _, y in table] + [cell[1]]
                h, wd = max(rows) - min(rows) + 1, max(cols) - min(cols) + 1
                if (h <= 4 and wd <= n) or (h <= n and wd <= 4):
                    free.add(cell)
    return [c * w * w + (r + n - 1) * w + (col + n - 1) for c in held for r, col in free]


def test_random_legal_is_the_legal_list_at_a_uniform_index():
    """The kernel's sampler (batch playouts) picks exactly what the pyspiel-side random agent
    picks from the legal list with the same generator."""
    from skip_ai.games import chains as K

    game = pyspiel.load_game("skip_chains(players=6)")
    rng = np.random.default_rng(5)
    for _ in range(3):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_player_node():
                s = state.kernel_state()
                a, b = make_rng(7), make_rng(7)
                legal = state.legal_actions()
                assert K.random_legal(s, a) == legal[below(b, len(legal))]
            state.apply_action(int(rng.choice(state.legal_actions())))


@pytest.mark.parametrize("game_string", ["skip_chains", "skip_chains(players=6,deck=36)"])
def test_simulate_agrees_with_the_pyspiel_api(game_string):
    df = sim.simulate(game_string, 10, seed=3)
    g = pyspiel.load_game(game_string)
    for row in df.itertuples():
        state = sim.play_game(g, int(row.seed))
        assert state.returns() == [getattr(row, f"return_{p}") for p in range(g.num_players())]
        assert state.scores() == [row.score_0, row.score_1]
        assert len(state.history()) == row.num_actions


# --- rule 3: chains ---------------------------------------------------------------------------


def test_an_l_shaped_ten_jack_queen_is_worth_14():
    assert score_table(["Th Jh", ".. Qh"]) == ((14, 0), ["Th-Jh-Qh"])


def test_ten_queen_jack_in_a_row_is_only_the_jack_queen_chain():
    # the 10 does not touch the J: the chain is J-Q, 2² + 2 + 3
    assert score_table(["Th Qh Jh"]) == ((9, 0), ["Jh-Qh"])


def test_longer_chains_and_face_card_bonuses():
    assert score_table(["2s 3s 4s", ".. .. 5s 6s"]) == ((0, 25), ["2s-3s-4s-5s-6s"])
    assert score_table(["9d Td Jd Qd Kd Ad"]) == ((36 + 2 + 3 + 4 + 5, 0), ["9d-Td-Jd-Qd-Kd-Ad"])
    # a chain curled up in a 2 × 2 square (the seed's «калачиком»)
    assert score_table(["5h 6h", "8h 7h"]) == ((16, 0), ["5h-6h-7h-8h"])


def test_chains_of_both_colours():
    assert score_table(["7c 8c 9c", "Kh Ah .."]) == ((4 + 4 + 5, 9), ["7c-8c-9c", "Kh-Ah"])


def test_a_gap_breaks_a_chain():
    assert score_table(["7c 8c .. 9c"]) == ((0, 4), ["7c-8c"])
    # 8 and 9 apart: two chains
    assert score_table(["7c 8c Tc 9c"]) == ((0, 8), ["7c-8c", "9c-Tc"])
    # a missing rank breaks it too
    assert score_table(["7c 8c Tc Jc"]) == ((0, 4 + 4 + 2), ["7c-8c", "Tc-Jc"])


def test_no_chain_across_suits_ranks_or_around_the_ace():
    assert score_table(["Ac 2d"]) == ((0, 0), [])  # consecutive ids, different suits
    assert score_table(["Ah 2h"]) == ((0, 0), [])  # the Ace is high only
    assert score_table(["Th Td Ts"]) == ((0, 0), [])  # equal ranks
    assert score_table(["7s", "8s"]) == ((0, 4), ["7s-8s"])  # vertical works
    assert score_table(["7s ..", ".. 8s"]) == ((0, 0), [])  # diagonal does not


def test_scores_are_the_running_chain_values_and_the_table_is_drawn():
    state = start()  # seat 0 holds the diamonds but the three seat 3 draws (2d 3d 4d)
    play(state, ["Td@0,0"])
    assert state.scores() == [0.0, 0.0]
    put(state, [(1, 0), (2, 0), (0, -1)])  # the others place elsewhere
    play(state, ["Jd@0,1"])
    assert state.scores()[0] == 6.0  # 2² + 2 for the J
    put(state, [(1, -1), (2, -1), (-1, 0)])
    play(state, ["Qd@-1,1"])
    assert state.scores()[0] == 14.0
    text = str(state)
    assert "chains: Red 14 (Td-Jd-Qd=14)" in text
    table = table_of(state)
    assert table[0, 0] == C("Td") and table[0, 1] == C("Jd") and table[-1, 1] == C("Qd")
    # the grid: column offsets over the rows, each row its offset then its cells
    lines = text.splitlines()
    i = lines.index("  table (4 × 3):")
    assert lines[i + 1].split() == ["-1", "0", "1"]
    assert lines[i + 2].split() == ["-1", "..", "6c", "Qd"]
    assert lines[i + 3].split() == ["0", "5c", "Td", "Jd"]


def test_higher_chain_total_wins_and_equal_is_a_draw():
    df = sim.simulate("skip_chains(players=6,deck=36)", 3000, seed=1)
    diff = np.sign(df.score_0 - df.score_1)
    assert (df.return_0 == diff).all() and (df.return_3 == -diff).all()
    assert (diff == 0).any() and (diff > 0).any() and (diff < 0).any()


# --- the observation tensor -----------------------------------------------------------------


def test_observation_tensor_layout():
    state = put(start(), [(0, 0), (0, 1), (1, 1), (-1, 0)])
    s = state.kernel_state()
    on_table = [c for c in range(52) if s[CH_CELL + c] >= 0]
    t = np.array(state.observation_tensor(2))
    assert len(t) == OBS_SIZE == 346
    assert sorted(np.flatnonzero(t[OBS_TABLE : OBS_TABLE + 54]).tolist()) == on_table
    table = table_of(state)
    for (r, c), card in table.items():
        assert t[OBS_ROW + card] == pytest.approx(r / 12)
        assert t[OBS_COL + card] == pytest.approx(c / 12)
    assert t[OBS_BOX : OBS_BOX + 4].tolist() == pytest.approx([-1 / 12, 1 / 12, 0, 1 / 12])
