# SPDX-License-Identifier: GPL-2.0-or-later
"""Entry point for `python3 -m kfront`."""
import sys

from kfront.cli import main

sys.exit(main())
