"""What a seat sees, as JSON: the one place that decides which cards a page receives.

:func:`table_view` builds the view of any game's state for one seat (or, ``viewer=None``,
with every card open: a recorded game, a game of bots watched). It is generic: the kernel's
common slots say where every card is (``LOC``) and who knows it (``KNOWN``), so per card the
view knows "in my hand", "known in seat q's hand", "hidden: counted in seat q's hand / the
stock", or "on a public place"; the game's layout (``GameSpec.layout``, :mod:`skip_ai.layout`)
only arranges the public places into piles, columns, grids and rows.

Every card a view shows is a dict ``{"c": id, "t": text}`` inside an explicit card field
(``card``, ``cover``, or a ``cards`` list), and every such dict is made by :func:`_card`,
which turns a card hidden from the viewer into a face-down ``{"back": true}``. So what a seat
receives can be checked exactly: no ``c`` in it is hidden from that seat
(``tests/test_serve_views.py``). Texts (moves, the log) come from the game's own views of
the history (``history_seen_by``), which show a card seen only by others as ``?``; a move
is said in the game's words (``GameSpec.move_text``: Chains' "Qs to the right of Js").

Whose cards a view shows and whom its words speak to are apart: a person at a live table is
"you" (``seated``); a replay from a seat's view shows that seat's cards but names every seat
in the third person ("seat 2 (Black) to play", "Red wins 7–3"), as does watching with no seat.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

import numpy as np
import pyspiel

from skip_ai import cards, words
from skip_ai.kernel.bits import popcount
from skip_ai.kernel.state import (
    CHANCE,
    HAND,
    LOC,
    LOC_DECK,
    LOC_OUT,
    LOC_UNSEEN,
    MAX_CARDS,
    hidden_from,
)

CARD_TOKEN = re.compile(r"[2-9TJQKA][scdh]|BJ|RJ|Pe[123]")
"""A card's text form inside a move's text (``Ts on Qs``, ``meld 3s4s5s``, ``cover with 7h``)."""
RANK_ONLY = re.compile(r"[2-9TJQKA]")
"""A move named by a rank alone (Fours: lead the sixes) plays the hand's cards of that rank."""
CARD_FIELDS = ("card", "cover")
RECENT = 80
"""Log entries a view carries."""


def _card(s: np.ndarray, c: int, viewer: int | None) -> dict:
    """The picture of card ``c`` for ``viewer``: face up, or face down if hidden from him."""
    if viewer is not None and hidden_from(s, c, viewer):
        return {"back": True}
    return {"c": int(c), "t": cards.to_str(int(c))}


def _emit(obj: Any, s: np.ndarray, viewer: int | None) -> Any:
    """A layout's zones with every card id (``card``, ``cover``, ``cards``) made a picture."""
    if isinstance(obj, list):
        return [_emit(x, s, viewer) for x in obj]
    if not isinstance(obj, dict):
        return obj
    out = {}
    for key, value in obj.items():
        if key in CARD_FIELDS and isinstance(value, int):
            out[key] = _card(s, value, viewer)
        elif key == "cards":
            out[key] = [_card(s, c, viewer) for c in value]
        else:
            out[key] = _emit(value, s, viewer)
    return out


def _placed(zones: list) -> set[int]:
    """Every card id a layout put somewhere."""
    found: set[int] = set()

    def walk(obj: Any) -> None:
        if isinstance(obj, list):
            for x in obj:
                walk(x)
        elif isinstance(obj, dict):
            for key, value in obj.items():
                if key in CARD_FIELDS and isinstance(value, int):
                    found.add(value)
                elif key == "cards":
                    found.update(value)
                else:
                    walk(value)

    walk(zones)
    return found


def _seats(
    state: pyspiel.State,
    s: np.ndarray,
    viewer: int | None,
    person: int | None,
    agents: Sequence[str] | None,
) -> list[dict]:
    spec = state.get_game().spec
    out = []
    for q in range(state.num_players()):
        held = [c for c in range(MAX_CARDS) if int(s[LOC + c]) == q]
        shown = [c for c in held if viewer is None or not hidden_from(s, c, viewer)]
        out.append(
            {
                "seat": q,
                "label": words.seat_label(state, q, person),
                "role": words.role(state, q, person),
                "team": words.team_of(state, q),
                "agent": agents[q] if agents else "",
                "count": int(popcount(s[HAND + q])),
                "cards": [_card(s, c, viewer) for c in shown],
                "hidden": len(held) - len(shown),
                "note": spec.seat_note(s, q).strip(),
                "to_move": state.current_player() == q,
            }
        )
    return out


