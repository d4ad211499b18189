# SPDX-License-Identifier: GPL-2.0-or-later
"""The quick calibration suite on several QEMU machines: CPU models from
2008 to today (Intel and AMD), little and much memory, one and two vCPUs.

Not the full product of the three (20 boots) but a pairwise covering set
of 10: every model boots with both memory sizes and both vCPU counts, and
every memory size meets both vCPU counts. Each boot must exit 0 with a
complete run, its machine record must name the CPU QEMU presents, and
every benchmark must compute the same digest in every variant on every
machine: the measured code does not depend on the CPU it runs on.not depend on the CPU it runs on.
"""
from __future__ import annotations

import sys
import tempfile
import time
import unittest
from dataclasses import dataclass
from pathlib import Path

from kfront import build, collect, paths, qemu
from kfront.records import Run

BOOT_TIMEOUT = 60.0
KERNEL_ARGS = ['quick', 'bench=calib.*', 'exit=qemu']


@dataclass(frozen=True)
class Machine:
    cpu: str
    memory_mb: int
    smp: int
    vendor: str         # CPUID vendor string QEMU presents for the model
    brand_part: str     # a part of its CPUID brand string


@dataclass(frozen=True)
class Model:
    cpu: str
    vendor: str         # CPUID vendor string QEMU presents for the model
    brand_part: str     # a part of its CPUID brand string


# Brand strings are QEMU 7.2's model_id of each model's first version.
MODELS = (
    Model('qemu64', 'AuthenticAMD', 'QEMU Virtual CPU'),
    Model('Nehalem', 'GenuineIntel', 'Nehalem'),
    Model('Skylake-Client', 'GenuineIntel', 'Skylake'),
    Model('EPYC', 'AuthenticAMD', 'AMD EPYC'),
    Model('max', 'AuthenticAMD', 'QEMU TCG CPU'),
)
SIZES_MB = (64, 2048)
# Two (memory, vCPUs) settings per model; alternating which two between
# models pairs each size with each count as well.
SETTINGS = (((64, 1), (2048, 2)), ((64, 2), (2048, 1)))
MATRIX = tuple(Machine(m.cpu, size, smp, m.vendor, m.brand_part)
               for i, m in enumerate(MODELS)
               for size, smp in SETTINGS[i % 2])


def setUpModule() -> None:
    if not build.build():
        raise RuntimeError('build failed')


def boot_and_collect(machine: Machine, log: Path) -> tuple[qemu.BootResult, Run]:
    cfg = qemu.BootConfig(iso=paths.iso_path(), timeout=BOOT_TIMEOUT,
                          kernel_args=list(KERNEL_ARGS), cpu=machine.cpu,
                          memory_mb=machine.memory_mb, smp=machine.smp)
    res = qemu.boot(cfg, log=log)
    got = collect.collect_file(log)
    if len(got.runs) != 1:
        raise AssertionError(f'{machine}: {len(got.runs)} runs in the log:\n'
                             + res.text[-2000:])
    return res, got.runs[0]


class BootMatrix(unittest.TestCase):
    def test_matrix_covers_every_value(self) -> None:
        models = {m.cpu for m in MATRIX}
        self.assertGreaterEqual(len(models), 4)
        for size in SIZES_MB:
            for n in (1, 2):
                self.assertTrue(any((m.memory_mb, m.smp) == (size, n) for m in MATRIX))
        for model in models:
            runs = [m for m in MATRIX if m.cpu == model]
            self.assertEqual({m.memory_mb for m in runs}, set(SIZES_MB))
            self.assertEqual({m.smp for m in runs}, {1, 2})
        known = qemu.cpu_models()
        for m in MATRIX:
            self.assertIsNone(qemu.cpu_problem(m.cpu, known))

    def test_quick_calibration_on_every_machine(self) -> None:
        digests: dict[str, set[str]] = {}
        start = time.monotonic()
        with tempfile.TemporaryDirectory(prefix='kfront-matrix-') as tmp:
            for machine in MATRIX:
                with self.subTest(cpu=machine.cpu, memory_mb=machine.memory_mb,
                                  smp=machine.smp):
                    res, run = boot_and_collect(machine, Path(tmp) / f'{machine.cpu}-{machine.memory_mb}-{machine.smp}.log')
                    self.check_boot(machine, res, run)
                    for rec in run.of_type('result'):
                        digests.setdefault(rec.payload['bench'], set()).add(
                            rec.payload['digest'])
        elapsed = time.monotonic() - start
        print(f'\n  boot matrix: {len(MATRIX)} boots in {elapsed:.1f} s',
              file=sys.stderr)
        self.assertTrue(digests)
        for bench, seen in digests.items():
            self.assertEqual(len(seen), 1, f'{bench}: digests differ: {seen}')

    def check_boot(self, machine: Machine, res: qemu.BootResult, run: Run) -> None:
        self.assertFalse(res.timed_out, res.text[-2000:])
        self.assertEqual(res.status, 0, res.text[-2000:])
        self.assertTrue(run.complete, res.text[-2000:])
        self.assertTrue(run.of_type('result'))
        cpu = run.begin.payload['machine']
        self.assertEqual(cpu['vendor'], machine.vendor)
        self.assertIn(machine.brand_part, cpu['brand'])
        self.assertIn(f'-m {machine.memory_mb}', ' '.join(res.command))
        self.assertIn(f'-smp {machine.smp}', ' '.join(res.command))


if __name__ == '__main__':
    unittest.main()
