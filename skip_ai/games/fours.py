"""skip_fours — Fours («Четверки», СКИП-7), RULES.md §7.

Four players, two teams of partners side by side ({0, 1} and {2, 3}; alternately, {0, 2} and
{1, 3}, with the ``seating`` lever). The leader names a rank he holds and puts down all his
cards of it; every other player at once puts down all of theirs, so all four cards of the rank
lie on the table. 3:1 or 4:0 by team: that team takes the table.
2:2: the table stays and another lead follows (``lead_order``: the next player clockwise with
cards, or the previous leader's partner). The next trick is led by the taking team's captain
(``trick_lead=winner``) or by the teams in turn (``alternate``). The game ends when the team
that just took a trick holds no card, or when a 2:2 leaves nobody with cards (the table is then
split in half). More cards taken wins; equal is a draw.

Parameters (kernel indices): ``deck`` 36/52; ``lead_order`` 0 = ``clockwise``, 1 = ``team``;
``trick_lead`` 0 = ``winner``, 1 = ``alternate``. The designer's levers (RULES §0.7, each
default the rules): ``first_seat`` the seat that leads the first trick (with ``alternate`` the
tricks then alternate from its team); ``seating`` 0 = side by side, 1 = alternately;
``komi`` cards added to team 0's cards taken before they are compared (negative: to team 1's).

Actions: ``rank - 2`` (0..12) leads that rank; legal for the ranks the leader holds. Chance
outcomes are the card ids of the deal. num_distinct_actions = 13. There are no passes: the
follow-plays and the outcome of a lead happen inside ``apply_action``.

State (after the trick slots of ``kernel.tricks``):

- ``FO_TRICKS``         tricks completed (taken) so far; with ``alternate`` trick t belongs to
                        team t mod 2
- ``FO_NLEADS``         leads made so far in the game (each rank is led at most once)
- ``FO_TRICK_START``    index of the current trick's first lead in the lead record
- ``FO_LEAD_RANK[i]``   the i-th lead's action (rank - 2); ``FO_LEAD_SEAT[i]`` its leader
- ``FO_FROM[c]``        the seat that put card ``c`` down, -1 while it is in a hand

Who put down which card is public; the information state string adds it after the action
history (``public_record``), since a lead's action id does not show the follow-plays.

Observation tensor (310 floats) for player ``p`` (relative seat k = seat ``(p + k) % 4``):
``[0, 72)`` the common part (``kernel.state.write_common_observation``); ``[72, 300)`` the trick
part (``kernel.tricks.write_observation``: cards on the table, taken by each team, the last
card put down and its seat; nobody ever passes); then ``[300, 304)`` the relative seat of the
current trick's first leader, ``[304, 308)`` the relative seat of its latest leader (both
empty between tricks), ``308`` the number of leads in the current trick / 13, ``309`` the
number of tricks completed / 13.
"""

import sys

import numpy as np
from numba import njit

from skip_ai import cards, text
from skip_ai.kernel.bits import list_segments, lowest, sample_segments
from skip_ai.kernel.resample import plan_default as resample_plan  # noqa: F401  (kernel API)
from skip_ai.kernel.resample import redeal as resample_planned  # noqa: F401  (kernel API)
from skip_ai.kernel.resample import resample_hidden as resample  # noqa: F401  (kernel API)
from skip_ai.kernel.state import (
    CHANCE,
    EXTRAS_3V3,
    H_CUR,
    H_MOVES,
    HAND,
    LOC,
    LOC_OUT,
    NUM_CARDS,
    OBS_COMMON,
    TERMINAL,
    all_seats,
    deal_card,
    dealing,
    new_state,
    next_seat_with_cards,
    param,
    partner_of,
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
    LOC_TABLE,
    OBS_TRICKS,
    TRICK_END,
    init_tricks,
    put_on_table,
    returns_by_taken,
    split_table,
    take_table,
    taken_scores,
    team_leader,
)
from skip_ai.kernel.tricks import write_observation as write_trick_observation
from skip_ai.layout import Layout, taken_zones
from skip_ai.pyspiel_wrapper import register
from skip_ai.spec import (
    DECK_36_52,
    SEATING,
    GameSpec,
    Mirror,
    Param,
    check_first_seat,
    first_seat,
    komi,
)

P_DECK, P_LEAD_ORDER, P_TRICK_LEAD, P_FIRST, P_SEATING, P_KOMI = 0, 1, 2, 3, 4, 5
CLOCKWISE, TEAM = 0, 1
WINNER, ALTERNATE = 0, 1

PLAYERS = 4
NUM_ACTIONS = 13
RANK_SUITS = np.int64(1 | 1 << 13 | 1 << 26 | 1 << 39)
"""The four cards of the rank with action 0 (the 2s); shifted left by ``a`` for action ``a``."""

