"""skip_brook — Brook («Ручеек», СКИП-8), RULES.md §8.

A stream of single cards: any card starts it; then a card of the last card's suit and higher
rank, or any card of the deck's lowest rank. Passing is free (but not on an empty stream while
holding cards); when the team that did not play the last card has all passed since, the team
that played it takes the stream and its captain starts the next one.

Levers (RULES §0.7, default: the rules): ``first_seat`` starts the first stream; ``seating``
seats partners alternately; ``trick_lead`` gives the next stream to the team that took the
last one (``winner``, the rules), to the other team (``loser``) or to the teams in turn
(``alternate``); ``end=hands_out`` plays on until nobody holds a card (the rules end the game
once the taking team holds none); ``komi`` adds cards to team 0's count before the counts are
compared.

Actions: ``c`` plays card ``c``; ``54`` is PASS. num_distinct_actions = 55.

State (after the trick slots of ``kernel.tricks``): ``BR_STREAM_N`` cards in the current
stream and ``BR_STREAM[i]`` the i-th of them, for the text; ``BR_TRICKS`` the streams taken so
far (``trick_lead=alternate``: stream t is started by the first stream's team when t is even).

Observation tensor (300 floats): ``[0, 72)`` the common part
(``kernel.state.write_common_observation``), ``[72, 300)`` the trick part
(``kernel.tricks.write_observation``: stream cards, cards taken by each team, the last card,
who passed since it, who played it).
"""

import sys

import numpy as np
from numba import njit

from skip_ai import cards, text
from skip_ai.kernel.bits import list_segments, sample_segments
from skip_ai.kernel.resample import plan_default as resample_plan  # noqa: F401  (kernel API)
from skip_ai.kernel.resample import redeal as resample_planned  # noqa: F401  (kernel API)
from skip_ai.kernel.resample import resample_hidden as resample  # noqa: F401  (kernel API)
from skip_ai.kernel.state import (
    CHANCE,
    EXTRAS_3V3,
    H_CUR,
    H_MOVES,
    HAND,
    NUM_CARDS,
    OBS_COMMON,
    TERMINAL,
    all_seats,
    deal_card,
    dealing,
    new_state,
    next_seat,
    param,
    seat_teams,
    setup_deal,
    standard_deck,
    team_of,
    write_common_observation,
)

# the deal is the game's only chance event
from skip_ai.kernel.state import sample_undealt as sample_chance  # noqa: F401  (kernel API)
from skip_ai.kernel.state import undealt_cards as chance_outcomes  # noqa: F401  (kernel API)
from skip_ai.kernel.tricks import (
    OBS_TRICKS,
    TK_LAST,
    TK_LAST_CARD,
    TK_TABLE,
    TRICK_END,
    init_tricks,
    pass_turn,
    put_on_table,
    returns_by_taken,
    taken_scores,
    team_leader,
)
from skip_ai.kernel.tricks import write_observation as write_trick_observation
from skip_ai.layout import Layout, taken_zones, trick_facts
from skip_ai.pyspiel_wrapper import register
from skip_ai.spec import (
    DECK_36_FOR_1V1,
    PLAYERS_2_4_6,
    REMOVE4,
    SEATING,
    GameSpec,
    Mirror,
    Param,
    check_first_seat,
    first_seat,
    komi,
)

P_PLAYERS, P_DECK, P_REMOVE4, P_FIRST, P_SEATING, P_TRICK_LEAD, P_END, P_KOMI = range(8)
PASS = 54
REMOVED = 4
WINNER, LOSER, ALTERNATE = 0, 1, 2
"""``trick_lead``: who starts the next stream."""
TAKER_OUT, HANDS_OUT = 0, 1
"""``end``: the game ends when the taking team holds no card (the rules), or when nobody does."""

BR_STREAM_N = TRICK_END
BR_STREAM = BR_STREAM_N + 1
BR_TRICKS = BR_STREAM + NUM_CARDS
STATE_SIZE = BR_TRICKS + 1
OBS_SIZE = OBS_COMMON + OBS_TRICKS


@njit(cache=True)
def init(params):
    s = new_state(STATE_SIZE, params)
    unseen = REMOVED if params[P_REMOVE4] else 0
    setup_deal(s, params[P_PLAYERS], standard_deck(params[P_DECK], False), unseen, EXTRAS_3V3)
    seat_teams(s, params[P_SEATING])
    init_tricks(s)
    return s


