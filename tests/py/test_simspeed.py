# SPDX-License-Identifier: GPL-2.0-or-later
"""kfront sim-speed: which budget a setting list has, that a plain and a
simulated run boot the same kernel arguments, and how rounds become
ratios (runs that failed or did other work count in none); and the QEMU
CPU time every boot now reports."""

import contextlib
import io
import json
import signal
import sys
import tempfile
import unittest
from pathlib import Path
from unittest import mock

from kfront import cli, cmd_run, cmd_simspeed as ss, lifecycle, qemu


def run(sim: str, wall: float, cpu: float | None, **kw) -> dict:
    entry = {'sim': sim, 'elapsed_s': wall, 'cpu_s': cpu, 'complete': True, 'status': 0,
             'config': {'runs': 3}, 'points': ['net.tcp_rr/O2/0/warm']}
    entry.update(kw)
    return entry


class Budget(unittest.TestCase):
    def test_one_setting_has_the_3x_budget(self):
        self.assertEqual(ss.budget_for(['zen4']), 3.0)
        self.assertEqual(ss.budget_for(['skylake@random']), 3.0)

    def test_three_models_under_three_policies_have_the_10x_budget(self):
        self.assertEqual(ss.budget_for(ss.NINE.split(',')), 10.0)
        # lru named or left out is the same setting
        nine = [m.replace('zen4,', 'zen4@lru,') for m in ss.NINE.split(',')]
        self.assertEqual(ss.budget_for(nine), 10.0)

    def test_other_lists_have_none(self):
        self.assertIsNone(ss.budget_for(['skylake', 'zen4']))
        # nine settings, but one model twice under a policy and one missing
        nine = ss.NINE.replace('goldencove@random', 'skylake-nojcc').split(',')
        self.assertIsNone(ss.budget_for(nine))


class SameBoot(unittest.TestCase):
    def test_the_plain_run_boots_the_simulated_runs_kernel_arguments(self):
        plain = ss.run_args(None, Path('/o'), None, None)
        self.assertEqual(plain[plain.index('--') + 1:],
                         [f'runs={cmd_run.SIM_RUNS}', f'budget_ms={cmd_run.SIM_BUDGET_MS}'])
        self.assertIn('none', plain)
        simulated = ss.run_args('zen4', Path('/o'), 'net.*', 2)
        for opt in ('--quick', '--no-host'):
            self.assertIn(opt, plain)
            self.assertIn(opt, simulated)
        self.assertEqual(simulated[simulated.index('--bench') + 1], 'net.*')
        self.assertEqual(simulated[simulated.index('--sim-jobs') + 1], '2')

    def test_both_kernels_get_the_same_arguments(self):
        """What cmd_run boots for either command line: the same set of
        kernel arguments (a simulated run puts its defaults first)."""
        parser = cli.make_parser()
        booted = []
        for sim_list in (None, 'zen4', ss.NINE):
            argv = ss.run_args(sim_list, Path('/o'), 'net.*,sched.pipe', None)[2:]
            args = parser.parse_args(argv)
            models, _ = cmd_run.sim_choice(args)
            booted.append(sorted(cmd_run.kernel_args(args, bool(models))))
        self.assertEqual(booted[0], booted[1])
        self.assertEqual(booted[0], booted[2])
        self.assertIn('quick', booted[0])
        self.assertIn('bench=net.*,sched.pipe', booted[0])

    def test_other_settings_or_points_are_other_work(self):
        plain = run('none', 9.0, 9.0)
        self.assertIsNone(ss.same_work(plain, run('zen4', 20.0, 40.0)))
        self.assertIn('other settings',
                      ss.same_work(plain, run('zen4', 20.0, 40.0, config={'runs': 7})))
        self.assertIn('other points',
                      ss.same_work(plain, run('zen4', 20.0, 40.0, points=[])))


