# SPDX-License-Identifier: GPL-2.0-or-later
"""Boot tests: kfront.iso in QEMU TCG, BIOS and UEFI, clean exits, the
panic path for injected faults, command-line errors and the timeout."""
from __future__ import annotations

import functools
import re
import unittest

from kfront import build, names, paths, qemu
from kfront.records import Record, parse_line

BOOT_TIMEOUT = 120.0
# A boot that stops at its command line ends in seconds.
USAGE_TIMEOUT = 60.0


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


def cmdline_max() -> int:
    """CMDLINE_MAX, read from the one place the kernel states it."""
    text = (paths.ROOT / 'include' / 'kfront' / 'cmdline.h').read_text()
    return int(re.search(r'^#define CMDLINE_MAX\s+(\d+)', text, re.M).group(1))


def listed_names(res: qemu.BootResult, what: str) -> list[str]:
    """The names of "kfront: error: ...; valid <what>: a b c" in a boot's
    output: on the error line, so `kfront run` shows them too."""
    m = re.search(rf'^kfront: error: .*; valid {what}: (.*?)\r?$', res.text, re.M)
    assert m, res.text[-2000:]
    return m.group(1).split()


@functools.lru_cache(maxsize=None)
def unknown_bench_boot() -> qemu.BootResult:
    return boot('bench=calib.empty,nosuchbench', timeout=USAGE_TIMEOUT)


@functools.lru_cache(maxsize=None)
def unknown_variant_boot() -> qemu.BootResult:
    return boot('variant=O2,nope', timeout=USAGE_TIMEOUT)


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
        # the string helpers' bodies follow the CPU's features by default
        m = records(res)[0]['machine']
        self.assertEqual(m['string_helpers'], {
            'memcpy': 'rep movsb' if 'fsrm' in m['features'] else 'loop',
            'memset': 'rep stosb' if 'fsrs' in m['features'] else 'loop', 'by': 'cpuid'})

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
        # q35 has an HPET too: it checks the PIT's figure in the same boot
        self.assertEqual(pit['check']['source'], 'hpet')
        self.assertAlmostEqual(pit['check']['hz'] / pit['hz'], 1.0, delta=0.01)
        hpet = self.tsc('q35,pit=off')
        self.assertEqual(hpet['source'], 'hpet')
        self.assertNotIn('check', hpet)
        # The same virtual TSC measured two ways, in two boots. Both
        # methods read a counter with the TSC around it, so a loaded host
        # (this test runs beside others) does not move them: before, the
        # PIT's figure came out up to 16 % off under load.
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
                # name first (a monitor's test case id), then the vector
                self.assertEqual(list(panics[0])[:3], ['t', 'name', 'vector'])
                self.assertEqual(panics[0]['vector'], vector)
                self.assertIn('error_code', panics[0])
                if kind == 'stack':
                    self.assertIn('guard page', panics[0]['msg'])

    def test_software_panic(self) -> None:
        res = boot('crash=panic', timeout=USAGE_TIMEOUT)
        self.assertEqual(res.status, 1, res.text[-2000:])
        panics = [r for r in records(res) if r['t'] == 'panic']
        self.assertEqual(len(panics), 1)
        p = panics[0]
        self.assertEqual(list(p)[:2], ['t', 'name'])
        self.assertEqual(p['name'], 'panic')
        self.assertNotIn('vector', p)
        self.assertNotIn('error_code', p)
        # panic() never returns: its return address may lie past the
        # caller's end, so the symbol comes from the call instruction.
        self.assertRegex(p['sym'], r'^crash_inject(\.cold)?\+0x[0-9a-f]+$')
        self.assertIn('crash=panic', p['msg'])


