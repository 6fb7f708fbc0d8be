"""``python -m skip_ai.cli``: the ``skip-ai`` command."""

import sys

from skip_ai.cli import main

sys.exit(main())
