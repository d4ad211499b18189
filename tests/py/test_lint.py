# SPDX-License-Identifier: GPL-2.0-or-later
"""`kfront test`'s lint step: pyflakes counted as one test."""

import contextlib
import io
import tempfile
import unittest
from pathlib import Path
from unittest import mock

from kfront import cmd_test


@unittest.skipIf(cmd_test.pyflakes_command() is None, 'pyflakes3 is not installed')
class TestLint(unittest.TestCase):
    def lint(self, source: str) -> tuple[cmd_test.Tally, str]:
        with tempfile.TemporaryDirectory() as tmp:
            (Path(tmp) / 'mod.py').write_text(source, encoding='utf-8')
            out = io.StringIO()
            with contextlib.redirect_stdout(out):
                tally = cmd_test.run_lint([Path(tmp)])
        return tally, out.getvalue()

    def test_clean_code_passes(self) -> None:
        tally, out = self.lint('import os\n\nprint(os.sep)\n')
        self.assertEqual((tally.passed, tally.failed, tally.skipped), (1, 0, 0))
        self.assertEqual(out, '')

    def test_finding_fails_and_is_printed(self) -> None:
        tally, out = self.lint('import os\n')
        self.assertEqual((tally.passed, tally.failed), (0, 1))
        self.assertIn("'os' imported but unused", out)


class TestLintAbsent(unittest.TestCase):
    def test_skipped_with_reason(self) -> None:
        out = io.StringIO()
        with mock.patch.object(cmd_test, 'pyflakes_command', return_value=None), \
                contextlib.redirect_stdout(out):
            tally = cmd_test.run_lint([Path('.')])
        self.assertEqual((tally.passed, tally.failed, tally.skipped), (0, 0, 1))
        self.assertIn('pyflakes3', out.getvalue())


if __name__ == '__main__':
    unittest.main()