def _face_down_zones(s: np.ndarray, viewer: int | None, placed: set[int]) -> list[dict]:
    """The stock and the cards out of play face down: the ones the viewer knows (e.g. the
    trump card under the stock) face up, the rest as a count."""
    zones = []
    for loc, title in ((LOC_DECK, "stock"), (LOC_UNSEEN, "face down, out of play")):
        there = [c for c in range(MAX_CARDS) if int(s[LOC + c]) == loc and c not in placed]
        if not there:
            continue
        known = [c for c in there if viewer is None or not hidden_from(s, c, viewer)]
        zones.append(
            {
                "kind": "row",
                "title": title,
                "cards": known,
                "backs": len(there) - len(known),
                "note": f"{len(there)} cards",
            }
        )
    return zones


def _leftover_zones(s: np.ndarray, placed: set[int]) -> list[dict]:
    """Public cards no layout placed, by place: out of play, or elsewhere on the table."""
    rest = [c for c in range(MAX_CARDS) if int(s[LOC + c]) >= LOC_OUT and c not in placed]
    out = [c for c in rest if int(s[LOC + c]) == LOC_OUT]
    table = [c for c in rest if int(s[LOC + c]) != LOC_OUT]
    return [
        {"kind": "row", "title": title, "cards": group, "small": True}
        for title, group in (("on the table", table), ("out of play", out))
        if group
    ]


def _seen_text(text: str) -> str:
    """``?02`` (a card seen by seats 0 and 2 only) in words."""
    if not text.startswith("?"):
        return text
    seats = list(text[1:])
    if not seats:
        return "a card nobody saw"
    return f"a card seen by seat{'s' if len(seats) > 1 else ''} {', '.join(seats)}"


def log_entries(
    state: pyspiel.State, viewer: int | None, recent: int = RECENT, person: int | None = None
) -> list[dict]:
    """The recent moves as ``viewer`` saw them, each mover named as ``person`` (the seat
    spoken to as "you", None for none) calls him; runs of chance events (a deal) as one
    line."""
    entries: list[dict] = []
    run: list[tuple[int, str]] = []

    def flush() -> None:
        if len(run) >= 3:
            entries.append(
                {"i": run[0][0], "seat": CHANCE, "who": "chance", "text": f"{len(run)} cards dealt"}
            )
        else:
            entries.extend(
                {"i": i, "seat": CHANCE, "who": "chance", "text": _seen_text(t)} for i, t in run
            )
        run.clear()

    for i, (actor, text) in enumerate(words.history_words(state, viewer)):
        if actor == CHANCE:
            run.append((i, text))
            continue
        flush()
        entries.append(
            {
                "i": i,
                "seat": actor,
                "who": words.seat_label(state, actor, person),
                "text": _seen_text(text),
            }
        )
    flush()
    return entries[-recent:]


def move_list(state: pyspiel.State) -> list[dict]:
    """The legal moves of the player to move: id, text, the hand cards it plays (the cards
    of its text that are in his hand; a rank alone: his cards of that rank) and where it
    lands (a pile, a cell)."""
    spec, s = state.get_game().spec, state.kernel_state()
    p = state.current_player()
    out = []
    for a in state.legal_actions():
        label = spec.move_text(s, p, a)
        named = [cards.from_str(t) for t in CARD_TOKEN.findall(label)]
        if RANK_ONLY.fullmatch(label):
            named = [cards.card_id(suit, cards.RANK_CHARS.index(label) + 2) for suit in range(4)]
        out.append(
            {
                "a": int(a),
                "label": label,
                "cards": [c for c in named if int(s[LOC + c]) == p],
                "target": spec.move_target(s, a) if spec.move_target else None,
            }
        )
    return out


