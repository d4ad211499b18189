# SPDX-License-Identifier: GPL-2.0-or-later
"""kargs: one builder for the suite's command line, used by every command."""

import argparse
import unittest

from kfront import cmd_host, cmd_run, kargs, lava


class TestBuild(unittest.TestCase):
    def test_selection_order_and_empty_fields(self) -> None:
        sel = kargs.Selection(quick=True, variants='O2,Os', bench='net.*',
                              footprint='0,64', state='cold', extra=('runs=3',))
        self.assertEqual(kargs.selection_args(sel),
                         ['quick', 'variant=O2,Os', 'bench=net.*', 'footprint=0,64',
                          'state=cold', 'runs=3'])
        self.assertEqual(kargs.selection_args(kargs.Selection()), [])

    def test_leading_and_trailing(self) -> None:
        sel = kargs.Selection(bench='calib.*', extra=('exit=halt',))
        # The kernel refuses a key given twice: a leading default gives way
        # to the user's argument, a trailing one replaces it.
        self.assertEqual(kargs.build(sel, leading=('exit=qemu',)),
                         ['bench=calib.*', 'exit=halt'])
        self.assertEqual(kargs.build(sel, leading=('exit=qemu', 'runs=3')),
                         ['runs=3', 'bench=calib.*', 'exit=halt'])
        self.assertEqual(kargs.build(sel, trailing=('exit=qemu',)),
                         ['bench=calib.*', 'exit=qemu'])
        self.assertEqual(kargs.build(kargs.Selection(), trailing=('exit=halt',)),
                         ['exit=halt'])
        # --quick and an extra 'quick': one layer each, given once.
        both = kargs.Selection(quick=True, extra=('quick',))
        self.assertEqual(kargs.build(both), ['quick', 'quick'])

    def test_check_lists_names_option_and_value(self) -> None:
        self.assertIsNone(kargs.check_lists('O2,Os', 'net.*,sched.?'))
        self.assertIsNone(kargs.check_lists(None, None))
        problem = kargs.check_lists(None, 'net.* sched')
        self.assertIn('--bench', problem or '')
        self.assertIn("'net.* sched'", problem or '')
        self.assertIn('--variants', kargs.check_lists('O2,', None) or '')


class TestCommandsUseIt(unittest.TestCase):
    """The three commands give the same selection the same way."""

    def namespace(self, **kw: object) -> argparse.Namespace:
        base = dict(quick=True, variants='Os', bench='sched.*', footprint=None,
                    state='warm', extra=['runs=5'])
        base.update(kw)
        return argparse.Namespace(**base)

    def test_run(self) -> None:
        self.assertEqual(cmd_run.kernel_args(self.namespace()),
                         ['exit=qemu', 'quick', 'variant=Os', 'bench=sched.*',
                          'state=warm', 'runs=5'])

    def test_host(self) -> None:
        self.assertEqual(cmd_host.suite_args(self.namespace()),
                         ['quick', 'variant=Os', 'bench=sched.*', 'runs=5'])

    def test_lava(self) -> None:
        spec = lava.JobSpec(quick=True, variants='Os', bench='sched.*',
                            extra_args=['runs=5'])
        self.assertEqual(spec.kernel_args(),
                         ['quick', 'variant=Os', 'bench=sched.*', 'runs=5', 'exit=halt'])


if __name__ == '__main__':
    unittest.main()
