# SPDX-License-Identifier: GPL-2.0-or-later
"""The QEMU job of `kfront lava-job --quick` run by LAVA's own dispatcher
(`lava-run`, Debian package lava-dispatcher) on this machine, with the
device dictionary `kfront lava-job --device-dict` writes: LAVA boots the
ISO, and its monitor records one passing test case per variant and
benchmark. Skipped when lava-dispatcher is not installed (it is optional:
about a hundred packages, see docs/labs.md)."""
from __future__ import annotations

import re
import shutil
import subprocess
import tempfile
import unittest
from pathlib import Path

from tests.py.test_lava import lava_job_args  # first: puts tools/ on sys.path
from kfront import build, collect, lava
from kfront.cmd_lava import make_spec

LAVA_RUN_TIMEOUT = 300.0


class LavaRun(unittest.TestCase):
    def test_quick_job_under_lava_run(self) -> None:
        lava_run = shutil.which('lava-run') or '/usr/bin/lava-run'
        if not Path(lava_run).exists():
            self.skipTest('lava-run not installed (apt-get install lava-dispatcher)')
        if not build.build():
            self.fail('build failed')
        spec = make_spec(lava_job_args(['--quick']))
        job = lava.job(spec)
        with tempfile.TemporaryDirectory(prefix='kfront-lava-') as tmp:
            d = Path(tmp)
            (d / 'job.yaml').write_text(lava.to_yaml(job))
            (d / 'device.yaml').write_text(lava.to_yaml(lava.qemu_device(job)))
            res = subprocess.run(
                [lava_run, '--job-id', '1', '--output-dir', str(d / 'out'),
                 '--device', str(d / 'device.yaml'), str(d / 'job.yaml')],
                stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                timeout=LAVA_RUN_TIMEOUT)
            # lava-run logs to its stderr, one entry a line, without the
            # "- " that lava-server puts in front when it stores the log.
            log = d / 'output.yaml'
            log.write_text(''.join(f'- {line}\n' for line in res.stdout.splitlines()))
            self.assertEqual(res.returncode, 0, res.stdout[-3000:])
            self.assertIn('Job finished correctly', res.stdout)
            cases = re.findall(r'"lvl": "results", "msg": \{"case": "([^"]+)", '
                               r'"definition": "kfront".*"result": "([a-z]+)"',
                               res.stdout)
            self.assertTrue(all(r == 'pass' for _, r in cases))
            self.assertIn(('calib_memcpy20_variant_o2', 'pass'), cases)
            # And kfront collects the same run from LAVA's log: one LAVA
            # test case per result record the kernel sent.
            got = collect.collect_file(log)
            self.assertEqual(len(cases), len(got.runs[0].of_type('result')),
                             res.stdout[-3000:])
            self.assertTrue(got.clean, got.problems)
            self.assertEqual(len(got.runs), 1)
            self.assertEqual(got.runs[0].begin.payload['cmdline'], 'quick exit=halt')