@njit(cache=True, inline="always")
def playable(s):
    """Mask of every card that may follow the last card of the stream (rule 3)."""
    last = s[TK_LAST_CARD]
    low = 15 - param(s, P_DECK) // 4
    lowest_rank = np.int64(0)
    for suit in range(4):
        lowest_rank |= np.int64(1) << (13 * suit + low - 2)
    end_of_suit = np.int64(1) << (13 * (last // 13 + 1))
    higher_same_suit = (end_of_suit - 1) & ~((np.int64(2) << last) - 1)
    return higher_same_suit | lowest_rank


@njit(cache=True, inline="always")
def _legal(s):
    """(mask of playable cards in hand, PASS or -1)."""
    held = s[HAND + s[H_CUR]]
    if held == 0:
        return np.int64(0), PASS
    if s[TK_TABLE] == 0:
        return held, -1
    return held & playable(s), PASS


@njit(cache=True)
def legal_actions(s, out):
    cards_mask, extra = _legal(s)
    return list_segments((cards_mask,), extra, out)


@njit(cache=True)
def random_legal(s, rng):
    cards_mask, extra = _legal(s)
    return sample_segments((cards_mask,), extra, rng)


@njit(cache=True, inline="always")
def _next_stream_starter(s, taker):
    """Who starts the next stream after team ``taker`` took one (rule 4 as ``trick_lead``
    says): the captain of the team due, else its next member with cards; the other team's
    when the team due holds none (``trick_lead=winner``: only with ``end=hands_out``);
    TERMINAL when nobody holds a card."""
    how = param(s, P_TRICK_LEAD)
    due = taker
    if how == LOSER:
        due = 1 - taker
    elif how == ALTERNATE:
        due = (team_of(s, param(s, P_FIRST)) + s[BR_TRICKS]) & 1
    seat = team_leader(s, due)
    if seat < 0:
        seat = team_leader(s, 1 - due)
    return TERMINAL if seat < 0 else seat


@njit(cache=True)
def apply_action(s, a):
    s[H_MOVES] += 1
    cur = s[H_CUR]
    if cur == CHANCE:
        vis = deal_card(s, a)
        if not dealing(s):
            s[H_CUR] = param(s, P_FIRST)
        return vis
    if a == PASS:
        last = s[TK_LAST]  # read before a trick clears the table
        if pass_turn(s, cur):
            s[BR_STREAM_N] = 0
            s[BR_TRICKS] += 1
            # pass_turn ended the game when the taking team holds no card (rule 5)
            if s[H_CUR] != TERMINAL or param(s, P_END) == HANDS_OUT:
                s[H_CUR] = _next_stream_starter(s, team_of(s, last))
        return all_seats(s)
    put_on_table(s, cur, a)
    s[BR_STREAM + s[BR_STREAM_N]] = a
    s[BR_STREAM_N] += 1
    s[H_CUR] = next_seat(s, cur)
    return all_seats(s)


@njit(cache=True)
def scores(s, out):
    taken_scores(s, out, param(s, P_KOMI))


@njit(cache=True)
def returns(s, out):
    returns_by_taken(s, out, False, param(s, P_KOMI))


@njit(cache=True)
def observation(s, p, out):
    write_common_observation(s, p, out)
    write_trick_observation(s, p, out, OBS_COMMON)


# ----- Python side: declaration, text and the table in a browser --------------------------

TEAM_NAMES = ("team 0", "team 1")


def action_to_string(s, player: int, action: int) -> str:
    return "PASS" if action == PASS and player >= 0 else cards.to_str(action)


def _table_lines(s) -> list[str]:
    stream = [int(s[BR_STREAM + i]) for i in range(int(s[BR_STREAM_N]))]
    return [
        text.table_line(s, "stream", cards.cards_to_str(stream)),
        text.taken_line(s, TEAM_NAMES) + text.komi_note(int(param(s, P_KOMI))),
    ]


def _cards_in_play(p: dict) -> int:
    return p["deck"] - (REMOVED if p["remove4"] else 0)


def _title(s) -> str:
    return f"Brook, {text.players(s)} players, {int(param(s, P_DECK))} cards" + (
        ", 4 removed unseen" if param(s, P_REMOVE4) else ""
    )


def _layout(s) -> Layout:
    """The stream and the cards each team took (``GameSpec.layout``)."""
    stream = [int(s[BR_STREAM + i]) for i in range(int(s[BR_STREAM_N]))]
    return {
        "zones": [{"kind": "row", "title": "stream", "cards": stream}, *taken_zones(s, TEAM_NAMES)],
        "facts": trick_facts(s),
    }


TRICK_LEADS = ("winner", "loser", "alternate")
ENDS = ("taker_out", "hands_out")
KOMI = (-4, -3, -2, -1, 0, 1, 2, 3, 4)
"""The komi's choices, in cards taken: between heuristic players the second team leads by 2
cards in the median game (by 2 to 5 in most), so a few cards either way span the question."""


SPEC = GameSpec(
    short_name="skip_brook",
    long_name="Brook",
    original_name="Ручеек",
    rules_section="§8",
    kernel=sys.modules[__name__],
    params=(
        PLAYERS_2_4_6,
        DECK_36_FOR_1V1,
        REMOVE4,
        first_seat("the seat that starts the first stream (the rules: seat 0)"),
        SEATING,
        Param(
            "trick_lead",
            "winner",
            TRICK_LEADS,
            "who starts a new stream: the taking team's captain (the rules), the other "
            "team's, or the teams in turn",
            lever=True,
        ),
        Param(
            "end",
            "taker_out",
            ENDS,
            "when the game ends: once the team that took a stream holds no card (the rules), "
            "or once nobody holds a card (the other team plays its cards on)",
            lever=True,
        ),
        komi(KOMI, "cards"),
    ),
    num_players=lambda p: p["players"],
    num_distinct_actions=lambda p: 55,
    max_chance_outcomes=lambda p: 54,
    # every card played is followed by at most n - 1 passes before a card or a trick
    max_game_length=lambda p: _cards_in_play(p) * p["players"],
    observation_size=lambda p: OBS_SIZE,
    action_to_string=action_to_string,
    title=_title,
    table_lines=_table_lines,
    layout=_layout,
    team_names=TEAM_NAMES,
    check=lambda p: check_first_seat("skip_brook", p),
    mirror=Mirror(swap_colours=False),
)
register(SPEC)
