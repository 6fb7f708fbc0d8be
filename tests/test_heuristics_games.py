"""Every game's heuristic (``agents/heuristics/<game>.py``) in chosen positions: its rules of
thumb, one scenario each. (The contract every heuristic meets is ``test_heuristics.py``.)

A scenario deals chosen hands (``skip_ai.scenario.deal``), plays chosen moves, and names the
move a fresh heuristic bot makes there, as text; or, for what one move cannot say (a run of the
bot's own moves, several seeds), checks it with a small function of the position.
"""

from collections.abc import Callable
from dataclasses import dataclass

import pyspiel
import pytest
from trick_helpers import suit_hands

from agents import make_agent
from skip_ai import cards
from skip_ai.scenario import deal, play

FIRST = "<the first legal move>"
"""In ``Scenario.played``: the first legal move, whatever it is."""


@dataclass(frozen=True)
class Scenario:
    game: str
    hands: dict
    """Seat → its hand (ids or text), as ``deal`` takes them."""
    played: tuple = ()
    """Moves after the deal: texts, action ids, or ``FIRST``."""
    fill: bool = False
    """The seats' hands made up with the lowest remaining cards (``deal``)."""
    move: str | tuple[str, ...] = ()
    """The heuristic's move (its text); a tuple: any one of them."""
    legal: tuple[str, ...] = ()
    """Other moves legal there, so that the choice is a real one."""
    check: Callable[[pyspiel.State], None] | None = None
    """A check of its own instead of ``move``."""

    def state(self) -> pyspiel.State:
        game = pyspiel.load_game(self.game)
        state = deal(game.new_initial_state(), self.hands, fill=self.fill)
        for m in self.played:
            play(state, [state.legal_actions()[0] if m == FIRST else m])
        return state


def with_the_rest(deck: int, players: int, hands: dict) -> dict:
    """``hands`` and, to the seats not in it, the rest of the deck in equal shares, in card
    order, seat by seat."""
    given = {c for h in hands.values() for c in cards.cards_from_str(h)}
    rest = [c for c in cards.deck(deck).tolist() if c not in given]
    others = [p for p in range(players) if p not in hands]
    share = len(rest) // len(others)
    return {**hands, **{p: rest[share * i : share * (i + 1)] for i, p in enumerate(others)}}


def heuristic_move(state: pyspiel.State) -> str:
    bot = make_agent("heuristic", state.get_game())
    return state.action_to_string(state.current_player(), bot.step(state))


# ----- the checks of their own -----------------------------------------------------------------

PYATKI_ATTACK = 54


def builds_an_attack_of_6s_6c_7d(state: pyspiel.State) -> None:
    bot = make_agent("heuristic", state.get_game())
    picked = []
    while (a := bot.step(state)) != PYATKI_ATTACK:
        picked.append(a)
        state.apply_action(a)
    assert picked == cards.cards_from_str("6s 6c 7d")


def never_plays_6h(state: pyspiel.State) -> None:
    for seed in range(10):
        bot = make_agent("heuristic", state.get_game(), seed=seed)
        assert bot.step(state) != cards.from_str("6h")


# ----- the scenarios ---------------------------------------------------------------------------

# Domino: seat 0 leads 9h; seat 1 may place 8h or Th beside it (seat 0 holds the other nines).
# After 8h seat 0 may answer with 7h or 8d, after Th only with Td (seat 1 holds Jh and the
# other tens).
DOMINO_ANSWERER = "6s 7s 8s Ts Js Qs Ks As 6c 7c 8c Tc 6d 7d 8h Th Jh Qh"
# Fours: seat 0 holds three twos (a sure win), a pair of threes (never lost) and singles.
FOURS_SEAT0 = "2s 2c 2d 3s 3c 4s 5s 6s 7s 8s 9s Ts Js"
CHAINS_HANDS = {
    0: "6d 7d 8d 9d Td Jd Qd Kd Ad",
    1: "6h 7h 8h 9h Th Jh Qh Kh Ah",
    2: "6s 7s 8s 9s Ts Js Qs Ks As",
    3: "6c 7c 8c 9c Tc Jc Qc Kc Ac",
}
# Chains: the blind draws and a round: 6d at (0, 0), Ah right of it, As left of it, Ac below it;
# seat 0 (Red) to move holding 7d..Qd, 6c 7c.
CHAINS_TABLE = ("6c", "7c", "6s", "7s", "6h", "7h", "Ad", "Kd")
CHAINS_TABLE += ("6d@0,0", "Ah@0,1", "As@0,-1", "Ac@1,0")
RUMMY_QUIET = "3s 6s 9s Qs 4c 7c Tc Kc 5d 8d"
RUMMY_MELDS = {0: "As 2s 3s 4s 9h 9d 9c Kh 2d 5h", 1: "7s Js 4c 7c Tc Kc 5d 8d 3h Jh"}
RUMMY_MELDED = ("Jd", "DRAW_STOCK", "Qd", "meld As2s3s4s", "meld 9c9d9h")

