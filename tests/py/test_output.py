# SPDX-License-Identifier: GPL-2.0-or-later
"""Conventions: --json puts the results document alone on stdout (run,
host, collect, compare), --csv FILE, compare --fail-above PCT as a CI gate,
colour only on a terminal without NO_COLOR or TERM=dumb."""

import argparse
import contextlib
import csv
import io
import json
import os
import shutil
import tempfile
import unittest
from pathlib import Path
from unittest import mock

from tests.py import FIXTURES
from kfront import cli, cmd_run, qemu, term


def run_cli(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err), \
            mock.patch('kfront.deps.ensure', return_value=True):
        status = cli.main(list(argv))
    return status, out.getvalue(), err.getvalue()


class FakeTty(io.StringIO):
    def isatty(self) -> bool:
        return True


class TestColour(unittest.TestCase):
    def test_rules(self) -> None:
        for env, tty, want in (({}, True, True), ({}, False, False),
                               ({'NO_COLOR': '1'}, True, False),
                               ({'NO_COLOR': ''}, True, True),
                               ({'TERM': 'dumb'}, True, False)):
            with self.subTest(env=env, tty=tty), mock.patch.dict(os.environ, env):
                if 'TERM' not in env:
                    os.environ.pop('TERM', None)
                if 'NO_COLOR' not in env:
                    os.environ.pop('NO_COLOR', None)
                stream = FakeTty() if tty else io.StringIO()
                self.assertEqual(term.use_color(stream), want)

    def test_compare_honours_no_color_on_a_terminal(self) -> None:
        """clean vs digest_mismatch: the digest line is red on a terminal,
        plain with NO_COLOR or TERM=dumb."""
        with tempfile.TemporaryDirectory() as tmp:
            for name in ('clean', 'digest_mismatch'):
                run_cli('collect', str(FIXTURES / f'{name}.log'), '--out', f'{tmp}/{name}',
                        '--no-report')
            argv = ['compare', f'{tmp}/clean/results.json',
                    f'{tmp}/digest_mismatch/results.json']
            for env, red in (({'NO_COLOR': '1', 'TERM': 'xterm'}, False),
                             ({'NO_COLOR': '', 'TERM': 'dumb'}, False),
                             ({'NO_COLOR': '', 'TERM': 'xterm'}, True)):
                out = FakeTty()
                with self.subTest(env=env), contextlib.redirect_stdout(out), \
                        contextlib.redirect_stderr(io.StringIO()), \
                        mock.patch.dict(os.environ, env):
                    cli.main(argv)
                self.assertIn('Verification digests differ', out.getvalue())
                self.assertEqual('\x1b[31' in out.getvalue(), red, env)


class TestJsonAndCsv(unittest.TestCase):
    def setUp(self) -> None:
        self._tmp = tempfile.TemporaryDirectory()
        self.tmp = Path(self._tmp.name)

    def tearDown(self) -> None:
        self._tmp.cleanup()

    def test_collect_json_is_the_document_alone(self) -> None:
        status, out, err = run_cli('collect', str(FIXTURES / 'clean.log'), '--out',
                                   str(self.tmp), '--json', '--csv', str(self.tmp / 'r.csv'))
        self.assertEqual(status, 0, err)
        doc = json.loads(out)
        self.assertEqual(doc, json.loads((self.tmp / 'results.json').read_text()))
        self.assertIn('run 1:', err)        # the usual lines went to stderr
        with open(self.tmp / 'r.csv', newline='') as f:
            rows = list(csv.DictReader(f))
        want = sum(len(r['counters']) for r in doc['results'])
        self.assertEqual(len(rows), want)
        row = next(r for r in rows if r['bench'] == 'calib.memcpy20' and r['variant'] == 'Os'
                   and r['counter'] == 'tsc')
        self.assertGreater(float(row['per_op_median']), 0)
        self.assertEqual(row['baseline'], 'O2')

    def test_collect_several_runs_give_a_list(self) -> None:
        status, out, _ = run_cli('collect', str(FIXTURES / 'two_boots.log'), '--out',
                                 str(self.tmp), '--json')
        docs = json.loads(out)
        self.assertIsInstance(docs, list)
        self.assertEqual(len(docs), 2)

    def test_csv_into_a_missing_folder_is_a_usage_error(self) -> None:
        with self.assertRaises(SystemExit) as cm, \
                contextlib.redirect_stderr(io.StringIO()):
            cli.main(['collect', str(FIXTURES / 'clean.log'), '--csv',
                      str(self.tmp / 'nope' / 'r.csv')])
        self.assertEqual(cm.exception.code, 2)

    def test_run_and_host_json(self) -> None:
        """run's finish step (what follows the boot) prints the document
        alone; host takes the same options."""
        out_dir = self.tmp / 'run'
        out_dir.mkdir()
        log = out_dir / 'serial.log'
        shutil.copy(FIXTURES / 'real_quick.log', log)
        parser = cli.make_parser()
        args = parser.parse_args(['run', '--json', '--csv', str(self.tmp / 'run.csv')])
        res = qemu.BootResult(status=0, qemu_rc=1, timed_out=False, output=b'',
                              elapsed_s=1.0, first_line_s=0.1, command=['qemu'])
        out, err = io.StringIO(), io.StringIO()
        from kfront import output
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err), \
                mock.patch('kfront.size.analyze_build', return_value=[]):
            with output.diverted(args):
                cmd_run.finish(out_dir, log, res, args)
        doc = json.loads(out.getvalue())
        self.assertEqual(doc['source'], 'qemu')
        # the tables (under TCG: emulator time, secondary), on stderr
        self.assertIn('Emulator time', err.getvalue())
        self.assertTrue((self.tmp / 'run.csv').is_file())
        host = parser.parse_args(['host', '--json', '--csv', str(self.tmp / 'h.csv')])
        self.assertTrue(host.json)


