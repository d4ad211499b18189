# SPDX-License-Identifier: GPL-2.0-or-later
"""LAVA: the monitor patterns against real kernel logs (plain re and
pexpect the way LAVA reads a console), the generated jobs against LAVA's own
job schema, the committed jobs in lab/lava/ against the generator, and LAVA
job logs collected into the same results as plain serial captures."""
from __future__ import annotations

import argparse
import json
import re
import unittest
from pathlib import Path

from tests.py import FIXTURES, ROOT
from tests.py.lava_env import (SKIP_PEXPECT, SKIP_VALIDATOR, python_with,
                               run_python)
from kfront import cmd_lava, collect, lava, lava_log, model, results
from kfront.records import make_line

MONITORED = ('result', 'error', 'timeout', 'panic')
LAB = ROOT / 'lab' / 'lava'
EXAMPLE_URL = 'https://lava.example.org/kfront/'
# lab/lava/<file> -> the lava-job arguments that write it.
COMMITTED = {
    'qemu-quick.yaml': ['--quick', '--image-url', EXAMPLE_URL + 'kfront.iso'],
    'qemu-full.yaml': ['--image-url', EXAMPLE_URL + 'kfront.iso'],
    'x86-grub-full.yaml': ['--device-type', 'x86', '--image-url', EXAMPLE_URL + 'kfront.elf'],
}


def case_id(text: str) -> str:
    """What LAVA makes of a test_case_id group (lava_dispatcher monitor)."""
    return re.sub(r'\W+', '_', text.strip().lower())


def expected_cases(path: Path) -> list[tuple[str, str, str | None]]:
    """(result, case, measurement) from the records the collector accepts."""
    got = collect.collect_file(path)
    out = []
    for run in got.runs:
        for rec in run.records:
            p = rec.payload
            if p['t'] not in MONITORED:
                continue
            if p['t'] == 'panic':
                name = re.sub(r'\W+$', '', p['name'])
                out.append(('fail', case_id(name), None))
                continue
            case = f"{p['bench']}_variant_{p['variant']}"
            if p['t'] == 'result':
                if 'footprint' in p or p['group']:
                    case += f"_op_{p['op']}"
                    if 'footprint' in p:
                        case += f"_footprint_{p['footprint']}"
                    case += f"_group_{p['group']}"
                per_op = p['counters']['tsc']['median_per_op']
                out.append(('pass', case_id(case), f'{per_op:.3f}'))
            else:
                if 'footprint' in p:
                    case += f"_footprint_{p['footprint']}"
                out.append(('fail', case_id(case), None))
    return out


def monitor_cases(text: str) -> list[tuple[str, str, str | None]]:
    pat = re.compile(lava.MONITOR_PATTERN, re.DOTALL)  # as pexpect compiles
    out = []
    for m in pat.finditer(text):
        d = m.groupdict()
        out.append((lava.FIXUPDICT[d['result']], case_id(d['test_case_id']),
                    d['measurement']))
        # units is never None: lava-server stores it as text.
        self_units = d['units']
        assert self_units == ('tsc' if d['result'] == 'result' else ''), d
    return out


def normalise_measurement(cases: list) -> list:
    return [(r, c, None if m is None else f'{float(m):.3f}') for r, c, m in cases]


