# SPDX-License-Identifier: GPL-2.0-or-later
"""--variants and --bench are checked against the tree before anything
builds or boots: exit 2, the valid names listed, a suggestion that ignores
case, and a glob that matches nothing is an error."""

import contextlib
import io
import tempfile
import unittest
from pathlib import Path
from unittest import mock

from kfront import build, cli, names


def run_cli(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err), \
            mock.patch('kfront.deps.ensure', return_value=True), \
            mock.patch.object(build, 'build', side_effect=AssertionError('built')):
        status = cli.main(list(argv))
    return status, out.getvalue(), err.getvalue()


class TestNamesFromTheTree(unittest.TestCase):
    def test_variants_file_sections(self) -> None:
        self.assertEqual(names.variant_names(names.DEFAULT_VARIANTS_FILE)[:3],
                         ['O2', 'Os', 'hybrid'])

    def test_benchmarks_and_their_flags(self) -> None:
        benches = {b.name: b for b in names.benchmarks()}
        for name in ('calib.empty', 'net.udp_stream', 'sched.ctxsw', 'mix.tcp_rr_wakeup'):
            self.assertIn(name, benches)
        self.assertTrue(benches['calib.hang'].explicit)
        self.assertTrue(benches['net.wire_rr'].wire)
        self.assertFalse(benches['net.tcp_rr'].wire or benches['net.tcp_rr'].explicit)


class TestSelection(unittest.TestCase):
    def test_valid_selections(self) -> None:
        for variants, bench in (('O2,Os', 'net.*,sched.ctxsw'), ('O*', 'calib.hang'),
                                (None, 'none'), ('hybrid', '*')):
            with self.subTest(variants=variants, bench=bench):
                self.assertIsNone(names.selection_problem(variants, bench,
                                                          names.DEFAULT_VARIANTS_FILE))

    def test_case_suggestion_and_list(self) -> None:
        p = names.selection_problem('O2,os', None, names.DEFAULT_VARIANTS_FILE) or ''
        self.assertIn("'os' matches no variant; did you mean 'Os'?", p)
        self.assertIn('valid variants: O2 Os hybrid', p)
        p = names.selection_problem(None, 'NET.*') or ''
        self.assertIn("did you mean 'net.*'?", p)
        p = names.selection_problem(None, 'net.udp_strem') or ''
        self.assertIn("did you mean 'net.udp_stream'?", p)
        self.assertIn('sched.pipe', p)

    def test_glob_matching_nothing_is_an_error(self) -> None:
        p = names.selection_problem(None, 'net.*,nothing*') or ''
        self.assertIn("'nothing*' matches no benchmark", p)
        self.assertNotIn('did you mean', p)

    def test_globs_skip_explicit_and_wire(self) -> None:
        p = names.selection_problem(None, 'net.wire_*', wire_hint='--wire') or ''
        self.assertIn('net.wire_* need --wire', p)
        self.assertIsNone(names.selection_problem(None, 'net.wire_*', wire=True))
        self.assertIn('net.wire_rr needs a wire: a NIC and a host peer (--wire)',
                      names.selection_problem(None, 'net.wire_rr', wire_hint='--wire') or '')
        self.assertIsNone(names.selection_problem(None, 'net.wire_rr', wire=True))
        self.assertIn('calib.hang', names.selection_problem(None, 'calib.h*') or '')

    def test_footprint_points_as_the_kernel_takes_them(self) -> None:
        most, rules = names.footprint_limits()
        self.assertEqual((most, rules), (16, 1024))
        self.assertIsNone(names.footprint_problem('0,32,1024'))
        self.assertIn('1025 is more than the 1024 filter rules',
                      names.footprint_problem('0,1025') or '')
        self.assertIn('64 is given twice', names.footprint_problem('64,0,64') or '')
        self.assertIn('at most 16 points, got 17',
                      names.footprint_problem(','.join(map(str, range(17)))) or '')
        self.assertIn('footprint=: 2000 is more than',
                      names.kernel_args_problem(['footprint=0,2000']) or '')

    def test_kernel_arguments(self) -> None:
        self.assertIn("bench=: 'nope' matches",
                      names.kernel_args_problem(['quick', 'bench=nope']) or '')
        self.assertIn("variant=: 'o2'", names.kernel_args_problem(['variant=o2']) or '')
        self.assertIsNone(names.kernel_args_problem(['bench=net.wire_*', 'peer=1.2.3.4:9']))
        self.assertIsNone(names.kernel_args_problem(['runs=3', 'bench=none']))

    def test_configured_variants_file(self) -> None:
        with tempfile.TemporaryDirectory() as tmp:
            build_dir = Path(tmp)
            self.assertEqual(names.configured_variants_file(build_dir),
                             names.DEFAULT_VARIANTS_FILE)
            (build_dir / 'meson-info').mkdir()
            (build_dir / 'meson-info' / 'intro-buildoptions.json').write_text(
                '[{"name": "variants_file", "value": "/x/v.ini"}]')
            self.assertEqual(names.configured_variants_file(build_dir), Path('/x/v.ini'))


class TestCommandsFailEarly(unittest.TestCase):
    """Exit 2 with the message, and build.build never called."""

    def test_each_command(self) -> None:
        for argv, want in ((['run', '--variants', 'o2'], "did you mean 'O2'"),
                           (['run', '--bench', 'nothing*'], "'nothing*' matches no benchmark"),
                           (['run', '--', 'bench=net.tcp_r'], "did you mean 'net.tcp_rr'"),
                           (['host', '--bench', 'Sched.*'], "did you mean 'sched.*'"),
                           (['boot', '--', 'variant=hybird'], "did you mean 'hybrid'"),
                           (['lava-job', '--variants', 'O3'], 'valid variants: O2 Os hybrid'),
                           (['flags', '--bench', 'net.*,calib.memcpy2'],
                            "did you mean 'calib.memcpy20'")):
            with self.subTest(argv=argv):
                status, out, err = run_cli(*argv)
                self.assertEqual(status, 2, err)
                self.assertIn(want, err)
                self.assertEqual(out, '')

    def test_run_checks_against_its_variants_file(self) -> None:
        with tempfile.TemporaryDirectory() as tmp:
            table = Path(tmp, 'v.ini')
            table.write_text('[fast]\ncc = gcc\nflags = -O2\n')
            status, _, err = run_cli('run', '--variants-file', str(table), '--variants', 'Os')
        self.assertEqual(status, 2)
        self.assertIn('valid variants: fast', err)

    def test_host_checks_against_its_variants_file(self) -> None:
        with tempfile.TemporaryDirectory() as tmp:
            table = Path(tmp, 'v.ini')
            table.write_text('[fast]\ncc = gcc\nflags = -O2\n')
            status, _, err = run_cli('host', '--variants-file', str(table), '--variants', 'Os')
            self.assertEqual(status, 2)
            self.assertIn('valid variants: fast', err)
            status, _, err = run_cli('host', '--variants-file', str(Path(tmp, 'none.ini')))
        self.assertEqual(status, 2)
        self.assertIn('none.ini: no such file', err)

    def test_host_without_a_table_builds_the_default(self) -> None:
        """Like run: no table lingers in the build directory."""
        import argparse
        from kfront import cmd_host
        self.assertEqual(cmd_host.variants_file(argparse.Namespace(variants_file=None)),
                         names.DEFAULT_VARIANTS_FILE)


if __name__ == '__main__':
    unittest.main()
