# SPDX-License-Identifier: GPL-2.0-or-later
"""Host tests of the kfront Python tools (stdlib unittest).

Run from the repository root:
    python3 -m unittest discover -s tests/py -t .
Importing this package puts tools/ on sys.path so `import kfront` works.
"""

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "tests" / "fixtures"
_TOOLS = str(ROOT / "tools")
if _TOOLS not in sys.path:
    sys.path.insert(0, _TOOLS)