SCENARIOS = {
    "brook/opens_with_the_cheapest_card_keeping_the_lowest_rank": Scenario(
        "skip_brook(players=4,deck=36,remove4=false)", suit_hands(4, 36), move="7s"
    ),
    "brook/passes_on_the_partners_card": Scenario(
        "skip_brook(players=4,deck=36,remove4=false)",
        suit_hands(4, 36),
        played=("7s",),
        legal=("6c",),
        move="PASS",
    ),
    # 7h is answered by six hearts and two sixes; Ah and 6s by the two sixes alone, and the
    # six is kept for later
    "brook/answers_the_opponents_card_with_the_safest_card": Scenario(
        "skip_brook(players=2,deck=36,remove4=false)",
        with_the_rest(36, 2, {0: "6s 7s 8s 9s Ts Js Qs Ks As 8c 9c Tc Jc Qc Kc Ac 7h Ah"}),
        played=("8c", "6h"),
        move="Ah",
    ),
    # Red's hearts are all exposed to the higher hearts out; 7s and Ks both beat Black's 5s;
    # seat 1 holds black cards only and nothing to beat
    "captains/beats_with_the_lowest_card_that_does_it": Scenario(
        "skip_two_captains",
        {0: "2d 2h 3h 4h 5h 6h 7s Ks 2c 3c 4c 5c 6c", 2: "5s"},
        fill=True,
        played=("2d", "PASS", "5s", FIRST),
        move="7s beats 5s",
    ),
    "captains/marries_the_king_to_its_lone_queen": Scenario(
        "skip_little_country",
        {0: "Qh Kh"},  # Ah is out
        fill=True,
        played=("Qh", FIRST, FIRST, FIRST),
        move="Kh",
    ),
    "chains/links_a_card_to_its_rank_neighbour": Scenario(
        "skip_chains(players=4,deck=36)", CHAINS_HANDS, played=CHAINS_TABLE, move="7d@-1,0"
    ),
    "chains/grows_its_chain_rather_than_start_elsewhere": Scenario(
        "skip_chains(players=4,deck=36)",
        CHAINS_HANDS,
        played=(*CHAINS_TABLE, "7d@-1,0", "Kh@-1,1", "Ks@-1,-1", "Kc@2,0"),
        move="8d@-2,0",  # 6d-7d-8d: 9 points
    ),
    # 1v1, 36 cards: Black has played 6c and 6d, Red is to move. After 6s the last Six is
    # Black's 6h, a red card: the column is Red's.
    "columns/plays_the_third_card_when_the_last_one_is_its_colour": Scenario(
        "skip_columns(players=2,deck=36)",
        {0: "6s 7h 8h", 1: "6c 6d 6h"},
        fill=True,
        played=("7h", "6c", "8h", "6d"),
        move="6s",
    ),
    # after 6h the last Six would be Black's 6s
    "columns/never_plays_the_third_card_when_the_last_one_is_the_other_colour": Scenario(
        "skip_columns(players=2,deck=36)",
        {0: "6h 7h 8h", 1: "6c 6d 6s"},
        fill=True,
        played=("7h", "6c", "8h", "6d"),
        check=never_plays_6h,
    ),
    **{
        f"domino/answers_the_opponents_card_with_the_least_answerable_card[{v}]": Scenario(
            f"skip_domino(players=2,deck=36,remove4=false,voluntary_pass={v})",
            with_the_rest(36, 2, {1: DOMINO_ANSWERER}),
            played=("9h",),
            move="Th",
        )
        for v in ("false", "true")
    },
    # seat 1 holds the clubs: 7c may go below or above
    "domino/passes_on_the_partners_card_when_passing_is_free": Scenario(
        "skip_domino(players=4,deck=36,remove4=false,voluntary_pass=true)",
        suit_hands(4, 36),
        played=("7s",),
        legal=("7c-above", "7c-below"),
        move="PASS",
    ),
    "fours/opens_with_a_pair_and_keeps_the_sure_win_for_a_pot": Scenario(
        "skip_fours", with_the_rest(52, 4, {0: FOURS_SEAT0}), move="3"
    ),
    # seat 0 holds every spade but the ace: the partner cannot follow a spade
    "guess/opens_a_column_in_a_suit_the_partner_may_hold": Scenario(
        "skip_guess(players=4,deck=52)",
        with_the_rest(52, 4, {0: "2s 3s 4s 5s 6s 7s 8s 9s Ts Js Qs Ks Ah"}),
        move=("Ah top", "Ah bottom"),  # the card, in either row
    ),
    "guess/finishes_a_column_with_the_middle_card": Scenario(
        "skip_guess(players=4,deck=52)",
        with_the_rest(
            52,
            4,
            {
                0: "2s 3s 4s 5s 6s 7s 8s 9s Ts Js Qs Ks 7h",
                1: "2h 8h Ah 2c 3c 4c 5c 6c 7c 8c 9c Tc Jc",
            },
        ),
        played=(cards.from_str("7h"),),  # the top cell of the first column
        move=("8h top", "8h bottom"),
    ),
    # Red's only red cards are 6h and Ah; Black holds every heart between them
    "harvest/lays_the_safe_low_card_and_keeps_the_exposed_ace": Scenario(
        "skip_harvest(players=2,deck=36)", {0: "6h Ah"}, fill=True, move="6h"
    ),
    "harvest/covers_with_its_lowest_card_of_the_suit": Scenario(
        "skip_harvest(players=2,deck=36)",
        {0: "Ah 6s Ks"},  # clubs 6c..Kc too
        fill=True,
        played=("Ah", "Ac"),
        move="6c on Ac",
    ),
    # hearts are trump; seat 0 holds the lowest trump (Kh) and attacks
    "pyatki/attacks_early_with_a_low_pair_and_a_low_extra_card": Scenario(
        "skip_pyatki(players=2)",
        {0: "6s 6c 7d Ah Kh", 1: "8s 9s Tc Jd Qs"},
        played=("Qh",),
        check=builds_an_attack_of_6s_6c_7d,
    ),
    "pyatki/defends_with_the_cheapest_cover": Scenario(
        "skip_pyatki(players=2)",
        {0: "6s 6c 7d Ah 7h", 1: "7s As 9h Jc Qd"},
        played=("Qh", "6s", "ATTACK"),
        move="cover with 7s",  # not As, not the trump 9h
    ),
    "pyatki/takes_rather_than_spend_a_high_trump": Scenario(
        "skip_pyatki(players=2)",
        {0: "6s 6c 7d Ah 7h", 1: "Jh Td Qd 8s 9s"},
        played=("Qh", "6c", "ATTACK"),
        move="TAKE",  # only the trump Jh covers it, and the stock is full
    ),
    "rummy/takes_the_up_card_when_it_makes_a_meld": Scenario(
        "classic_rummy(players=2)",
        {0: "2s 5s 8s Js 3c 6c 9c Qc 7h 7d", 1: RUMMY_QUIET},
        played=("7s",),
        move="DRAW_DISCARD",
    ),
    "rummy/leaves_the_up_card_when_it_makes_none": Scenario(
        "classic_rummy(players=2)",
        {0: "2s 5s 8s Js 3c 6c 9c Qc 7h 4d", 1: RUMMY_QUIET},
        played=("7s",),
        move="DRAW_STOCK",
    ),
    "rummy/melds_the_biggest_meld_first": Scenario(
        "classic_rummy(players=2)",
        RUMMY_MELDS,
        played=RUMMY_MELDED[:3],
        move="meld As2s3s4s",
    ),
    "rummy/melds_the_next_meld": Scenario(
        "classic_rummy(players=2)",
        RUMMY_MELDS,
        played=RUMMY_MELDED[:4],
        move="meld 9c9d9h",
    ),
    # Kh 2d 5h Qd left: the pictures are worth 10; Kh has no partner, Qd has none either
    "rummy/then_discards_the_highest_deadwood": Scenario(
        "classic_rummy(players=2)", RUMMY_MELDS, played=RUMMY_MELDED, move=("Kh", "Qd")
    ),
    # 4h, 5h: partners now, so Kh is the deadwood
    "rummy/discards_the_card_without_a_partner": Scenario(
        "classic_rummy(players=2)",
        RUMMY_MELDS,
        played=(*RUMMY_MELDED, "Qd", "DRAW_STOCK", "6s", "6s", "DRAW_STOCK", "4h"),
        move="Kh",
    ),
    "rummy/always_claims": Scenario(
        "classic_rummy(players=2)",
        {0: "6h 7h 8h 9h 2c 3d 4s 5c Ts Jd", 1: RUMMY_QUIET},
        played=("Ad", "DRAW_STOCK", "Kd", "meld 6h7h8h", "9h"),
        move="RUMMY",
    ),
}


@pytest.mark.parametrize("scenario", SCENARIOS.values(), ids=SCENARIOS.keys())
def test_the_heuristic_follows_its_rule_of_thumb(scenario: Scenario):
    state = scenario.state()
    p = state.current_player()
    legal = [state.action_to_string(p, a) for a in state.legal_actions()]
    assert set(scenario.legal) <= set(legal), legal
    if scenario.check is not None:
        scenario.check(state)
        return
    expected = (scenario.move,) if isinstance(scenario.move, str) else scenario.move
    assert expected and heuristic_move(state) in expected