FO_TRICKS = TRICK_END
FO_NLEADS = FO_TRICKS + 1
FO_TRICK_START = FO_NLEADS + 1
FO_LEAD_RANK = FO_TRICK_START + 1
FO_LEAD_SEAT = FO_LEAD_RANK + NUM_ACTIONS
FO_FROM = FO_LEAD_SEAT + NUM_ACTIONS
STATE_SIZE = FO_FROM + NUM_CARDS

OBS_FOURS = 2 * PLAYERS + 2
OBS_SIZE = OBS_COMMON + OBS_TRICKS + OBS_FOURS


@njit(cache=True)
def init(params):
    s = new_state(STATE_SIZE, params)
    setup_deal(s, PLAYERS, standard_deck(params[P_DECK], False), 0, EXTRAS_3V3)
    seat_teams(s, params[P_SEATING])
    init_tricks(s)
    for c in range(NUM_CARDS):
        s[FO_FROM + c] = -1
    return s


@njit(cache=True, inline="always")
def _legal(s):
    """Mask of the ranks (bit ``rank - 2``) the player to move holds (rule 2)."""
    m = s[HAND + s[H_CUR]]
    return (m | (m >> 13) | (m >> 26) | (m >> 39)) & ((1 << NUM_ACTIONS) - 1)


@njit(cache=True)
def legal_actions(s, out):
    return list_segments((_legal(s),), -1, out)


@njit(cache=True)
def random_legal(s, rng):
    return sample_segments((_legal(s),), -1, rng)


@njit(cache=True, inline="always")
def _next_lead(s, leader):
    """Who leads again after a 2:2 by ``leader`` (rule 3); -1 when nobody holds cards."""
    if param(s, P_LEAD_ORDER) == TEAM:
        partner = partner_of(s, leader)
        if s[HAND + partner] != 0:
            return partner
        if s[HAND + leader] != 0:
            return leader
    return next_seat_with_cards(s, leader)


@njit(cache=True, inline="always")
def _next_trick_leader(s, taker):
    """Who leads the next trick after ``taker`` took one and still holds cards (rule 4)."""
    if param(s, P_TRICK_LEAD) == WINNER:
        return team_leader(s, taker)
    # the tricks alternate from the team of the first leader (team 0 by the rules)
    due = (s[FO_TRICKS] + team_of(s, param(s, P_FIRST))) % 2
    seat = team_leader(s, due)
    return seat if seat >= 0 else team_leader(s, 1 - due)


@njit(cache=True)
def apply_action(s, a):
    s[H_MOVES] += 1
    cur = s[H_CUR]
    if cur == CHANCE:
        vis = deal_card(s, a)
        if not dealing(s):
            s[H_CUR] = param(s, P_FIRST)
        return vis
    i = s[FO_NLEADS]
    s[FO_LEAD_RANK + i] = a
    s[FO_LEAD_SEAT + i] = cur
    s[FO_NLEADS] = i + 1
    # the leader's cards of the rank, then every other holder's, clockwise (rule 2)
    team0 = 0
    for k in range(PLAYERS):
        seat = (cur + k) % PLAYERS
        m = s[HAND + seat] & (RANK_SUITS << a)
        while m:
            c = lowest(m)
            m &= m - 1
            put_on_table(s, seat, c)
            s[FO_FROM + c] = seat
            if team_of(s, seat) == 0:
                team0 += 1
    if team0 == 2:
        nxt = _next_lead(s, cur)
        if nxt < 0:
            split_table(s)
            s[FO_TRICK_START] = s[FO_NLEADS]
            s[H_CUR] = TERMINAL
        else:
            s[H_CUR] = nxt
        return all_seats(s)
    taker = 0 if team0 > 2 else 1
    take_table(s, taker)
    s[FO_TRICKS] += 1
    s[FO_TRICK_START] = s[FO_NLEADS]
    if team_leader(s, taker) < 0:
        s[H_CUR] = TERMINAL
    else:
        s[H_CUR] = _next_trick_leader(s, taker)
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
    base = OBS_COMMON + OBS_TRICKS
    start, n = s[FO_TRICK_START], s[FO_NLEADS]
    if n > start:
        out[base + (s[FO_LEAD_SEAT + start] - p) % PLAYERS] = 1.0
        out[base + PLAYERS + (s[FO_LEAD_SEAT + n - 1] - p) % PLAYERS] = 1.0
    out[base + 2 * PLAYERS] = (n - start) / 13.0
    out[base + 2 * PLAYERS + 1] = s[FO_TRICKS] / 13.0


# ----- Python side: declaration, text and the table in a browser --------------------------

TEAM_NAMES = ("team 0", "team 1")
LEAD_ORDERS = ("clockwise", "team")
TRICK_LEADS = ("winner", "alternate")


def action_to_string(s, player: int, action: int) -> str:
    if player < 0:
        return cards.to_str(action)
    if not 0 <= action < NUM_ACTIONS:
        raise ValueError(f"skip_fours: no action {action}")
    return cards.RANK_CHARS[action]


