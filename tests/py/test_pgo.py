# SPDX-License-Identifier: GPL-2.0-or-later
"""Profiles (docs/pgo.md): set names, the held-out split, stale-profile
rejection, the variant table's profile key, and the goal figures."""

import contextlib
import io
import json
import os
import shutil
import subprocess
import tempfile
import time
import unittest
from pathlib import Path

from kfront import build as kbuild, cmd_pgo, paths, pgo

import pgo_profile  # tools/build, put on the path by kfront.pgo
import variants

ROOT = paths.ROOT


class HeldOut(unittest.TestCase):
    def test_leave_one_family_out(self) -> None:
        benches = ['net.udp_rr', 'net.tcp_stream', 'sched.chat', 'mix.tcp_rr_wakeup',
                   'calib.empty', 'net.udp_rr']
        self.assertEqual(pgo.split_held_out(benches, 'net.*'),
                         (['net.tcp_stream', 'net.udp_rr'],
                          ['calib.empty', 'mix.tcp_rr_wakeup', 'sched.chat']))
        trained, held = pgo.split_held_out(benches, 'sched.*, mix.*')
        self.assertEqual(trained, ['mix.tcp_rr_wakeup', 'sched.chat'])
        self.assertIn('net.udp_rr', held)

    def test_set_names(self) -> None:
        self.assertEqual(pgo_profile.set_name('net.*'), 'net')
        self.assertEqual(pgo_profile.set_name('sched.*,mix.*'), 'sched+mix')
        with self.assertRaises(pgo_profile.ProfileError):
            pgo_profile.set_name(' , ')


class Stale(unittest.TestCase):
    def setUp(self) -> None:
        self.tmp = Path(tempfile.mkdtemp(prefix='kfront-pgo-'))
        self.addCleanup(shutil.rmtree, self.tmp, True)
        # a small source tree with the directories the tree hash covers
        (self.tmp / 'kernel' / 'net').mkdir(parents=True)
        (self.tmp / 'kernel' / 'net' / 'a.c').write_text('int a;\n')
        (self.tmp / 'tools' / 'build').mkdir(parents=True)
        (self.tmp / 'tools' / 'build' / 'build_variant.py').write_text('#\n')
        self.pdir = self.tmp / 'build' / 'pgo' / 'net'
        (self.pdir / 'gcda').mkdir(parents=True)
        (self.pdir / 'gcda' / 'kernel_net_a.gcda').write_bytes(b'adcg')
        meta = {'train': 'net.*', 'checksum': pgo_profile.gcda_checksum(self.pdir / 'gcda'),
                'tree': pgo_profile.tree_hash(self.tmp)}
        (self.pdir / 'profile.json').write_text(json.dumps(meta))

    def test_current_profile_loads(self) -> None:
        self.assertEqual(pgo_profile.load(self.pdir, self.tmp)['train'], 'net.*')

    def test_older_tree_is_rejected(self) -> None:
        (self.tmp / 'kernel' / 'net' / 'a.c').write_text('int a, b;\n')
        with self.assertRaisesRegex(pgo_profile.ProfileError,
                                    r"another source tree .*\./kfront pgo --train 'net\.\*'"):
            pgo_profile.load(self.pdir, self.tmp)

    def test_changed_gcda_is_rejected(self) -> None:
        (self.pdir / 'gcda' / 'kernel_net_a.gcda').write_bytes(b'adcg\0')
        with self.assertRaisesRegex(pgo_profile.ProfileError, 'gcda files changed'):
            pgo_profile.load(self.pdir, self.tmp)

    def test_missing_profile_leaves_variant_out(self) -> None:
        ini = self.tmp / 'v.ini'
        ini.write_text('[O2]\nflags = -O2\n[pgo]\nflags = -O2 -fprofile-use\n'
                       'profile = sched.*\n')
        lines = variants.meson_lines(variants.load(ini), self.tmp / 'build')
        self.assertEqual(lines[0], 'O2\tgcc\t-O2\t-\t-\t0')
        self.assertTrue(lines[1].startswith('#note\tvariant pgo left out'), lines[1])

    def test_stale_profile_leaves_variant_out(self) -> None:
        """A profile from an older tree is never used: the variant is left
        out with the reason and the command that trains a new one, the
        other variants still build, and asking for it is an error."""
        ini = self.tmp / 'v.ini'
        ini.write_text('[O2]\nflags = -O2\n[pgo]\nflags = -O2 -fprofile-use\n'
                       'profile = net.*\n')
        build = self.tmp / 'build'
        table = variants.load(ini)
        self.assertEqual(variants.left_out(table, build, self.tmp), {})
        self.assertEqual(len(variants.meson_lines(table, build, self.tmp)), 2)
        (self.tmp / 'kernel' / 'net' / 'a.c').write_text('int a, b;\n')
        lines = variants.meson_lines(table, build, self.tmp)
        self.assertEqual(lines[0], 'O2\tgcc\t-O2\t-\t-\t0')
        self.assertRegex(lines[1], r"^#note\tvariant pgo left out of the image: .*another "
                         r"source tree.*\./kfront pgo --train 'net\.\*'")
        problem = pgo.unavailable_variants('O2,pgo', ini, build, self.tmp)
        self.assertRegex(problem or '', r"variant pgo is not in the image: .*another source tree")
        self.assertIsNotNone(pgo.unavailable_variants('p*', ini, build, self.tmp))
        self.assertIsNone(pgo.unavailable_variants('O2', ini, build, self.tmp))
        self.assertIsNone(pgo.unavailable_variants('*', ini, build, self.tmp))

    def test_run_refuses_a_variant_without_profile(self) -> None:
        """Before any build: exit 2 and the command that trains one."""
        ini = self.tmp / 'v.ini'
        ini.write_text('[O2]\nflags = -O2\n[pgo]\nflags = -O2 -fprofile-use\n'
                       'profile = nosuch.*\n')
        root = Path(__file__).resolve().parents[2]
        res = subprocess.run([str(root / 'kfront'), 'run', '--quick', '--variants', 'O2,pgo',
                              '--variants-file', str(ini)], capture_output=True, text=True,
                             timeout=60)
        self.assertEqual(res.returncode, 2, res.stderr)
        self.assertIn("variant pgo is not in the image: no profile for nosuch.*", res.stderr)
        self.assertIn("./kfront pgo --train 'nosuch.*'", res.stderr)

    def test_stale_profile_in_use_reconfigures(self) -> None:
        """kfront build configures again when a profile the build uses no
        longer fits the tree, so the variant is left out, not failed."""
        bdir = self.tmp / 'b'
        bdir.mkdir()
        ninja = bdir / 'build.ninja'
        ninja.write_text(f"build x: CUSTOM '--profile-dir={self.pdir}' --benches y\n")
        future = time.time() + 3600      # newer than any real profile
        os.utime(ninja, (future, future))
        self.assertTrue(kbuild._profile_newer(bdir))     # tree hash of another tree
        ninja.write_text("build x: CUSTOM '--profile-dir=-' --benches y\n")
        os.utime(ninja, (future, future))
        self.assertFalse(kbuild._profile_newer(bdir))

    def test_profile_key_needs_profile_use(self) -> None:
        ini = self.tmp / 'v.ini'
        ini.write_text('[pgo]\nflags = -O2\nprofile = net.*\n')
        with self.assertRaisesRegex(variants.VariantError, 'needs -fprofile-use'):
            variants.load(ini)


