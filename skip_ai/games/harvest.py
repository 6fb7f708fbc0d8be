"""skip_harvest — Harvest («Урожай», СКИП-10), RULES.md §10.

Each team (Red = team 0, Black = team 1) has a field of stacks (``kernel.fields``). A move is
LAY ``c`` (a card of one's colour starts a stack on one's field) or COVER
``54 + 54*c + b`` (a card of the suit of stack ``b`` on the opponents' field goes on top of it,
whatever its rank); PASS ``2970`` only when neither is possible. A stack counts as one card:
the suit and value of its top card. The game ends when nobody holds a card or every player in
turn has passed. Scoring: for each rank, as many (red stack, black stack) pairs with that top
rank as possible are removed; each team scores the total value of its remaining stacks.

Levers (RULES §0.7; the defaults are the rules): ``first_seat`` (who moves first),
``seating`` (partners side by side or alternately), ``komi`` (points added to Red's harvest),
``end`` (``team_out``: the game ends as soon as one team holds no card, which takes from the
team that moves last the final moves nobody can answer).

Knowledge: a pass while holding cards proves the passer holds no card of his colour and no
card of a suit that has a stack on the opponents' field.

Observation tensor: ``[0, 72)`` common part (``kernel.state``); ``[72, 342)`` field part
(``kernel.fields.write_observation``, own field first, sizes / 13); ``[342]`` consecutive
passes / players.
"""

import dataclasses
import sys

import numpy as np
from numba import njit

from skip_ai import cards, text
from skip_ai.kernel.bits import bit, kth, lowest, popcount, to_list
from skip_ai.kernel.fields import (
    F_BELOW,
    F_BY_SUIT,
    F_PASSES,
    F_PILES,
    F_TOP,
    FIELDS_END,
    OBS_FIELDS,
    add_to_pile,
    end_turn,
    forced_pass,
    init_fields,
    lay_pile,
)
from skip_ai.kernel.fields import write_observation as write_field_observation
from skip_ai.kernel.resample import plan_default as resample_plan  # noqa: F401  (kernel API)
from skip_ai.kernel.resample import redeal as resample_planned  # noqa: F401  (kernel API)
from skip_ai.kernel.resample import resample_hidden as resample  # noqa: F401  (kernel API)
from skip_ai.kernel.rng import below
from skip_ai.kernel.state import (
    CHANCE,
    EXTRAS_3V3,
    H_CUR,
    H_MOVES,
    H_PLAYERS,
    HAND,
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
    team_seats,
    write_common_observation,
)

# the deal is the game's only chance event
from skip_ai.kernel.state import sample_undealt as sample_chance  # noqa: F401  (kernel API)
from skip_ai.kernel.state import undealt_cards as chance_outcomes  # noqa: F401  (kernel API)
from skip_ai.layout import Layout, field_layout, pile_target
from skip_ai.pyspiel_wrapper import register
from skip_ai.spec import (
    DECK_36_FOR_1V1,
    PLAYERS_2_4_6,
    SEATING,
    GameSpec,
    Mirror,
    Param,
    check_first_seat,
    first_seat,
    komi,
)

P_PLAYERS, P_DECK, P_FIRST, P_SEATING, P_KOMI, P_END = 0, 1, 2, 3, 4, 5
TEAM_OUT = 1
"""The ``end`` lever's second choice: the game ends as soon as one team holds no card."""
COVER0, PASS = 54, 2970
LIST, COUNT = -1, -2

STATE_SIZE = FIELDS_END
OBS_SIZE = OBS_COMMON + OBS_FIELDS + 1

RED_MASK = ((np.int64(1) << 26) - 1) << 26
BLACK_MASK = (np.int64(1) << 26) - 1
SUIT_CARDS = (np.int64(1) << 13) - 1
EVERY_SUIT = np.int64(1) | np.int64(1) << 13 | np.int64(1) << 26 | np.int64(1) << 39


