# SPDX-License-Identifier: GPL-2.0-or-later
"""What a terminal may be sent: colour, and lines redrawn in place.

Colour only on a terminal, never with NO_COLOR set to anything non-empty
(https://no-color.org) or with TERM=dumb; a line redrawn with a carriage
return only on a terminal that is not dumb (a log file or a CI console gets
whole lines instead).
"""
from __future__ import annotations

import os
from typing import TextIO


def _isatty(stream: TextIO) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


def dumb() -> bool:
    return os.environ.get('TERM', '') == 'dumb'


def use_color(stream: TextIO) -> bool:
    return _isatty(stream) and not os.environ.get('NO_COLOR') and not dumb()


def live(stream: TextIO) -> bool:
    """True when one line may be redrawn in place on stream."""
    return _isatty(stream) and not dumb()
