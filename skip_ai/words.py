"""A game's situation in plain words for a person at a seat: who sits where (you, your
partner, the opponents), whose turn it is, what was played, and how the game ended.

Every game's text is written for a log (``seat 2 (team 1) to play``, ``returns [1.0, -1.0]``);
a person playing or watching wants it said from their seat ("your move", "your team (Red)
wins 7–6"). These helpers work on any registered game's pyspiel state; the terminal seat
(``agents.human``) and the browser table (``skip_ai.serve``) both use them. ``viewer`` is the
person's seat, or None for someone with no seat (watching bots, a replay even from a
seat's view): then the words name seats and teams only, never "you".
"""

from __future__ import annotations

import pyspiel

from skip_ai.kernel.state import CHANCE, TERMINAL


def _spec(state: pyspiel.State):
    return state.get_game().spec


def team_of(state: pyspiel.State, seat: int) -> int | None:
    """The seat's team (0 or 1), or None in a game played each for themselves."""
    game = state.get_game()
    return int(game.teams()[seat]) if game.spec.team_game else None


def partners(state: pyspiel.State, seat: int) -> list[int]:
    """The other members of the seat's team (none in 1-vs-1 or each for themselves)."""
    t = team_of(state, seat)
    if t is None:
        return []
    return [q for q in range(state.num_players()) if q != seat and team_of(state, q) == t]


def role(state: pyspiel.State, seat: int, viewer: int | None) -> str:
    """``you``, ``partner`` or ``opponent`` as seen from ``viewer``; ``""`` with no viewer."""
    if viewer is None:
        return ""
    if seat == viewer:
        return "you"
    return "partner" if seat in partners(state, viewer) else "opponent"


def seat_label(state: pyspiel.State, seat: int, viewer: int | None = None) -> str:
    """``seat 1 (your partner, Red)``, ``seat 0 (you, Red)``, ``seat 2 (Black)``, ``seat 3``."""
    spec = _spec(state)
    parts = []
    r = role(state, seat, viewer)
    if r == "you":
        parts.append("you")
    elif r == "partner":
        parts.append("your partner")
    t = team_of(state, seat)
    if t is not None:
        parts.append(spec.team_names[t])
    return f"seat {seat}" + (f" ({', '.join(parts)})" if parts else "")


def team_label(state: pyspiel.State, team: int, viewer: int | None = None) -> str:
    """``your team (Red)`` / ``Black``; in 1-vs-1 ``you`` / ``seat 1``."""
    spec = _spec(state)
    mine = viewer is not None and team_of(state, viewer) == team
    if state.num_players() == 2:
        return "you" if mine else f"seat {team}"
    return f"your team ({spec.team_names[team]})" if mine else spec.team_names[team]


def move_text(state: pyspiel.State, player: int, action: int) -> str:
    """``player``'s move ``action`` in ``state`` (before it is applied) as a person reads it:
    the game's words where it has them (``GameSpec.move_text``), else its action text."""
    return _spec(state).move_text(state.kernel_state(), player, action)


def history_words(state: pyspiel.State, viewer: int | None = None) -> list[tuple[int, str]]:
    """Every action so far as ``viewer`` saw it (None: as it was), ``(actor, text)``: a card
    seen only by others as ``?`` and the seats that saw it (``history_seen_by``), a player's
    move in the game's words where it has them (``GameSpec.move_text``: Chains' "Qs to the
    right of Js" rather than ``Qs@0,1``)."""
    spec, s = _spec(state), state.kernel_state()
    if viewer is not None:
        seen = state.history_seen_by(viewer)
    else:
        seen = [
            (item.player, spec.action_to_string(s, item.player, item.action))
            for item in state.full_history()
        ]
    if spec.move_words is None:
        return seen
    # a move's words describe the table it was made on: replay the history to each move
    before = state.get_game().new_initial_state()
    out = []
    for (actor, text), action in zip(seen, state.history()):
        if actor >= 0 and not text.startswith("?"):
            text = spec.move_text(before.kernel_state(), actor, action)
        out.append((actor, text))
        before.apply_action(action)
    return out


def turn_text(state: pyspiel.State, viewer: int | None = None) -> str:
    """``your move``, ``seat 2 (Black) to play``, what chance does, or ``game over``."""
    cur = state.current_player()
    if cur == TERMINAL:
        return "game over"
    if cur == CHANCE:
        return _spec(state).chance_text(state.kernel_state())
    if cur == viewer:
        return "your move"
    return f"{seat_label(state, cur, viewer)} to play"


def _num(x: float) -> str:
    return f"{x:g}".replace("-", "−")


def result_text(state: pyspiel.State, viewer: int | None = None) -> str:
    """How a finished game ended, in words: ``your team (Red) wins 7–6``, ``Black wins 7–6:
    your team lost``, ``a draw, 6–6``, ``seat 2 goes out first and wins``, with the game's
    own note on how it was decided (``Red wins 4–4 on the tiebreak (equal piles; ...)``);
    ``""`` before the end. With no ``viewer`` (a replay, bots watched) it names seats and
    teams only, never "you"."""
    if not state.is_terminal():
        return ""
    if _spec(state).team_game:
        return _team_result(state, viewer)
    return _solo_result(state, viewer)


def _note(state: pyspiel.State) -> str:
    """The game's own words on how it was decided (``GameSpec.result_note``), in brackets."""
    note = _spec(state).result_note(state.kernel_state())
    return f" ({note})" if note else ""


def _team_result(state: pyspiel.State, viewer: int | None) -> str:
    returns, scores = state.returns(), state.scores()
    first = returns[next(q for q in range(state.num_players()) if team_of(state, q) == 0)]
    dash = " to " if min(scores) < 0 else "–"  # "0 to −9" reads better than "0–−9"
    if first == 0:
        return f"a draw, {_num(scores[0])}{dash}{_num(scores[1])}{_note(state)}"
    won = 0 if first > 0 else 1
    score = f"{_num(scores[won])}{dash}{_num(scores[1 - won])}"
    if scores[won] == scores[1 - won]:
        score += " on the tiebreak"
    who = team_label(state, won, viewer)
    verb = "win" if who == "you" else "wins"
    line = f"{who} {verb} {score}{_note(state)}"
    if viewer is not None and team_of(state, viewer) != won:
        line += ": you lost" if state.num_players() == 2 else ": your team lost"
    return line[0].upper() + line[1:] if who == "you" else line


def _solo_result(state: pyspiel.State, viewer: int | None) -> str:
    """Games played each for themselves (Pyatki, Rummy): the first player out wins."""
    returns = state.returns()
    if len(set(returns)) == 1:
        return "nobody wins: the game stopped before anyone went out" + _note(state)
    order = sorted(range(len(returns)), key=lambda q: -returns[q])
    best = order[0]
    if returns.count(returns[best]) > 1:
        tied = [q for q in order if returns[q] == returns[best]]
        named = ", ".join(seat_label(state, q, viewer) for q in tied)
        return f"shared first place: {named}{_note(state)}"
    name = "you" if best == viewer else f"seat {best}"
    line = (
        f"{name} {'go' if best == viewer else 'goes'} out first and "
        f"{'win' if best == viewer else 'wins'}"
    )
    if _spec(state).max_utility > 1:  # returns are points (Rummy)
        line += f" {_num(returns[best])} points"
    elif len(set(returns)) > 2:  # the places were played out (Pyatki)
        line += "; then " + ", ".join(seat_label(state, q, viewer) for q in order[1:])
    line += _note(state)
    return line[0].upper() + line[1:]
