"""Sixty-six's declaration for the generic pyspiel wrapper: names, parameters, sizes, text, the
table in a browser."""

import sys

from skip_ai.spec import GameSpec, Param

from .actions import NUM_ACTIONS
from .observation_tensor import OBS_SIZE
from .text import (
    TEAM_NAMES,
    action_to_string,
    chance_text,
    public_record,
    result_note,
    table_lines,
    title,
)
from .worlds import remap
from .zones import layout


def _any_extra(p: dict) -> bool:
    return any(p[k] for k in ("cut", "nines", "redeal", "contracts"))


def _max_length(p: dict) -> int:
    """RULES §12.9: a deal has at most 50 nodes, 78 with extras (after at most one redealt deal
    of 50); a match has at most 15 deals that score."""
    if p["mode"] == "deal":
        return 128 if _any_extra(p) else 50
    return 1920 if _any_extra(p) else 750


SPEC = GameSpec(
    short_name="classic_sixty_six_4p",
    long_name="Sixty-six for four",
    original_name="Шуба вчетвером",
    rules_section="§12",
    kernel=sys.modules[__package__],  # the package is the game kernel module
    params=(
        Param("players", 4, (4,), "4 only"),
        Param("mode", "match", ("match", "deal"), "a match to 8 board points, or one deal"),
        Param(
            "stakes",
            "graded",
            ("graded", "win"),
            "returns graded (shuba 1, klin 2, cross klin 3; a deal's board difference) or ±1",
            variant_values=("graded",),
        ),
        Param("cut", False, (False, True), "the dealer's opponent cuts the bottom card"),
        Param("nines", False, (False, True), "offers of nines and nines games"),
        Param(
            "nines_declarer",
            True,
            (False, True),
            "nines may be offered to the elder hand (used only with nines)",
            variant_values=(True,),
        ),
        Param("redeal", False, (False, True), "a weak or one-suited hand may ask a redeal"),
        Param("contracts", False, (False, True), "five / six pictures, pyatak, six"),
    ),
    num_players=lambda p: 4,
    num_distinct_actions=lambda p: NUM_ACTIONS,
    max_chance_outcomes=lambda p: 52,
    max_game_length=_max_length,
    observation_size=lambda p: OBS_SIZE,
    observation_version=2,
    action_to_string=action_to_string,
    title=title,
    table_lines=table_lines,
    result_note=result_note,
    layout=layout,
    min_utility=-20.0,
    max_utility=20.0,
    team_names=TEAM_NAMES,
    chance_text=chance_text,
    public_record=public_record,
    remap=remap,
    no_mirror=(
        "the first elder hand (who names the trump and leads) is seat 0 of team 0, the first "
        "dealer seat 3 of team 1: swapping the hands cannot swap those roles"
    ),
)