class TestMonitorPatterns(unittest.TestCase):
    def test_real_quick_log(self) -> None:
        # A log of `./kfront run --quick`: 7 benchmarks x 3 variants.
        path = FIXTURES / 'real_quick.log'
        want = expected_cases(path)
        self.assertEqual(len(want), 21)
        got = monitor_cases(path.read_text(encoding='utf-8', errors='replace'))
        self.assertEqual(normalise_measurement(got), want)
        self.assertEqual(len({c for _, c, _ in got}), 21)

    def test_real_timeout_and_panic_logs(self) -> None:
        for name, fails in (('real_timeout.log', 3), ('real_panic.log', 1)):
            with self.subTest(log=name):
                path = FIXTURES / name
                want = expected_cases(path)
                got = monitor_cases(path.read_text(encoding='utf-8', errors='replace'))
                self.assertEqual(normalise_measurement(got), want)
                self.assertEqual(sum(r == 'fail' for r, _, _ in got), fails)
        self.assertIn(('fail', 'page_fault_pf', None),
                      monitor_cases((FIXTURES / 'real_panic.log').read_text()))

    def test_record_shapes_of_the_kernel(self) -> None:
        # Shapes the kernel emits (bench/harness/harness.c, kernel/panic.c) that the
        # QEMU fixtures lack: errors, footprints, PMU groups.
        lines = [
            make_line(4, {'t': 'error', 'bench': 'net.udp_rr', 'variant': 'O2',
                          'footprint': 16, 'msg': 'footprint=16: only 8 filter rules'}),
            make_line(5, {'t': 'error', 'bench': 'calib.memcpy20', 'variant': 'Os',
                          'msg': 'slot 3 "differs" after copy'}),
            make_line(6, {'t': 'panic', 'name': 'panic', 'rip': '0x1',
                          'sym': 'crash_inject+0x2a', 'msg': 'x'}),
            make_line(9, {'t': 'panic', 'name': 'invalid opcode (#UD)', 'vector': 6,
                          'error_code': '0x0', 'rip': '0x1', 'cr2': '0x0',
                          'rsp': '0x0', 'sym': 'arch_crash+0x1c', 'msg': 'x'}),
            make_line(7, {'t': 'result', 'bench': 'net.tcp_rr', 'variant': 'O2',
                          'op': 'transaction', 'footprint': 64, 'group': 0,
                          'iters': 5, 'counters': {'tsc': {'median': 9,
                                                           'median_per_op': 1.8}}}),
            make_line(8, {'t': 'result', 'bench': 'net.tcp_rr', 'variant': 'O2',
                          'op': 'transaction', 'group': 1, 'iters': 5,
                          'counters': {'tsc': {'median': 9, 'median_per_op': 12},
                                       'cycles': {'median': 3}}}),
        ]
        got = monitor_cases('\r\n'.join(lines) + '\r\n')
        self.assertEqual(got, [
            ('fail', 'net_udp_rr_variant_o2_footprint_16', None),
            ('fail', 'calib_memcpy20_variant_os', None),
            ('fail', 'panic', None),
            ('fail', 'invalid_opcode_ud', None),
            ('pass', 'net_tcp_rr_variant_o2_op_transaction_footprint_64_group_0', '1.8'),
            ('pass', 'net_tcp_rr_variant_o2_op_transaction_group_1', '12'),
        ])

    def test_nothing_else_matches(self) -> None:
        text = '\n'.join([
            make_line(0, {'t': 'suite_begin', 'kfront': '0.1.0', 'cmdline': 'bench=x'}),
            make_line(9, {'t': 'suite_end', 'records': 9, 'status': 3}),
            'kfront: timeout: O2/calib.hang: the watchdog ended the run',
            'kfront: error: O2/net.udp_rr: "t":"error"',
            '#KF1 3 00000000 {"t":"result","bench":"a","variant":"O2"',  # cut off
            'Booting `kfront: quick suite\'',
        ]) + '\n'
        self.assertEqual(monitor_cases(text), [])

    def test_start_and_end(self) -> None:
        text = (FIXTURES / 'real_quick.log').read_text(errors='replace')
        starts = re.findall(lava.MONITOR_START, text, re.DOTALL)
        self.assertEqual(len(starts), 1)
        ends = [m.start() for m in re.finditer(lava.MONITOR_END, text, re.DOTALL)]
        self.assertEqual(len(ends), 1)
        self.assertGreater(ends[0], text.index('"t":"suite_end"'))
        panic = (FIXTURES / 'real_panic.log').read_text(errors='replace')
        self.assertGreater(re.search(lava.MONITOR_END, panic).start(),
                           panic.index('"t":"panic"'))

    def test_through_pexpect_like_lava(self) -> None:
        # LAVA 2023.01 reads the console with pexpect: reads of 2000
        # characters, searches in the last 4000, earliest match first.
        exe = python_with('pexpect')
        if exe is None:
            self.skipTest(SKIP_PEXPECT)
        code = r'''
import json, re, sys, pexpect
path, start, end, pattern = json.loads(sys.stdin.read())
child = pexpect.spawn('cat', [path], encoding='utf-8', codec_errors='replace',
                      searchwindowsize=4000, maxread=2000, timeout=30)
child.expect([start])
out = []
while True:
    i = child.expect([pexpect.EOF, pexpect.TIMEOUT, end, pattern])
    if i != 3:
        break
    d = child.match.groupdict()
    out.append([d['result'], re.sub(r'\W+', '_', d['test_case_id'].strip().lower()),
                d['measurement'], d['units']])
print(json.dumps([i, out]))
'''
        for name in ('real_quick.log', 'real_timeout.log', 'real_panic.log'):
            with self.subTest(log=name):
                path = FIXTURES / name
                res = run_python(exe, code, json.dumps([
                    str(path), lava.MONITOR_START, lava.MONITOR_END,
                    lava.MONITOR_PATTERN]))
                self.assertEqual(res.returncode, 0, res.stderr)
                stop, got = json.loads(res.stdout)
                self.assertEqual(stop, 2, 'the end pattern stops the monitor')
                cases = [(lava.FIXUPDICT[r], c, m) for r, c, m, _ in got]
                self.assertEqual(normalise_measurement(cases), expected_cases(path))


