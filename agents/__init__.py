"""Agents for skip_ai games, all built by :func:`make_agent` from a spec string or a bot factory."""

from agents.factory import (
    AGENTS,
    Agent,
    BotFactory,
    PreparedAgent,
    agent_name,
    make_agent,
    parse_spec,
)

__all__ = [
    "AGENTS",
    "Agent",
    "BotFactory",
    "PreparedAgent",
    "agent_name",
    "make_agent",
    "parse_spec",
]