def _lead_text(s, i: int) -> str:
    """Lead ``i``: its rank, its leader, and the cards each seat put down."""
    rank = int(s[FO_LEAD_RANK + i])
    per_seat = []
    for seat in range(PLAYERS):
        down = [c for c in range(rank, 52, 13) if s[FO_FROM + c] == seat]
        if down:
            per_seat.append(f"{seat}: {cards.cards_to_str(down)}")
    return (
        f"{cards.RANK_CHARS[rank]} led by seat {int(s[FO_LEAD_SEAT + i])} ({', '.join(per_seat)})"
    )


def _table_lines(s) -> list[str]:
    leads = [_lead_text(s, i) for i in range(int(s[FO_TRICK_START]), int(s[FO_NLEADS]))]
    lines = [
        f"  table: {' | '.join(leads) or '(empty)'}",
        text.taken_line(s, TEAM_NAMES)
        + text.komi_note(int(param(s, P_KOMI)))
        + f" (tricks: {int(s[FO_TRICKS])})",
    ]
    if _split(s):
        lines.append("  the last trick was split in half between the teams")
    return lines


def _split(s) -> bool:
    """Did a 2:2 that left nobody with cards split the table (rule 5b)?"""
    return any(s[LOC + c] == LOC_OUT for c in range(52))


def _result_note(s) -> str:
    """A game that ended on a 2:2 with nobody holding a card (rule 5b)."""
    if _split(s):
        return "it ended on a 2:2 with no cards left: the last table was split in half"
    return ""


def public_record(s) -> str:
    """Every lead of the game with the cards each seat put down (all public)."""
    leads = [_lead_text(s, i) for i in range(int(s[FO_NLEADS]))]
    return "leads: " + (" | ".join(leads) or "-")


def _layout(s) -> Layout:
    """The leads of the trick in play, each with the cards put down and by whom, and the cards
    each team took (``GameSpec.layout``)."""
    zones = []
    for i in range(int(s[FO_TRICK_START]), int(s[FO_NLEADS])):
        rank = int(s[FO_LEAD_RANK + i])
        down = [c for c in range(rank, 52, 13) if s[LOC + c] == LOC_TABLE]
        by = ", ".join(f"seat {int(s[FO_FROM + c])}" for c in down)
        zones.append(
            {
                "kind": "row",
                "title": f"{cards.RANK_CHARS[rank]} led by seat {int(s[FO_LEAD_SEAT + i])}",
                "note": f"put down by {by}",
                "cards": down,
            }
        )
    if not zones:
        zones.append({"kind": "row", "title": "table", "cards": []})
    return {
        "zones": [*zones, *taken_zones(s, TEAM_NAMES)],
        "facts": [f"tricks taken: {int(s[FO_TRICKS])}"],
    }


def _title(s) -> str:
    return (
        f"Fours, {int(param(s, P_DECK))} cards, lead_order="
        f"{LEAD_ORDERS[int(param(s, P_LEAD_ORDER))]}, "
        f"trick_lead={TRICK_LEADS[int(param(s, P_TRICK_LEAD))]}"
        + text.lever_words(
            int(param(s, P_FIRST)), bool(param(s, P_SEATING)), int(param(s, P_KOMI)), "leads first"
        )
    )


KOMI = (-8, -6, -4, -2, 0, 2, 4, 6, 8)
"""The komi's choices, in cards taken. Tricks are whole ranks, so the margin moves in steps of
4: an even komi that is not a multiple of 4 turns the draws into wins, a multiple of 4 a loss
by that much into a draw. Between heuristic players the second team wins 54% and draws 9%
(2,000 games), so a fair komi lies near +2."""


SPEC = GameSpec(
    short_name="skip_fours",
    long_name="Fours",
    original_name="Четверки",
    rules_section="§7",
    kernel=sys.modules[__name__],
    params=(
        DECK_36_52,
        Param(
            "lead_order",
            "clockwise",
            LEAD_ORDERS,
            "who leads again after a 2:2: the next player clockwise with cards, or the "
            "previous leader's partner",
        ),
        Param(
            "trick_lead",
            "winner",
            TRICK_LEADS,
            "who leads a new trick: the taking team's captain, or the teams in turn",
        ),
        first_seat(
            "the seat that leads the first trick (with trick_lead=alternate, its team's "
            "tricks come first)"
        ),
        SEATING,
        komi(KOMI, "cards taken"),
    ),
    num_players=lambda p: PLAYERS,
    num_distinct_actions=lambda p: NUM_ACTIONS,
    max_chance_outcomes=lambda p: 54,
    # every lead puts down a whole rank: at most deck / 4 leads
    max_game_length=lambda p: p["deck"] + p["deck"] // 4,
    observation_size=lambda p: OBS_SIZE,
    action_to_string=action_to_string,
    title=_title,
    table_lines=_table_lines,
    result_note=_result_note,
    layout=_layout,
    team_names=TEAM_NAMES,
    mirror=Mirror(swap_colours=False),
    public_record=public_record,
    check=lambda p: check_first_seat("skip_fours", p),
)
register(SPEC)
