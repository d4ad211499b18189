# SPDX-License-Identifier: GPL-2.0-or-later
"""Boot tests: kfront.iso in QEMU TCG, BIOS and UEFI, clean exits, the
panic path for injected faults, command-line errors and the timeout."""
from __future__ import annotations

import re
import unittest

from kfront import build, paths, qemu
from kfront.records import Record, parse_line

BOOT_TIMEOUT = 120.0


def setUpModule() -> None:
    if not build.build():
        raise RuntimeError('build failed')


def boot(*args: str, firmware: str = 'bios', timeout: float = BOOT_TIMEOUT) -> qemu.BootResult:
    cfg = qemu.BootConfig(iso=paths.iso_path(), firmware=firmware, timeout=timeout,
                          kernel_args=list(args))
    return qemu.boot(cfg)


def records(res: qemu.BootResult) -> list[dict]:
    out = []
    for line in res.text.splitlines():
        rec = parse_line(line)
        if isinstance(rec, Record):
            out.append(rec.payload)
    return out


class CleanBoot(unittest.TestCase):
    def check_clean(self, res: qemu.BootResult) -> None:
        self.assertFalse(res.timed_out, res.text[-2000:])
        self.assertEqual(res.status, 0, res.text[-2000:])
        types = [r['t'] for r in records(res)]
        self.assertEqual(types[0], 'suite_begin')
        self.assertEqual(types[-1], 'suite_end')

    def test_bios(self) -> None:
        res = boot('bench=none')
        self.check_clean(res)
        self.assertIn('BIOS firmware', res.text)

    def test_uefi(self) -> None:
        res = boot('bench=none', firmware='uefi')
        self.check_clean(res)
        self.assertIn('UEFI firmware', res.text)


class TscCalibration(unittest.TestCase):
    """Without a CPUID figure (AMD, and QEMU's TCG CPU) the TSC rate is
    measured: against the PIT, else the HPET found through ACPI, else it
    is reported unknown (the results stay in TSC ticks)."""

    def tsc(self, machine: str) -> dict:
        cfg = qemu.BootConfig(iso=paths.iso_path(), timeout=BOOT_TIMEOUT,
                              kernel_args=['bench=none'], extra_qemu_args=['-M', machine])
        res = qemu.boot(cfg)
        self.assertEqual(res.status, 0, res.text[-2000:])
        return records(res)[0]['machine']['tsc']

    def test_pit_then_hpet_then_none(self) -> None:
        pit = self.tsc('q35')
        self.assertEqual(pit['source'], 'pit')
        hpet = self.tsc('q35,pit=off')
        self.assertEqual(hpet['source'], 'hpet')
        # The same virtual TSC measured two ways, in two boots.
        self.assertAlmostEqual(hpet['hz'] / pit['hz'], 1.0, delta=0.01)
        none = self.tsc('q35,pit=off,hpet=off')
        self.assertEqual((none['source'], none['hz']), ('none', 0))


class Faults(unittest.TestCase):
    """Each injected fault gives a readable report naming the vector, a
    panic record, and a non-zero exit."""

    CASES = {
        'ud': (6, r'invalid opcode \(#UD\)'),
        'pf': (14, r'page fault \(#PF\)'),
        'gp': (13, r'general protection \(#GP\)'),
        'de': (0, r'divide error \(#DE\)'),
        'stack': (8, r'double fault \(#DF\)'),
        'wtext': (14, r'page fault \(#PF\), error code 0x3'),   # write, present
        'xdata': (14, r'page fault \(#PF\), error code 0x11'),  # fetch, present
    }

    def test_faults(self) -> None:
        for kind, (vector, pattern) in self.CASES.items():
            with self.subTest(crash=kind):
                res = boot(f'crash={kind}')
                self.assertEqual(res.status, 1, res.text[-2000:])
                self.assertIn('KFRONT PANIC', res.text)
                self.assertRegex(res.text, rf'exception: vector {vector}, {pattern}')
                # The faulting function is named, except for xdata, whose
                # RIP is in data where no symbol is.
                sym = r'<recurse_forever\+0x[0-9a-f]+>' if kind == 'stack' else \
                    r'<arch_crash\+0x[0-9a-f]+>' if kind != 'xdata' else r'<\?>'
                self.assertRegex(res.text, r'RIP: ffffffff[0-9a-f]{8} ' + sym)
                panics = [r for r in records(res) if r['t'] == 'panic']
                self.assertEqual(len(panics), 1)
                self.assertEqual(panics[0]['vector'], vector)
                if kind == 'stack':
                    self.assertIn('guard page', panics[0]['msg'])


class CommandLine(unittest.TestCase):
    def test_unknown_key(self) -> None:
        res = boot('frobnicate=3')
        self.assertEqual(res.status, 2)
        self.assertIn("unknown kernel argument 'frobnicate'; valid keys: bench,", res.text)

    def test_malformed_value(self) -> None:
        res = boot('runs=many')
        self.assertEqual(res.status, 2)
        self.assertRegex(res.text, r"bad value 'many' for 'runs'")


class Watchdog(unittest.TestCase):
    def test_hung_benchmark_is_ended_and_suite_goes_on(self) -> None:
        res = boot('bench=calib.hang,calib.empty', 'budget_ms=1000', 'quick')
        self.assertEqual(res.status, 3, res.text[-3000:])   # a benchmark failed
        recs = records(res)
        begin = recs[0]
        self.assertEqual(begin['watchdog'], 'apic-timer')
        timeouts = [r for r in recs if r['t'] == 'timeout']
        self.assertEqual(sorted(r['variant'] for r in timeouts),
                         sorted(v['name'] for v in begin['variants']))
        self.assertTrue(all(r['bench'] == 'calib.hang' for r in timeouts))
        done = [r for r in recs if r['t'] == 'result' and r['bench'] == 'calib.empty']
        self.assertEqual(len(done), len(begin['variants']))
        self.assertEqual(recs[-1]['t'], 'suite_end')


class Timeout(unittest.TestCase):
    def test_hang_is_killed(self) -> None:
        res = boot('crash=hang', timeout=20)
        self.assertTrue(res.timed_out)
        self.assertEqual(res.exit_code(), qemu.TIMEOUT_STATUS)
        self.assertIn("injecting fault 'hang'", res.text)


if __name__ == '__main__':
    unittest.main()
