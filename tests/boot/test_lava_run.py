# SPDX-License-Identifier: GPL-2.0-or-later
"""Jobs of `kfront lava-job` run by LAVA's own dispatcher (`lava-run`,
Debian package lava-dispatcher, installed by `./kfront setup --lab`) on
this machine, with the device dictionary `kfront lava-job --device-dict`
writes:

- the quick suite: one passing LAVA test case per variant and benchmark,
  and `kfront collect` reads the same complete run from LAVA's log;
- a kernel that panics (a CPU exception, crash=ud): LAVA records a failed
  test case and the panic record reaches `kfront collect`;
- a kernel that stops talking (a hung benchmark with a one-hour watchdog)
  cut short by a short LAVA test timeout: the job reports the timeout, and
  `kfront collect` keeps the records sent before the cut and reports the
  run as incomplete.

Skipped, naming the command that installs it, when lava-run is absent."""
from __future__ import annotations

import re
import shutil
import subprocess
import tempfile
import unittest
from dataclasses import dataclass
from pathlib import Path

from tests.py.test_lava import lava_job_args  # first: puts tools/ on sys.path
from kfront import build, collect, lava
from kfront.cmd_lava import make_spec

LAVA_RUN_TIMEOUT = 300.0
# The hung job's test action: long enough for QEMU to boot and the kernel
# to send its first records under load, short enough for a quick test.
HANG_TEST_TIMEOUT_S = 25
SKIP_NO_LAVA_RUN = ('lava-run not installed: ./kfront setup --lab installs '
                    'Debian\'s lava-dispatcher')


@dataclass
class LavaJob:
    returncode: int
    output: str                 # lava-run's log, one JSON entry a line
    collected: collect.CollectResult

    def results(self) -> list[dict[str, str]]:
        """The `results` entries (LAVA's own and the monitor's test cases):
        case, definition, result and any error_msg. The entries are YAML
        flow mappings (a null measurement is written `! "null"`), not JSON,
        so the fields are picked out one by one."""
        out = []
        for line in self.output.splitlines():
            if '"lvl": "results"' not in line:
                continue
            fields = {}
            for key in ('case', 'definition', 'result', 'error_msg'):
                found = re.findall(rf'"{key}": "((?:[^"\\]|\\.)*)"', line)
                if found:
                    fields[key] = found[-1]
            out.append(fields)
        return out

    def kfront_cases(self) -> list[tuple[str, str]]:
        return [(r['case'], r['result']) for r in self.results()
                if r.get('definition') == lava.MONITOR_NAME]

    def job_result(self) -> dict:
        return next(r for r in self.results()
                    if r.get('definition') == 'lava' and r.get('case') == 'job')


def lava_run_path() -> str | None:
    found = shutil.which('lava-run') or '/usr/bin/lava-run'
    return found if Path(found).exists() else None


def run_job(spec: lava.JobSpec) -> LavaJob:
    """Run one job under lava-run and collect its log as lava-server
    stores it."""
    job = lava.job(spec)
    with tempfile.TemporaryDirectory(prefix='kfront-lava-') as tmp:
        d = Path(tmp)
        (d / 'job.yaml').write_text(lava.to_yaml(job))
        (d / 'device.yaml').write_text(lava.to_yaml(lava.qemu_device(job)))
        res = subprocess.run(
            [lava_run_path() or 'lava-run', '--job-id', '1', '--output-dir', str(d / 'out'),
             '--device', str(d / 'device.yaml'), str(d / 'job.yaml')],
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
            timeout=LAVA_RUN_TIMEOUT)
        # lava-run logs to its stderr, one entry a line, without the
        # "- " that lava-server puts in front when it stores the log.
        log = d / 'output.yaml'
        log.write_text(''.join(f'- {line}\n' for line in res.stdout.splitlines()))
        return LavaJob(res.returncode, res.stdout, collect.collect_file(log))


def setUpModule() -> None:
    if lava_run_path() is not None and not build.build():
        raise RuntimeError('build failed')


@unittest.skipIf(lava_run_path() is None, SKIP_NO_LAVA_RUN)
class LavaRun(unittest.TestCase):
    def test_quick_job_under_lava_run(self) -> None:
        got = run_job(make_spec(lava_job_args(['--quick'])))
        self.assertEqual(got.returncode, 0, got.output[-3000:])
        self.assertIn('Job finished correctly', got.output)
        cases = got.kfront_cases()
        self.assertTrue(all(r == 'pass' for _, r in cases))
        self.assertIn(('calib_memcpy20_variant_o2', 'pass'), cases)
        # And kfront collects the same run from LAVA's log: one LAVA
        # test case per result record the kernel sent.
        col = got.collected
        self.assertEqual(len(cases), len(col.runs[0].of_type('result')),
                         got.output[-3000:])
        self.assertTrue(col.clean, col.problems)
        self.assertEqual(len(col.runs), 1)
        self.assertEqual(col.runs[0].begin.payload['cmdline'], 'quick exit=halt')

    def test_panic_job_fails_a_case_and_collect_finds_the_panic(self) -> None:
        got = run_job(make_spec(lava_job_args(['--quick', '--', 'crash=ud'])))
        # The monitor saw the kernel's end line: the job itself completes,
        # and the panic is a failed test case of the kfront suite.
        self.assertEqual(got.returncode, 0, got.output[-3000:])
        cases = got.kfront_cases()
        self.assertIn('fail', [r for _, r in cases], got.output[-3000:])
        col = got.collected
        self.assertEqual(len(col.runs), 1, col.problems)
        self.assertEqual(len(col.runs[0].of_type('panic')), 1, col.problems)
        self.assertIn('panic', [p.kind for p in col.problems])
        self.assertFalse(col.complete)

    def test_silent_kernel_cut_by_the_lava_timeout(self) -> None:
        # calib.hang never returns; a one-hour budget keeps the kernel's
        # own watchdog out of the way, so only LAVA's timeout ends the job.
        spec = make_spec(lava_job_args(['--quick', '--bench', 'calib.memcpy20,calib.hang',
                                        '--', 'budget_ms=3600000']))
        spec.test_timeout_s = HANG_TEST_TIMEOUT_S
        got = run_job(spec)
        self.assertNotEqual(got.returncode, 0, got.output[-3000:])
        job = got.job_result()
        self.assertEqual(job['result'], 'fail')
        self.assertIn(f'timed out after {HANG_TEST_TIMEOUT_S} seconds',
                      job.get('error_msg', ''))
        # The records before the cut survive; the run is incomplete.
        col = got.collected
        self.assertEqual(len(col.runs), 1, col.problems)
        run = col.runs[0]
        self.assertIsNotNone(run.begin)
        self.assertIsNone(run.end)
        self.assertTrue(run.of_type('result'), got.output[-3000:])
        self.assertEqual({r.payload['bench'] for r in run.of_type('result')},
                         {'calib.memcpy20'})
        self.assertFalse(col.complete)
        self.assertIn('incomplete', [p.kind for p in col.problems])


if __name__ == '__main__':
    unittest.main()
