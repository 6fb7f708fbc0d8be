"""Agents for skip_ai games, all built by :func:`make_agent` from a spec string."""

from agents.factory import AGENTS, make_agent, parse_spec

__all__ = ["AGENTS", "make_agent", "parse_spec"]