class Goals(unittest.TestCase):
    def res(self, bench: str, variant: str, **medians: float) -> dict:
        return {'bench': bench, 'variant': variant, 'footprint': None,
                'counters': {k.replace('_', '.', 1) if k.startswith('sim_') else k:
                             {'per_op': {'median': v}} for k, v in medians.items()}}

    def test_ratios_and_split(self) -> None:
        rs = []
        for bench, pgo_l1i in (('net.udp_rr', 9.0), ('sched.chat', 11.0)):
            rs += [self.res(bench, 'O2', **{'sim_instructions': 100.0, 'tsc': 50.0}),
                   self.res(bench, 'Os', **{'sim_instructions': 110.0, 'tsc': 40.0}),
                   self.res(bench, 'pgo', **{'sim_instructions': 102.0, 'tsc': 42.0})]
            for r, l1i in zip(rs[-3:], (12.0, 10.0, pgo_l1i)):
                r['counters']['sim.skylake.l1i_misses'] = {'per_op': {'median': l1i}}
        g = pgo.goals({'context': 'user', 'results': rs}, 'net.*')
        by = {p['bench']: p for p in g['points']}
        self.assertEqual(by['net.udp_rr'], {'bench': 'net.udp_rr', 'footprint': None,
                                            'held_out': False, 'l1i_pgo': 9.0,
                                            'l1i_Os': 10.0, 'l1i_vs_Os': 0.9,
                                            'insns_vs_O2': 1.02, 'sim_goal': True,
                                            'tsc_vs_best': 1.05})
        self.assertFalse(by['sched.chat']['sim_goal'])
        self.assertEqual(g['held_out']['sim_goal_met'], 0)
        self.assertEqual(g['trained']['tsc_geomean_vs_best'], 1.05)
        self.assertIn('MISS', pgo.goals_text(g, 't'))
        # a candidate variant is measured the same way, under its own name
        for r in rs:
            r['variant'] = {'pgo': 'pgo-x', 'O2': 'O2', 'Os': 'Os'}[r['variant']]
        self.assertEqual(pgo.goals({'context': 'user', 'results': rs}, 'net.*',
                                   variant='pgo-x'), g)
        self.assertEqual(pgo.goals({'context': 'user', 'results': rs}, 'net.*')['points'], [])

    def test_no_misses_in_either_meets_the_l1i_goal(self) -> None:
        rs = [self.res('net.udp_rr', v, sim_instructions=n) for v, n in
              (('O2', 100.0), ('Os', 110.0), ('pgo', 97.0))]
        for r in rs:
            r['counters']['sim.skylake.l1i_misses'] = {'per_op': {'median': 0.0}}
        row = pgo.goals({'results': rs}, 'net.*')['points'][0]
        self.assertTrue(row['sim_goal'])
        self.assertNotIn('l1i_vs_Os', row)

    def test_host_goals_in_each_timing_process(self) -> None:
        """kfront pgo --host-repeat: the host goal's geometric mean and worst
        point of each process, printed and stored in the first's pgo
        block."""
        def doc(pgo_tsc: float) -> dict:
            return {'context': 'user', 'results': [
                self.res('net.udp_rr', v, tsc=t) for v, t in
                (('O2', 50.0), ('Os', 40.0), ('pgo', pgo_tsc))]}
        tmp = Path(tempfile.mkdtemp(prefix='kfront-pgo-host-'))
        self.addCleanup(shutil.rmtree, tmp)
        meta = {'train': 'net.*', 'checksum': 'c', 'tree': 't'}
        first = tmp / 'results.json'
        first.write_text(json.dumps(doc(42.0)))
        with contextlib.redirect_stdout(io.StringIO()):
            cmd_pgo.annotate(first, meta)              # one process: nothing
        self.assertNotIn('host_goals_by_process', json.loads(first.read_text())['pgo'])
        # the processes the document names (kfront host --repeat 2), not
        # every results-N.json in the folder
        first.write_text(json.dumps({**doc(42.0),
                                     'extra': {'host_repeats': {'processes': 2}}}))
        (tmp / 'results-2.json').write_text(json.dumps(doc(38.0)))
        (tmp / 'results-3.json').write_text(json.dumps(doc(99.0)))
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            cmd_pgo.annotate(first, meta)
        stored = json.loads(first.read_text())['pgo']['host_goals_by_process']
        self.assertEqual([p['trained']['tsc_geomean_vs_best'] for p in stored], [1.05, 0.95])
        self.assertEqual(stored[0]['held_out'], {})
        self.assertIn('host geomean pgo/best(O2,Os) in each of 2 timing processes: trained '
                      '1.050, 0.950 (worst 1.050, 0.950)', out.getvalue())

    def test_goals_of_a_stored_run(self) -> None:
        """kfront pgo --goals: a candidate's table from a stored results.json,
        the training set from its pgo record; a missing variant is a usage
        error naming the variants there."""
        rs = [self.res('sched.pipe', v, tsc=t) for v, t in
              (('O2', 50.0), ('Os', 60.0), ('pgo-x', 45.0))]
        tmp = Path(tempfile.mkdtemp(prefix='kfront-goals-'))
        self.addCleanup(shutil.rmtree, tmp)
        f = tmp / 'results.json'
        f.write_text(json.dumps({'context': 'user', 'results': rs,
                                 'pgo': {'train': 'sched.*'}}))
        out = subprocess.run([str(ROOT / 'kfront'), 'pgo', '--goals', str(f),
                              '--variant', 'pgo-x'], capture_output=True, text=True)
        self.assertEqual(out.returncode, 0, out.stderr)
        self.assertIn('trained on sched.*', out.stdout)
        self.assertRegex(out.stdout, r'sched\.pipe +- +trained .* 0\.900')
        out = subprocess.run([str(ROOT / 'kfront'), 'pgo', '--goals', str(f)],
                             capture_output=True, text=True)
        self.assertEqual(out.returncode, 2)
        self.assertIn('no results of pgo (variants: O2, Os, pgo-x)', out.stderr)
        (tmp / 'notes.md').write_text('# not results\n')
        out = subprocess.run([str(ROOT / 'kfront'), 'pgo', '--goals', str(tmp / 'notes.md')],
                             capture_output=True, text=True)
        self.assertEqual(out.returncode, 2)
        self.assertIn('not a results.json', out.stderr)
        out = subprocess.run([str(ROOT / 'kfront'), 'pgo', '--goals', str(f),
                              '--variant', 'O2'], capture_output=True, text=True)
        self.assertEqual(out.returncode, 2)
        self.assertIn('the goals compare a candidate with O2 and Os', out.stderr)


class BadTrainingSet(unittest.TestCase):
    def test_a_set_that_selects_nothing_stops_before_any_build(self) -> None:
        out = subprocess.run([str(ROOT / 'kfront'), 'pgo', '--train', 'nosuch.*', '--quick',
                              '--out', '/nonexistent/never-made'],
                             capture_output=True, text=True, timeout=60)
        self.assertEqual(out.returncode, 2, out.stderr)
        self.assertIn("--train: 'nosuch.*' matches no benchmark", out.stderr)
        self.assertNotIn('building', out.stdout)

    def test_an_out_folder_holding_a_run_stops_before_training(self) -> None:
        with tempfile.TemporaryDirectory() as tmp:
            (Path(tmp) / 'qemu').mkdir()
            (Path(tmp) / 'qemu' / 'results.json').write_text('{}')
            out = subprocess.run([str(ROOT / 'kfront'), 'pgo', '--quick', '--out', tmp],
                                 capture_output=True, text=True, timeout=60)
        self.assertEqual(out.returncode, 2, out.stderr)
        self.assertIn('qemu already holds a run (results.json)', out.stderr)
        self.assertNotIn('building', out.stdout)


if __name__ == '__main__':
    unittest.main()