def scaled(doc: dict, factor: float) -> dict:
    """doc with every counter's samples and per-op figures times factor."""
    doc = json.loads(json.dumps(doc))
    for r in doc['results']:
        for c in r['counters'].values():
            c['samples'] = [round(s * factor) for s in c.get('samples') or []]
            for key in ('median', 'min', 'max', 'mad'):
                if key in c['per_op']:
                    c['per_op'][key] *= factor
            if c['per_op'].get('ci'):
                c['per_op']['ci'] = [v * factor for v in c['per_op']['ci']]
    return doc


class TestFailAbove(unittest.TestCase):
    def setUp(self) -> None:
        self._tmp = tempfile.TemporaryDirectory()
        self.tmp = Path(self._tmp.name)
        run_cli('collect', str(FIXTURES / 'real_quick.log'), '--out', str(self.tmp / 'a'),
                '--no-report')
        self.a = self.tmp / 'a' / 'results.json'
        self.b = self.tmp / 'b.json'
        self.b.write_text(json.dumps(scaled(json.loads(self.a.read_text()), 1.3)))

    def tearDown(self) -> None:
        self._tmp.cleanup()

    def test_gate(self) -> None:
        status, _, err = run_cli('compare', str(self.a), str(self.b), '--fail-above', '10')
        self.assertEqual(status, 1, err)
        self.assertIn('regression(s) above 10%', err)
        status, _, err = run_cli('compare', str(self.a), str(self.b), '--fail-above', '50')
        self.assertEqual(status, 0, err)
        status, _, err = run_cli('compare', str(self.a), str(self.a), '--fail-above', '0')
        self.assertEqual(status, 0, err)
        # an improvement is not a regression
        status, _, err = run_cli('compare', str(self.b), str(self.a), '--fail-above', '0')
        self.assertEqual(status, 0, err)

    def test_json_and_csv(self) -> None:
        status, out, err = run_cli('compare', str(self.a), str(self.b), '--json',
                                   '--fail-above', '10', '--csv', str(self.tmp / 'c.csv'))
        self.assertEqual(status, 1)
        doc = json.loads(out)
        self.assertTrue(doc['rows'])
        self.assertTrue(doc['regressions'])
        for r in doc['regressions']:
            self.assertGreater(r['ratio_ci'][0], 1.1)
        self.assertIn('B/A', err)           # the table went to stderr
        with open(self.tmp / 'c.csv', newline='') as f:
            self.assertEqual(len(list(csv.DictReader(f))), len(doc['rows']))

    def test_bad_percentage(self) -> None:
        for bad in ('-1', 'nan', 'ten'):
            with self.subTest(pct=bad), self.assertRaises(SystemExit) as cm, \
                    contextlib.redirect_stderr(io.StringIO()):
                cli.make_parser().parse_args(['compare', 'a', 'b', '--fail-above', bad])
            self.assertEqual(cm.exception.code, 2)


class TestArgs(unittest.TestCase):
    def test_verbose_flags(self) -> None:
        p = cli.make_parser()
        self.assertTrue(p.parse_args(['build', '-v']).verbose)
        self.assertTrue(p.parse_args(['run', '-v']).verbose)
        self.assertFalse(p.parse_args(['run']).verbose)
        self.assertIsInstance(p.parse_args(['run']), argparse.Namespace)


if __name__ == '__main__':
    unittest.main()
