"""``skip-ai serve``: the table in a browser — play against the bots, watch recorded games
move by move, see why a searching bot moved.

A driver: it imports agents and the core, and nothing below imports it. ``views`` decides
what a seat sees (and is the only place that turns card ids into the JSON a page receives;
each game arranges its own public cards, ``GameSpec.layout``), ``tables`` runs live games with
the bots, ``replays`` reads a tournament's records, ``server`` answers HTTP and ``guards``
says who may ask it and how much.
"""
