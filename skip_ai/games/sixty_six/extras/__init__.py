"""Sixty-six's extras (RULES §12.7), each a parameter, all off by default: the cut, offers
of nines and nines games, the redeal, the contracts."""