class Summary(unittest.TestCase):
    def test_each_round_is_compared_with_its_own_plain_run(self):
        rounds = [[run('none', 10.0, 10.0), run('zen4', 25.0, 45.0)],
                  [run('none', 8.0, 8.0), run('zen4', 28.0, 50.0)],
                  [run('none', 9.0, 9.0), run('zen4', 18.0, 36.0)]]
        plain, zen4 = ss.summarise(rounds, ['zen4'])
        self.assertEqual(plain['elapsed_s'], {'n': 3, 'median': 9.0, 'min': 8.0, 'max': 10.0})
        self.assertEqual(zen4['wall_ratio'], {'n': 3, 'median': 2.5, 'min': 2.0, 'max': 3.5})
        self.assertEqual(zen4['cpu_ratio']['median'], 4.5)
        self.assertEqual(zen4['budget'], 3.0)
        self.assertEqual((zen4['wall_within_budget'], zen4['cpu_within_budget']), (2, 0))

    def test_of_two_rounds_the_median_is_the_lower_one_measured(self):
        # The project's median (docs/statistics.md): a figure that was
        # measured, never the average of the two middle ones.
        rounds = [[run('none', 10.0, 10.0), run('zen4', 30.0, 50.0)],
                  [run('none', 10.0, 10.0), run('zen4', 20.0, 40.0)]]
        plain, zen4 = ss.summarise(rounds, ['zen4'])
        self.assertEqual(zen4['wall_ratio'], {'n': 2, 'median': 2.0, 'min': 2.0, 'max': 3.0})
        self.assertEqual(zen4['elapsed_s']['median'], 20.0)
        self.assertEqual(zen4['cpu_ratio']['median'], 4.0)

    def test_a_failed_run_counts_in_no_ratio(self):
        rounds = [[run('none', 10.0, 10.0), run('zen4', 25.0, 45.0)],
                  [run('none', 8.0, 8.0), run('zen4', 60.0, 60.0, problem='incomplete')],
                  [run('none', 9.0, 9.0, problem='exit status 1'), run('zen4', 18.0, 36.0)]]
        plain, zen4 = ss.summarise(rounds, ['zen4'])
        self.assertEqual(zen4['wall_ratio'], {'n': 1, 'median': 2.5, 'min': 2.5, 'max': 2.5})
        self.assertEqual(plain['elapsed_s']['n'], 2)
        self.assertEqual(zen4['elapsed_s']['n'], 2)
        # what is printed says how many rounds a figure is of
        self.assertEqual(ss.fmt_spread(zen4['wall_ratio'], 'x', 3), '2.50x (of 1 round)')
        self.assertEqual(ss.fmt_spread(zen4['elapsed_s'], ' s', 3),
                         '18.0 s [18.0, 25.0] (of 2 rounds)')

    def test_unknown_cpu_time_is_unavailable_not_zero(self):
        rounds = [[run('none', 10.0, None), run('zen4', 25.0, 45.0)]]
        _, zen4 = ss.summarise(rounds, ['zen4'])
        self.assertEqual(zen4['cpu_ratio'], {'n': 0})
        self.assertEqual(ss.fmt_spread(zen4['cpu_ratio'], 'x', 1), 'unavailable')

    def test_a_run_without_results_is_a_problem(self):
        with tempfile.TemporaryDirectory() as tmp:
            out = Path(tmp) / 'plain'
            with mock.patch.object(ss, 'run_args', lambda *a: [
                    sys.executable, '-c', 'import sys; sys.exit(3)']):
                entry = ss.timed_run(None, out, None, None)
        self.assertEqual(entry['status'], 3)
        self.assertIn('no results.json', entry['problem'])


