# SPDX-License-Identifier: GPL-2.0-or-later
"""The parallel test runner: modules dealt longest first, unittest's closing
lines counted, a worker that died counted as a failure."""
import tempfile
import unittest
from pathlib import Path
from unittest import mock

from kfront import testpar

# A test module that notes when it ran: (start, end) in a file of its name.
TIMED = """import time, unittest
from pathlib import Path
class T(unittest.TestCase):
    def test_it(self):
        start = time.monotonic()
        time.sleep(0.5)
        Path(__file__).with_suffix('.ran').write_text(f'{start} {time.monotonic()}')
"""


class TestDeal(unittest.TestCase):
    def test_longest_first_balances(self) -> None:
        boot = testpar.MODULE_SECONDS['boot']
        groups = testpar.deal(sorted(boot), 2, 'boot')
        self.assertEqual(len(groups), 2)
        loads = [sum(boot[m] for m in g) for g in groups]
        self.assertLess(abs(loads[0] - loads[1]), 60)
        self.assertEqual(sorted(m for g in groups for m in g), sorted(boot))

    def test_unlisted_modules_cost_the_suites_default(self) -> None:
        self.assertEqual(testpar.cost('py', 'test_collect_fuzz'),
                         testpar.MODULE_SECONDS['py']['test_collect_fuzz'])
        self.assertEqual(testpar.cost('py', 'test_new'), 1)
        self.assertEqual(testpar.cost('boot', 'test_new'), 30)
        # the long module alone, the rest beside it
        groups = testpar.deal(['test_a', 'test_b', 'test_collect_fuzz'], 2, 'py')
        self.assertEqual(groups, [['test_collect_fuzz'], ['test_a', 'test_b']])

    def test_fewer_modules_than_workers(self) -> None:
        self.assertEqual(testpar.deal(['test_x'], 4, 'boot'), [['test_x']])


class TestExclusive(unittest.TestCase):
    def test_exclusive_module_runs_alone_after_the_workers(self) -> None:
        with tempfile.TemporaryDirectory() as tmp:
            root = Path(tmp)
            suite = root / 'tests' / 'boot'
            suite.mkdir(parents=True)
            (root / 'tests' / '__init__.py').write_text('')
            (suite / '__init__.py').write_text('')
            for m in ('test_a', 'test_b', 'test_alone'):
                (suite / f'{m}.py').write_text(TIMED)
            with mock.patch.dict(testpar.EXCLUSIVE, {'boot': {'test_alone'}}):
                results = testpar.run_parallel(root, 'boot', 2, False)
            self.assertEqual([r.modules for r in results][-1], ['test_alone'])
            self.assertEqual(sum(r.ran for r in results), 3)
            self.assertEqual(sum(r.failed for r in results), 0)
            ran = {m: [float(x) for x in (suite / f'{m}.ran').read_text().split()]
                   for m in ('test_a', 'test_b', 'test_alone')}
            # the two others ran beside each other, the exclusive one after both
            self.assertLess(ran['test_a'][0], ran['test_b'][1])
            self.assertGreater(ran['test_alone'][0], max(ran['test_a'][1], ran['test_b'][1]))


class TestCounts(unittest.TestCase):
    def test_ok_failed_and_dead(self) -> None:
        self.assertEqual(testpar.parse_counts(
            "....\n----\nRan 4 tests in 1.0s\n\nOK (skipped=1)\n"), (4, 0, 1))
        self.assertEqual(testpar.parse_counts(
            "Ran 9 tests in 2.0s\n\nFAILED (failures=2, errors=1, "
            "skipped=3)\n"), (9, 3, 3))
        self.assertEqual(testpar.parse_counts("Traceback ...\n"), (0, 1, 0))


if __name__ == "__main__":
    unittest.main()
