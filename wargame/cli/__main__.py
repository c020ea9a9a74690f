"""``python -m wargame.cli ...``: the ``wargame`` command."""

import sys

from wargame.cli import main

sys.exit(main())