class BadInput(unittest.TestCase):
    def test_a_bench_that_selects_nothing_is_refused_before_any_run(self):
        with tempfile.TemporaryDirectory() as tmp:
            out = Path(tmp) / 'out'
            args = cli.make_parser().parse_args(
                ['sim-speed', '--bench', 'net.nosuch', '--out', str(out)])
            err = io.StringIO()
            with contextlib.redirect_stderr(err):
                self.assertEqual(ss.main(args), 2)
            self.assertFalse(out.exists())
        self.assertIn("'net.nosuch' matches no benchmark", err.getvalue())


class Stopped(unittest.TestCase):
    def test_a_stop_keeps_what_was_measured(self):
        """^C in round 2's simulated run: round 1 and round 2's plain run
        are in sim-speed.json, and the stop goes on to be reported."""
        calls = []

        def fake(sim_list, out, bench, jobs):
            calls.append(sim_list)
            if len(calls) == 4:
                raise KeyboardInterrupt
            return run(sim_list or 'none', 20.0 if sim_list else 9.0, 30.0 if sim_list else 9.0,
                       load_before=0.5)

        with tempfile.TemporaryDirectory() as tmp:
            args = cli.make_parser().parse_args(
                ['sim-speed', '--rounds', '3', '--sim', 'zen4', '--out', tmp])
            with mock.patch.object(ss, 'timed_run', fake), \
                    contextlib.redirect_stdout(io.StringIO()), \
                    contextlib.redirect_stderr(io.StringIO()):
                with self.assertRaises(KeyboardInterrupt):
                    ss.main(args)
            doc = json.loads((Path(tmp) / 'sim-speed.json').read_text())
        self.assertEqual(len(doc['rounds']), 1)
        self.assertEqual([r['sim'] for r in doc['unfinished_round']], ['none'])
        self.assertEqual(doc['summary'][1]['wall_ratio']['median'], 2.222)
        self.assertIn('stopped', doc)


class QemuCpuTime(unittest.TestCase):
    def test_a_boots_cpu_time_is_its_own(self):
        # a busy child, and one that sleeps: only the first has CPU time
        busy = [sys.executable, '-c',
                'import time\nt = time.process_time()\n'
                'while time.process_time() - t < 0.3: pass\nprint("done")']
        idle = [sys.executable, '-c', 'import time; time.sleep(0.3); print("done")']
        res = qemu._run_many([busy, idle], [30.0, 30.0], [None, None], None)
        self.assertGreaterEqual(res[0].cpu_s, 0.3)
        self.assertLess(res[1].cpu_s, 0.3)
        self.assertEqual([r.qemu_rc for r in res], [0, 0])
        self.assertEqual([r.output.strip() for r in res], [b'done', b'done'])

    def test_a_killed_boot_is_reaped_with_its_cpu_time(self):
        spin = [sys.executable, '-c', 'while True: pass']
        res = qemu._run_many([spin], [0.5], [None], None)[0]
        self.assertTrue(res.timed_out)
        self.assertLess(res.qemu_rc, 0)
        self.assertGreater(res.cpu_s, 0.1)


    def test_a_stop_while_reaping_still_reaps_every_boot(self):
        """A stop signal in the first QEMU's wait: every QEMU is reaped
        and its files closed, then the stop goes on."""
        quick = [sys.executable, '-c', 'print("done")']
        orig, calls = qemu._reap, []

        def interrupted(proc):
            calls.append(proc.pid)
            if len(calls) == 1:
                raise lifecycle.Stopped(signal.SIGTERM)
            return orig(proc)

        with mock.patch.object(qemu, '_reap', interrupted), \
                self.assertRaises(lifecycle.Stopped):
            qemu._run_many([quick, quick], [30.0, 30.0], [None, None], None)
        self.assertEqual(len(calls), 3)           # the first one twice
        self.assertEqual(calls[0], calls[1])


class Json(unittest.TestCase):
    def test_summary_rows_are_json(self):
        rounds = [[run('none', 10.0, 10.0), run(ss.NINE, 150.0, 300.0)]]
        json.dumps(ss.summarise(rounds, [ss.NINE]))


if __name__ == '__main__':
    unittest.main()