def _scores(state: pyspiel.State, person: int | None) -> list[dict]:
    spec = state.get_game().spec
    values = state.scores()
    if spec.team_game:
        names = [words.team_label(state, t, person) for t in range(2)]
    else:
        names = [words.seat_label(state, q, person) for q in range(len(values))]
    return [{"name": n, "value": v} for n, v in zip(names, values)]


def table_view(
    state: pyspiel.State,
    viewer: int | None,
    *,
    agents: Sequence[str] | None = None,
    moves: bool = False,
    search: dict | None = None,
    seated: bool = True,
) -> dict:
    """The JSON view of ``state`` for seat ``viewer`` (None: every card open).

    ``seated``: a person sits at ``viewer`` and the words speak to him ("your move", "your
    team lost"); False (a replay from a seat's view): the view shows that seat's cards but
    its words name the seats ("seat 2 (Black) to play"). ``person`` in the view is the seat
    spoken to, or None.

    ``moves``: include the legal moves (only when ``viewer`` is to move: a person's turn).
    ``search``: a searching bot's statistics, already cut to what the viewer may see
    (:func:`search_view`).
    """
    game = state.get_game()
    spec, s = game.spec, state.kernel_state()
    lay = spec.layout(s) if spec.layout else {"zones": [], "facts": []}
    placed = _placed(lay["zones"])
    zones = [
        *_emit(lay["zones"], s, viewer),
        *_emit(_face_down_zones(s, viewer, placed), s, viewer),
        *_emit(_leftover_zones(s, placed), s, viewer),
    ]
    details = list(spec.table_lines(s))
    if viewer is not None:
        details += spec.private_lines(s, viewer)
    to_move = state.current_player()
    person = viewer if seated else None
    view = {
        "game": str(game),
        "name": spec.short_name,
        "title": spec.title(s),
        "long_name": spec.long_name,
        "original_name": spec.original_name,
        "players": game.num_players(),
        "team_game": spec.team_game,
        "team_names": list(spec.team_names) if spec.team_game else None,
        "viewer": viewer,
        "person": person,
        "to_move": to_move,
        "turn": words.turn_text(state, person),
        "move_number": len(state.history()),
        "terminal": state.is_terminal(),
        "seats": _seats(state, s, viewer, person, agents),
        "zones": zones,
        "facts": lay["facts"],
        "scores": _scores(state, person),
        "details": [d.strip() for d in details],
        "log": log_entries(state, viewer, person=person),
        "result": words.result_text(state, person) or None,
        "moves": [],
        "search": search,
    }
    if moves and viewer is not None and to_move == viewer:
        view["moves"] = _emit(move_list(state), s, viewer)
    return view


def search_view(
    before: pyspiel.State, seat: int, stats: Any, chosen: int, seen_text: str, full: bool
) -> dict:
    """A searching bot's root statistics for the move ``chosen`` it made at ``before``.

    ``full``: every root move with its visits and mean value, the search's size and time
    (only for a viewer who may see every card the bot knew: the other moves name cards in its
    hand, and their number, the visits, the values, even the iterations a time budget allowed,
    all follow from its hand). Otherwise only the chosen move, named as the viewer saw it
    (``seen_text``), and no number at all.
    """
    spec, s = before.get_game().spec, before.kernel_state()
    if not full:
        label = seen_text if seen_text.startswith("?") else spec.move_text(s, seat, chosen)
        return {"seat": seat, "rows": [{"label": label, "chosen": True}], "full": False}
    total = int(np.sum(stats.visits)) or 1
    rows = []
    for a, v, val in sorted(
        zip(stats.actions.tolist(), stats.visits.tolist(), stats.values.tolist()),
        key=lambda r: -r[1],
    ):
        rows.append(
            {
                "label": spec.move_text(s, seat, a),
                "visits": int(v),
                "share": v / total,
                "value": float(val),
                "chosen": a == chosen,
            }
        )
    return {
        "seat": seat,
        "iterations": int(stats.iterations),
        "seconds": float(stats.seconds),
        "moves": len(stats.actions),
        "forced": len(stats.actions) == 1,
        "rows": rows,
        "full": True,
    }
