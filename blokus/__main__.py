"""``python -m blokus``: the ``blokus`` command (see :mod:`blokus.cli`)."""

import sys

from blokus.cli import main

sys.exit(main())
