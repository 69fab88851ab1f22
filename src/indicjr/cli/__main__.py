"""`python -m indicjr.cli` is `ijr`."""

from __future__ import annotations

import sys

from indicjr.cli import main

sys.exit(main())
