# SPDX-License-Identifier: GPL-2.0-or-later
"""What run and host refuse before they build: a variants table the build
could not read (it would stay configured and break the next command), an
--out that is a file or already holds a run; a failed build sets the
options it changed back; a build refuses a configured table that is gone."""
from __future__ import annotations

import shutil
import tempfile
import unittest
from pathlib import Path
from unittest import mock

from kfront import build, names, paths, qemu
from tests.py.test_names import run_cli


class VariantsFile(unittest.TestCase):
    def test_contents_checked_as_the_build_reads_them(self) -> None:
        with tempfile.TemporaryDirectory() as tmp:
            bad = Path(tmp, 'bad.ini')
            bad.write_text('[O2\ncc = gcc\n')
            for cmd in ('run', 'host'):
                status, _, err = run_cli(cmd, '--variants-file', str(bad))
                self.assertEqual(status, 2, err)
                self.assertIn('no section headers', err)
                self.assertEqual(len(err.strip().splitlines()), 1, err)
            bad.write_text('[x]\ncc = gcc\n')
            self.assertIn('[x]: flags missing', names.variants_file_problem(bad) or '')
            self.assertIn('a folder', names.variants_file_problem(Path(tmp)) or '')
        self.assertIsNone(names.variants_file_problem(names.DEFAULT_VARIANTS_FILE))


class OutFolder(unittest.TestCase):
    def test_a_file_or_a_folder_holding_a_run_is_refused(self) -> None:
        with tempfile.TemporaryDirectory() as tmp:
            root = Path(tmp)
            self.assertIsNone(paths.out_problem(root / 'new'))
            self.assertIsNone(paths.out_problem(root))
            (root / 'f').write_text('x')
            self.assertIn('a file, not a folder', paths.out_problem(root / 'f') or '')
            (root / 'results.json').write_text('{}')
            for cmd in ('run', 'host'):
                status, _, err = run_cli(cmd, '--out', str(root))
                self.assertEqual(status, 2, err)
                self.assertIn('already holds a run (results.json)', err)
            self.assertEqual((root / 'results.json').read_text(), '{}')


class FailedBuild(unittest.TestCase):
    def test_changed_options_are_set_back(self) -> None:
        calls = []
        with mock.patch.object(build.subprocess, 'run',
                               side_effect=lambda cmd, **kw: calls.append(cmd)):
            build._restore_options(Path('b'), {'variants_file': '', 'x': 'y'},
                                   ['-Dvariants_file=/tmp/bad.ini', '-Dx=y', '-Dnew=1'])
        self.assertEqual(calls, [['meson', 'configure', 'b', '-Dvariants_file=']])
        calls.clear()
        with mock.patch.object(build.subprocess, 'run',
                               side_effect=lambda cmd, **kw: calls.append(cmd)):
            build._restore_options(Path('b'), {'variants_file': ''}, ['-Dvariants_file='])
        self.assertEqual(calls, [])


class ConfiguredTableGone(unittest.TestCase):
    """A build that sets no table keeps the one an earlier --variants-file
    left configured; once that file is gone it is refused with the way
    back, before meson's own error."""

    def configured(self, root: Path, value: str) -> Path:
        info = root / 'meson-info'
        info.mkdir(exist_ok=True)
        (info / 'intro-buildoptions.json').write_text(
            '[{"name": "variants_file", "value": "%s"}]' % value)
        return root

    def test_missing_table(self) -> None:
        with tempfile.TemporaryDirectory() as tmp:
            b = self.configured(Path(tmp), f'{tmp}/gone.ini')
            problem = build.table_problem(b, None) or ''
            self.assertIn(f'configured with the variant table {tmp}/gone.ini, which no longer '
                          'exists', problem)
            self.assertIn(f'meson configure {b} -Dvariants_file=', problem)
            with mock.patch.object(build, 'configure') as configure:
                self.assertFalse(build.build(b))
            configure.assert_not_called()
            # a build that sets the table itself (run, test, host) is not held up
            self.assertIsNone(build.table_problem(b, ['-Dvariants_file=']))
            self.assertIsNone(build.table_problem(b, [f'-Dvariants_file={tmp}/x.ini']))
            Path(tmp, 'gone.ini').write_text('[O2]\nflags = -O2\n')
            self.assertIsNone(build.table_problem(b, None))
            self.assertIsNone(build.table_problem(self.configured(b, ''), None))


@unittest.skipUnless(shutil.which('qemu-system-x86_64'), 'needs qemu-system-x86')
class CpuFeatures(unittest.TestCase):
    """QEMU itself is asked: it takes more features than it lists."""

    def test_feature_qemu_refuses(self) -> None:
        self.assertIn("QEMU refuses it: Property 'max-x86_64-cpu.bogusfeat' not found",
                      qemu.cpu_features_problem('max,+bogusfeat') or '')

    def test_features_qemu_takes(self) -> None:
        for cpu in ('max', 'max,+avx2,-pmu', 'qemu64,pmu=off'):
            self.assertIsNone(qemu.cpu_features_problem(cpu), cpu)


class KernelArguments(unittest.TestCase):
    def test_words_inside_one_argument_are_checked(self) -> None:
        self.assertIn("'nope' matches no benchmark",
                      names.kernel_args_problem(['exit=qemu bench=nope']) or '')


if __name__ == '__main__':
    unittest.main()
