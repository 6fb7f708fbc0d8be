"""A game's lever space: the variants a search for the fairest rules goes through.

A lever (RULES §0.7, :attr:`skip_ai.spec.Param.lever`) is a game parameter whose default is
the rule as written. The space of a base variant (its rule parameters fixed, e.g. four players
with 52 cards) is the product of its levers' settings, or of the settings a search names; the
base itself — every lever at its default — comes first, as the default the others are measured
against. Settings that the game refuses together (a first seat beyond the players) are left
out.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence

from skip_ai.pyspiel_wrapper import game_string, load, spec_of
from skip_ai.spec import ParamValue


def space(base: str, levers: Mapping[str, Sequence[ParamValue]] | None = None) -> list[str]:
    """Every variant of ``base`` over its levers (each over ``levers[name]`` where given,
    else over all its choices; a lever not named in a given ``levers`` stays as ``base`` has
    it), as full game strings, ``base`` first. A ``ValueError`` names an unknown lever, a
    setting it does not allow, or a base without levers."""
    spec = spec_of(base)
    params = load(base).resolved
    if not spec.levers:
        raise ValueError(f"{spec.short_name} has no levers to search")
    known = {p.name: p for p in spec.levers}
    for name, values in (levers or {}).items():
        if name not in known:
            raise ValueError(
                f"{spec.short_name}: {name!r} is not a lever (levers: {', '.join(known)})"
            )
        if not values:
            raise ValueError(f"{spec.short_name}: lever {name} is given no settings")
        for v in values:
            known[name].check(v, spec.short_name)
    axes = {
        p.name: (list(levers[p.name]) if levers and p.name in levers else [params[p.name]])
        if levers is not None
        else list(p.choices)
        for p in spec.levers
    }
    out = [str(load(base))]
    for values in itertools.product(*axes.values()):
        candidate = {**params, **dict(zip(axes, values))}
        try:
            spec.resolve(candidate)
        except ValueError:  # settings the game refuses together
            continue
        name = str(load(game_string(spec, candidate)))
        if name not in out:
            out.append(name)
    return out


def settings(game: str) -> dict[str, ParamValue]:
    """The levers of the variant ``game`` that differ from the rules (none: the rules)."""
    g = load(game)
    return {p.name: g.resolved[p.name] for p in g.spec.levers if g.resolved[p.name] != p.default}


def describe(game: str) -> str:
    """The variant's changes of the rules in a few words: "first_seat=1, komi=+2", or "the
    rules as written"."""
    changed = settings(game)
    if not changed:
        return "the rules as written"
    return ", ".join(f"{k}={_value(k, v)}" for k, v in changed.items())


def _value(name: str, v: ParamValue) -> str:
    if name == "komi" and isinstance(v, int):
        return f"{v:+d}"
    return str(v).lower() if isinstance(v, bool) else str(v)