@njit(cache=True)
def init(params):
    s = new_state(STATE_SIZE, params)
    setup_deal(s, params[P_PLAYERS], standard_deck(params[P_DECK], False), 0, EXTRAS_3V3)
    seat_teams(s, params[P_SEATING])
    init_fields(s)
    return s


@njit(cache=True, inline="always")
def _colour_mask(team):
    return RED_MASK if team == 0 else BLACK_MASK


@njit(cache=True, inline="always")
def _covers_for(s, c, field):
    """The stacks of ``field`` that card ``c`` may COVER: every one of its suit."""
    return s[F_BY_SUIT + c // 13] & s[F_PILES + field]


@njit(cache=True, inline="always")
def _moves(s, out, k):
    """The legal actions, ascending: ``k == LIST`` writes them into ``out`` and returns their
    number, ``k == COUNT`` only counts them, ``k >= 0`` returns the k-th (see
    ``captains._moves``)."""
    cur = s[H_CUR]
    team = team_of(s, cur)
    held = s[HAND + cur]
    own = held & _colour_mask(team)
    theirs = held & ~own
    n = popcount(own)  # LAY: every card of the own colour
    if 0 <= k < n:
        return kth(own, k)
    if k == LIST:
        to_list(own, out)
    for suit in range(4):  # COVER: every card of a suit on every opponent stack of that suit
        n += popcount(theirs & (SUIT_CARDS << (13 * suit))) * popcount(
            s[F_BY_SUIT + suit] & s[F_PILES + 1 - team]
        )
    if n == 0:  # PASS only when nothing else is possible
        if k == LIST:
            out[0] = PASS
        return PASS if k >= 0 else 1
    if k == COUNT:
        return n
    i = popcount(own)
    m = theirs
    while m:
        c = lowest(m)
        m &= m - 1
        stacks = _covers_for(s, c, 1 - team)
        if k >= 0:
            count = popcount(stacks)
            if k - i < count:
                return COVER0 + 54 * c + kth(stacks, k - i)
            i += count
        else:
            while stacks:
                out[i] = COVER0 + 54 * c + lowest(stacks)
                stacks &= stacks - 1
                i += 1
    return i


@njit(cache=True)
def legal_actions(s, out):
    return _moves(s, out, LIST)


@njit(cache=True)
def random_legal(s, rng):
    """Exactly ``legal_actions(s)[below(rng, n)]`` in one pass and no list: LAY, then COVER
    by suit blocks (every card of a suit covers the same stacks)."""
    cur = s[H_CUR]
    team = team_of(s, cur)
    held = s[HAND + cur]
    own = held & _colour_mask(team)
    theirs = held & ~own
    stacks_of = s[F_PILES + 1 - team]
    first = 2 * team  # the suits of the opponents' colour: 0, 1 (black) or 2, 3 (red)
    n_lay = popcount(own)
    n = n_lay
    for suit in range(first, first + 2):
        n += popcount(theirs & (SUIT_CARDS << (13 * suit))) * popcount(
            s[F_BY_SUIT + suit] & stacks_of
        )
    k = below(rng, n if n > 0 else 1)
    if n == 0:
        return PASS
    if k < n_lay:
        return kth(own, k)
    k -= n_lay
    for suit in range(first, first + 2):
        cards_ = theirs & (SUIT_CARDS << (13 * suit))
        stacks = s[F_BY_SUIT + suit] & stacks_of
        per_card = popcount(stacks)
        block = popcount(cards_) * per_card
        if k < block:
            while k >= per_card:  # the card, then the stack: no division
                k -= per_card
                cards_ &= cards_ - 1
            return COVER0 + 54 * lowest(cards_) + kth(stacks, k)
        k -= block
    return PASS  # not reached: k < n


@njit(cache=True)
def playable_mask(s, team):
    """Every card that would give ``team``'s player a move now: his colour and the suits of
    the opponents' stacks. A forced pass proves he holds none of them."""
    mask = _colour_mask(team)
    stacks = s[F_PILES + 1 - team]
    while stacks:
        b = lowest(stacks)
        stacks &= stacks - 1
        mask |= SUIT_CARDS << (13 * (b // 13))
    return mask


@njit(cache=True, _nrt=False)
def apply_action(s, a):
    # no reference counting of ``s`` (``_nrt=False``: the caller owns it and nothing here
    # allocates), which otherwise costs about as much as the move itself
    s[H_MOVES] += 1
    cur = s[H_CUR]
    vis = all_seats(s)
    if cur == CHANCE:
        vis = deal_card(s, a)
        if not dealing(s):
            s[H_CUR] = param(s, P_FIRST)
    else:
        _move(s, cur, a)
    return vis


@njit(cache=True, inline="always")
def _move(s, cur, a):
    team = team_of(s, cur)
    if a == PASS:
        forced_pass(s, cur, playable_mask(s, team))
    else:
        s[F_PASSES] = 0
        if a < COVER0:
            lay_pile(s, a, team)
        else:
            add_to_pile(s, (a - COVER0) // 54, (a - COVER0) % 54, 1 - team)
    # only the mover's own team can have just run out of cards
    if param(s, P_END) == TEAM_OUT and _team_holds(s, team) == 0:
        s[H_CUR] = TERMINAL
    else:
        end_turn(s, next_seat(s, cur))


@njit(cache=True)
def ends_the_game(s):
    """Whether the move about to be made is the game's last whatever it is: under
    ``end=team_out``, the mover's team holds this one card. (Under the rules the last move
    comes when the other hands are empty, which the heuristic's odds already say.)"""
    if param(s, P_END) != TEAM_OUT:
        return False
    return popcount(_team_holds(s, team_of(s, s[H_CUR]))) == 1


@njit(cache=True, inline="always")
def _team_holds(s, team):
    """The cards in the hands of ``team``'s seats."""
    held = np.int64(0)
    seats = team_seats(s, team)
    while seats:
        held |= s[HAND + lowest(seats)]
        seats &= seats - 1
    return held


@njit(cache=True)
def harvest_scores(tops_red, tops_black, out):
    """The scoring rule on the masks of the two fields' top cards: for each rank remove as
    many red-black pairs as possible, then each side scores the value of its remaining
    tops."""
    out[0] = 0.0
    out[1] = 0.0
    for rank in range(2, 15):
        of_rank = EVERY_SUIT << (rank - 2)
        red, black = popcount(tops_red & of_rank), popcount(tops_black & of_rank)
        paired = min(red, black)
        out[0] += (red - paired) * rank
        out[1] += (black - paired) * rank


@njit(cache=True, inline="always")
def _tops(s, team):
    """Mask of the top cards of ``team``'s stacks."""
    tops = np.int64(0)
    stacks = s[F_PILES + team]
    while stacks:
        tops |= bit(s[F_TOP + lowest(stacks)])
        stacks &= stacks - 1
    return tops


@njit(cache=True)
def harvest(s, out):
    """Each team's harvest (§10.5) as the fields lie now, Red first."""
    harvest_scores(_tops(s, 0), _tops(s, 1), out)


@njit(cache=True)
def scores(s, out):
    """The harvests, the komi added to Red's (the numbers the rules compare)."""
    harvest(s, out)
    out[0] += param(s, P_KOMI)


@njit(cache=True)
def returns(s, out):
    scores(s, out)  # the team scores go into the first two slots, then become returns
    sign = np.sign(out[0] - out[1])
    for seat in range(s[H_PLAYERS]):
        out[seat] = sign if team_of(s, seat) == 0 else -sign


@njit(cache=True)
def observation(s, p, out):
    write_common_observation(s, p, out)
    write_field_observation(s, p, out, OBS_COMMON, 13)
    out[OBS_COMMON + OBS_FIELDS] = s[F_PASSES] / s[H_PLAYERS]


# ----- Python side: declaration, text and the table in a browser --------------------------

TEAM_NAMES = ("Red", "Black")


def action_to_string(s, player: int, action: int) -> str:
    if player < 0 or action < COVER0:
        return cards.to_str(action)
    if action == PASS:
        return "PASS"
    c, b = divmod(action - COVER0, 54)
    return f"{cards.to_str(c)} on {cards.to_str(b)}"


def _stack_text(s, b: int) -> str:
    chain, c = [], int(s[F_TOP + b])
    while c >= 0:  # top to bottom
        chain.append(cards.to_str(c))
        c = int(s[F_BELOW + c])
    return "/".join(reversed(chain))


def _field_lines(s) -> list[str]:
    team = np.zeros(2)
    harvest(s, team)
    k = int(param(s, P_KOMI))
    komi_text = [f", with komi {k:+d}: {int(team[0]) + k}" if k else "", ""]  # Red's only
    lines = []
    for t in range(2):
        stacks = [b for b in range(54) if (int(s[F_PILES + t]) >> b) & 1]
        lines.append(
            f"  {TEAM_NAMES[t]} field (score {int(team[t])}{komi_text[t]}): "
            + ("  ".join(_stack_text(s, b) for b in stacks) or "-")
        )
    lines.append(f"  consecutive passes: {int(s[F_PASSES])}")
    return lines


def _title(s) -> str:
    return f"Harvest, {text.players(s)} players, {int(param(s, P_DECK))} cards"


def _layout(s) -> Layout:
    """Each team's field of piles (``GameSpec.layout``)."""
    return field_layout(s, TEAM_NAMES)


def _move_target(s, action: int) -> str | None:
    """A COVER names a pile: its bottom card is ``(action - COVER0) % 54``."""
    return pile_target(action, (COVER0,))


KOMI = dataclasses.replace(
    komi((-12, -9, -6, -3, 0, 3, 6, 9, 12), "points of value"), variant_values=(-12, 12)
)
"""Between heuristic players of the rules' game Black's harvest is ahead by 6.4 points on
average for four (sd 9.9), 3.2 for two and 8.8 for six, between ISMCTS players (1000
iterations) by about 10 for four: a fair komi lies between 6 and 12 for four, by the players'
strength, near 3 for two and 9 for six."""

END = Param(
    "end",
    "hands_out",
    ("hands_out", "team_out"),
    "when the game ends: when nobody holds a card (the rules, §10.4) or as soon as one team "
    "holds none (the other team's last cards stay in hand and score nothing)",
    lever=True,
)
"""An end condition against the last mover's advantage: the team that moves last in the
rules' game makes its final moves unanswered (its last covers cut the opponents' stacks, its
last lays are safe). For four in the rules' order (Red, Red, Black, Black) Red runs out two
moves before the end: ``team_out`` stops the game there, Black's last two cards stay in hand."""


SPEC = GameSpec(
    short_name="skip_harvest",
    long_name="Harvest",
    original_name="Урожай",
    rules_section="§10",
    kernel=sys.modules[__name__],
    params=(
        PLAYERS_2_4_6,
        DECK_36_FOR_1V1,
        first_seat("the seat that moves first (the rules: seat 0, the Red captain)"),
        SEATING,
        KOMI,
        END,
    ),
    num_players=lambda p: p["players"],
    num_distinct_actions=lambda p: 2971,
    max_chance_outcomes=lambda p: 54,
    # every move but a pass plays a card; n passes in a row end the game
    max_game_length=lambda p: (p["deck"] + 1) * p["players"],
    observation_size=lambda p: OBS_SIZE,
    action_to_string=action_to_string,
    title=_title,
    table_lines=_field_lines,
    layout=_layout,
    move_target=_move_target,
    team_names=TEAM_NAMES,
    check=lambda p: check_first_seat("skip_harvest", p),
    mirror=Mirror(swap_colours=True),
)
register(SPEC)