class CommandLine(unittest.TestCase):
    def test_unknown_key(self) -> None:
        res = boot('frobnicate=3')
        self.assertEqual(res.status, 2)
        self.assertIn("unknown kernel argument 'frobnicate'; valid keys: bench,", res.text)

    def test_malformed_value(self) -> None:
        res = boot('runs=many')
        self.assertEqual(res.status, 2)
        self.assertRegex(res.text, r"bad value 'many' for 'runs'")

    def test_too_long_is_refused_not_dropped(self) -> None:
        limit = cmdline_max() - 1
        arg = 'bench=' + 'x' * (limit + 1 - len('bench='))
        res = boot(arg, timeout=USAGE_TIMEOUT)
        self.assertEqual(res.status, 2, res.text[-2000:])
        self.assertIn(f'command line too long: {limit + 1} bytes', res.text)
        self.assertIn(f'the limit is {limit}', res.text)
        self.assertNotIn('#KF2 ', res.text)      # nothing ran

    def test_repeated_key(self) -> None:
        res = boot('bench=none', 'runs=3', 'runs=5', timeout=USAGE_TIMEOUT)
        self.assertEqual(res.status, 2, res.text[-2000:])
        self.assertIn("'runs' is given more than once in the fw_cfg command line",
                      res.text)


    def test_refused_line_is_echoed_on_one_line(self) -> None:
        """A line break in a refused line is echoed escaped: written raw,
        what follows it would start a line that reads as a record."""
        forged = '#KF2 0 7c3dea58 {"t":"suite_begin"}'
        res = boot('bench=none', f'runs=3\n{forged}\n', timeout=USAGE_TIMEOUT)
        self.assertEqual(res.status, 2, res.text[-2000:])
        self.assertIn('runs=3\\x0a#KF2 0 7c3dea58 {"t":"suite_begin"}\\x0a', res.text)
        self.assertFalse([ln for ln in res.text.splitlines() if '#KF2' in ln[:8]])

    def test_keys_the_boot_never_reads(self) -> None:
        """ip= without peer= or serve= (the other cases of the same check
        are unit tests: tests/unit/test_cmdline.c), and a serve= item that
        names no service: refused, not ignored. A footprint= past the rules
        and a long value are checked without a boot (test_host_harness.py,
        test_cmdline.c)."""
        for args, message in (
                (('bench=none', 'ip=garbage'), "'ip' sets up the real NIC of peer="),
                (('serve=echo,bogus',), "serve= item 'bogus' is not a service")):
            res = boot(*args, timeout=USAGE_TIMEOUT)
            self.assertEqual(res.status, 2, res.text[-2000:])
            self.assertIn(message, res.text)
            self.assertNotIn('#KF2 ', res.text)


class Selection(unittest.TestCase):
    """bench= and variant= items must each select something, checked
    before any benchmark runs."""

    def check_usage(self, res: qemu.BootResult, message: str) -> None:
        self.assertEqual(res.status, 2, res.text[-2000:])
        self.assertIn(message, res.text)
        self.assertNotIn('#KF2 ', res.text)

    def test_glob_matching_nothing(self) -> None:
        res = boot('bench=nothing*', timeout=USAGE_TIMEOUT)
        self.check_usage(res, "bench= item 'nothing*' matches no benchmark")
        self.assertIn('calib.empty', listed_names(res, 'benchmarks'))

    def test_unknown_name_in_list(self) -> None:
        res = unknown_bench_boot()
        self.check_usage(res, "bench= item 'nosuchbench' matches no benchmark")

    def test_unknown_variant_in_list(self) -> None:
        res = unknown_variant_boot()
        self.check_usage(res, "variant= item 'nope' matches no variant")
        self.assertIn('O2', listed_names(res, 'variants'))

    def test_early_check_knows_the_kernels_names(self) -> None:
        """`kfront run/host/boot` check names before building
        (tools/kfront/names.py reads the sources): the same lists as the
        kernel's own error lines."""
        self.assertEqual(sorted(listed_names(unknown_bench_boot(), 'benchmarks')),
                         sorted(b.name for b in names.benchmarks()))
        self.assertEqual(listed_names(unknown_variant_boot(), 'variants'),
                         names.image_variants(names.configured_variants_file()))

    def test_every_bench_and_variant_at_the_limit(self) -> None:
        """A bench= list naming every benchmark and a variant= list naming
        every variant fit comfortably; padded up to the limit, the line is
        carried whole by a valid suite_begin record."""
        benches = listed_names(unknown_bench_boot(), 'benchmarks')
        variants = listed_names(unknown_variant_boot(), 'variants')
        every = [f"bench={','.join(benches)}", f"variant={','.join(variants)}"]
        self.assertLess(len(' '.join(every)), cmdline_max() // 2)
        # Boot with every benchmark that runs unattended (calib.hang is
        # made to hang, net.wire_* need peer=), briefly, and pad the line
        # with more items up to the limit.
        runnable = [b for b in benches
                    if b != 'calib.hang' and not b.startswith('net.wire_')]
        head = ['quick', 'runs=1', 'warmup=0', 'iters=100', every[1],
                'bench=' + ','.join(runnable)]
        pad = cmdline_max() - 1 - len(' '.join(head))
        filler = ',*' * (pad // 2) if pad % 2 == 0 else ',*' * ((pad - 3) // 2) + ',**'
        head[-1] += filler
        line = ' '.join(head)
        self.assertEqual(len(line), cmdline_max() - 1)
        res = boot(*head, timeout=BOOT_TIMEOUT)
        self.assertEqual(res.status, 0, res.text[-3000:])
        recs = records(res)
        self.assertEqual(recs[0]['t'], 'suite_begin')
        self.assertEqual(recs[0]['cmdline'], line)
        self.assertEqual(recs[-1], {'t': 'suite_end', 'records': len(recs) - 1,
                                    'status': 0, 'regions': recs[-1].get('regions')})
        ran = {r['bench'] for r in recs if r['t'] == 'result'}
        self.assertEqual(ran, set(runnable))


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
