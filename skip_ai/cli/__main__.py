"""``python -m skip_ai.cli``: the ``skip-ai`` command."""

import sys

from skip_ai.cli import main

if __name__ == "__main__":  # importing the module (the layering test does) runs nothing
    sys.exit(main())