def lava_job_args(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser()
    sub = parser.add_subparsers()
    cmd_lava.register(sub)
    return parser.parse_args(['lava-job', *argv])


def job_text(argv: list[str]) -> str:
    args = lava_job_args(argv)
    spec = cmd_lava.make_spec(args)
    header = ('LAVA job written by `kfront lava-job`; docs/labs.md explains it.\n'
              f'Kernel command line: {" ".join(spec.kernel_args())}')
    return lava.to_yaml(lava.job(spec), header)


VALIDATE = r'''
import json, sys, yaml
from lava_common.schemas import validate
out = []
for text in json.loads(sys.stdin.read()):
    try:
        validate(yaml.safe_load(text), strict=True)
        out.append('')
    except Exception as exc:
        out.append('%s: %s' % (type(exc).__name__, exc))
print(json.dumps(out))
'''


class TestJobs(unittest.TestCase):
    VARIANTS = [
        ['--quick'],
        [],
        ['--bench', 'sched.*,calib.calls', '--variants', 'O2,Os', '--', 'runs=21'],
        ['--accel', 'kvm', '--no-checksum'],
        ['--device-type', 'x86', '--quick'],
        ['--device-type', 'x86', '--bench', 'calib.*', '--lava-device-type', 'd2500cc'],
    ]

    def validate(self, texts: list[str]) -> list[str]:
        exe = python_with('lava_common.schemas')
        if exe is None:
            self.skipTest(SKIP_VALIDATOR)
        res = run_python(exe, VALIDATE, json.dumps(texts))
        self.assertEqual(res.returncode, 0, res.stderr)
        return json.loads(res.stdout)

    def test_generated_jobs_validate(self) -> None:
        texts = [job_text(argv) for argv in self.VARIANTS]
        self.assertEqual(self.validate(texts), [''] * len(texts))

    def test_committed_jobs_validate(self) -> None:
        texts = [(LAB / name).read_text() for name in COMMITTED]
        self.assertEqual(self.validate(texts), [''] * len(texts))

    def test_validator_rejects_a_broken_job(self) -> None:
        good = job_text(['--quick'])
        broken = [good.replace("method: 'qemu'", "method: 'qemu-nonsense'"),
                  good.replace("  - test:", "  - tset:"),
                  good.replace("name: 'kfront'", "name: 'kfront suite'")]
        self.assertTrue(all(self.validate(broken)))

    def test_committed_jobs_match_the_generator(self) -> None:
        for name, argv in COMMITTED.items():
            with self.subTest(job=name):
                self.assertEqual((LAB / name).read_text(),
                                 job_text([*argv, '--no-checksum']))

    def test_kernel_arguments(self) -> None:
        text = job_text(['--bench', 'sched.*,calib.calls', '--variants', 'O2,Os',
                         '--quick', '--no-checksum'])
        # QEMU reads "," as a separator inside -fw_cfg: doubled.
        self.assertIn('string=quick variant=O2,,Os bench=sched.*,,calib.calls '
                      'exit=halt"', text)
        x86 = job_text(['--device-type', 'x86', '--bench', 'sched.*,calib.calls'])
        self.assertIn("multiboot2 (tftp,{SERVER_IP})/{KERNEL} "
                      "bench=sched.*,calib.calls exit=halt'", x86)

    def test_timeouts_from_measured_run_time(self) -> None:
        quick = lava.timeouts(lava.JobSpec(quick=True))
        full = lava.timeouts(lava.JobSpec())
        self.assertGreaterEqual(quick.test * 60, lava.MEASURED_QUICK_S * 3)
        self.assertGreaterEqual(full.test * 60, lava.MEASURED_FULL_S * 3)
        self.assertLess(quick.test, full.test)
        metal = lava.timeouts(lava.JobSpec(device_type='x86'))
        self.assertGreater(metal.boot, full.boot)
        self.assertEqual(metal.job, metal.deploy + metal.boot + metal.test + 2)

    def test_bad_arguments(self) -> None:
        for argv in (['--bench', 'a b'], ['--', 'exit=reboot'],
                     ['--', 'x="y"'], ['--device-type', 'x86', '--accel', 'kvm']):
            with self.subTest(argv=argv):
                self.assertIsNotNone(cmd_lava.check_args(lava_job_args(argv)))


def comparable(res: dict) -> dict:
    """results.json without what names the file: source and line numbers."""
    def strip(x: object) -> object:
        if isinstance(x, dict):
            return {k: strip(v) for k, v in x.items()
                    if k not in ('line', 'end_line', 'first_line', 'last_line', 'source')}
        if isinstance(x, list):
            return [strip(v) for v in x]
        return x
    return strip(res)  # type: ignore[return-value]


def build(path: Path) -> list[dict]:
    got = collect.collect_file(path)
    return [results.build_results(r, {'source': got.source}) for r in got.runs]


class TestLavaLogs(unittest.TestCase):
    def test_sniff(self) -> None:
        self.assertTrue(lava_log.sniff(b'- {"dt": "2024-01-01", "lvl": "info"}'))
        self.assertTrue(lava_log.sniff(b'- {dt: 2024-01-01, lvl: target, msg: x}'))
        self.assertTrue(lava_log.sniff(b'{"dt": "2024", "lvl": "info"}'))
        self.assertFalse(lava_log.sniff(b'kfront 0.1.0 booting\n'))
        self.assertFalse(lava_log.sniff(b'#KF1 0 00000000 {"t":"suite_begin"}'))

    def test_entries(self) -> None:
        e = lava_log.parse_entry(r'- {"dt": "x", "lvl": "target", "msg": "a\e[1;1Hb\\ \"q\" \xE9\u2028"}')
        self.assertEqual(e['msg'], 'a\x1b[1;1Hb\\ "q" \xe9\u2028')
        e = lava_log.parse_entry("- {dt: 2024-01-01T00:00:00, lvl: target, msg: 'it''s'}")
        self.assertEqual((e['lvl'], e['msg']), ('target', "it's"))
        e = lava_log.parse_entry('- {"dt": "x", "lvl": "results", "msg": {"case": "a,b}", '
                                 '"result": "pass"}}')
        self.assertEqual(e['lvl'], 'results')
        with self.assertRaises(lava_log.LavaLogError):
            lava_log.parse_entry('- {"dt": "x", "msg": "unterminated}')

    def test_quote_escaping_undone(self) -> None:
        # ShellLogger writes every " as \" before YAML quoting.
        self.assertEqual(lava_log.console_text(r'{\"t\":\"a\\"b\"}'), r'{"t":"a\"b"}')
        self.assertEqual(lava_log.console_text('plain "quoted"'), 'plain "quoted"')

    def test_wrapped_log_gives_the_same_results(self) -> None:
        plain = build(FIXTURES / 'real_quick.log')
        wrapped = build(FIXTURES / 'real_quick.lava.yaml')
        self.assertEqual(len(plain), 1)
        self.assertTrue(plain[0]['complete'])
        self.assertEqual(comparable(wrapped[0]), comparable(plain[0]))
        self.assertEqual(wrapped[0]['problems'], [])
        # The reports read them through the typed model, as `collect` does.
        typed = model.from_dict(wrapped[0], 'real_quick.lava.yaml')
        self.assertTrue(typed.complete)
        self.assertEqual(len(typed.results), len(plain[0]['results']))

    def test_damaged_entries_keep_the_records_around_them(self) -> None:
        # Before the fix the first damaged YAML line aborted the whole
        # collection (CollectError, or an IndexError for "{a:").
        clean = collect.collect_file(FIXTURES / 'real_quick.lava.yaml')
        lines = (FIXTURES / 'real_quick.lava.yaml').read_bytes().split(b'\n')
        lines[11] = lines[11][:80]                   # seq 2, cut in the string
        lines[15] = b'- {"dt": "x", "lvl":'          # seq 5, value lost
        lines.insert(20, b'\x00\xff}{ garbled')     # a line of noise
        path = Path(self._tmp.name) / 'damaged.yaml'
        path.write_bytes(b'\n'.join(lines))
        got = collect.collect_file(path)
        self.assertEqual([(p.kind, p.line) for p in got.problems],
                         [('bad_entry', 12), ('bad_entry', 16),
                          ('gap', 17), ('bad_entry', 21)])
        self.assertIn('record seq 2 lost', got.problems[0].message)
        self.assertIn('seq 5 missing', got.problems[2].message)
        kept = {r.seq: r.raw for r in got.runs[0].records}
        self.assertEqual(sorted(kept), [s for s in range(23) if s not in (2, 5)])
        for r in clean.runs[0].records:
            self.assertEqual(kept.get(r.seq, r.raw), r.raw)
        self.assertTrue(got.runs[0].ended)

    def setUp(self) -> None:
        import tempfile
        self._tmp = tempfile.TemporaryDirectory()

    def tearDown(self) -> None:
        self._tmp.cleanup()

    def test_real_lava_run_log(self) -> None:
        # The console of a real lava-run of `kfront lava-job --quick`, and the
        # test cases LAVA recorded from it with the monitor patterns.
        path = FIXTURES / 'lava_run_quick.yaml'
        got = collect.collect_file(path)
        self.assertTrue(got.clean, got.problems)
        res = build(path)
        self.assertEqual(len(res[0]['results']), 21)
        recorded = []
        for line in path.read_text().splitlines():
            if '"lvl": "results"' in line and '"definition": "kfront"' in line:
                case = re.search(r'"case": "([^"]+)"', line).group(1)
                meas = re.search(r'"measurement": "([^"]+)"', line).group(1)
                recorded.append(('pass', case, f'{float(meas):.3f}'))
        self.assertEqual(recorded, expected_cases(path))


if __name__ == '__main__':
    unittest.main()
