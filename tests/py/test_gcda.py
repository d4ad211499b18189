# SPDX-License-Identifier: GPL-2.0-or-later
"""gcda.py against libgcov itself: a host program built with the training
flags runs, prints its counters through the kernel's record writer
(kernel/gcov/gcov_records.c) and lets libgcov write its .gcda files; the
files gcda.py writes from the records must be the same bytes, and GCC
must accept them with -fprofile-use without a coverage mismatch."""

import shutil
import subprocess
import tempfile
import unittest
from pathlib import Path

from kfront import gcda, records

ROOT = Path(__file__).resolve().parents[2]
GCOV_DIR = ROOT / 'tests' / 'gcov'
TRAIN = ['-O2', '-fprofile-arcs', '-fprofile-update=single',
         '-fprofile-info-section=kfront_gcov']
USE = ['-O2', '-fprofile-use', '-fprofile-partial-training', '-Wcoverage-mismatch',
       '-Werror=coverage-mismatch', '-Werror=missing-profile']
HARNESS = ['tests/gcov/gcov_dump.c', 'kernel/gcov/gcov_records.c', 'kernel/record.c',
           'lib/crc32.c', 'lib/vsprintf.c']


def gcc_major() -> int:
    try:
        out = subprocess.run(['gcc', '-dumpversion'], capture_output=True, text=True,
                             check=True).stdout
    except (OSError, subprocess.CalledProcessError):
        return 0
    return int(out.split('.')[0])


def cc(args: list[str], cwd: Path = ROOT) -> subprocess.CompletedProcess:
    return subprocess.run(['gcc', *args], capture_output=True, text=True, cwd=cwd)


@unittest.skipUnless(gcc_major() >= 12, 'needs GCC 12 (-fprofile-info-section)')
class GcdaVersusLibgcov(unittest.TestCase):
    @classmethod
    def setUpClass(cls) -> None:
        cls.tmp = Path(tempfile.mkdtemp(prefix='kfront-gcda-'))
        cls.train = cls.tmp / 'train'
        cls.train.mkdir()
        objs = []
        for name in ('profiled_a', 'profiled_b'):
            obj = cls.train / f'{name}.o'
            res = cc([*TRAIN, '-dumpdir', f'{cls.train}/', '-dumpbase', name,
                      '-c', str(GCOV_DIR / f'{name}.c'), '-o', str(obj)])
            assert res.returncode == 0, res.stderr
            objs.append(str(obj))
        # The harness is not profiled: libgcov's summary spans every object
        # it knows, and must know only the two the kernel would send.
        for i, src in enumerate(HARNESS):
            obj = cls.tmp / f'h{i}.o'
            res = cc(['-O1', '-D_GNU_SOURCE', '-DKFRONT_HOST=1', '-fno-builtin',
                      '-Iinclude', '-Iarch/x86/include', '-c', src, '-o', str(obj)])
            assert res.returncode == 0, res.stderr
            objs.append(str(obj))
        prog = cls.tmp / 'gcov_dump'
        res = cc([*objs, '-fprofile-arcs', '-o', str(prog)])
        assert res.returncode == 0, res.stderr
        run = subprocess.run([str(prog), '50'], capture_output=True, cwd=cls.tmp)
        assert run.returncode == 0, run.stderr
        lines = [records.parse_line(ln) for ln in run.stdout.splitlines()]
        assert all(isinstance(ln, records.Record) for ln in lines), lines[:3]
        cls.objs = gcda.objects_from_records([ln.payload for ln in lines])

    @classmethod
    def tearDownClass(cls) -> None:
        shutil.rmtree(cls.tmp, ignore_errors=True)

    def test_same_bytes_as_libgcov(self) -> None:
        self.assertEqual([o.name for o in self.objs], ['profiled_a.gcda', 'profiled_b.gcda'])
        smax = gcda.run_max(self.objs)
        self.assertGreater(smax, 0)
        for obj in self.objs:
            ref = (self.train / obj.name).read_bytes()
            self.assertEqual(gcda.gcda_bytes(obj, smax), ref, obj.name)

    def test_gcc_accepts_without_mismatch(self) -> None:
        use = self.tmp / 'use'
        gcda.write_all(self.objs, use)
        for name in ('profiled_a', 'profiled_b'):
            res = cc([*USE, '-dumpdir', f'{use}/', '-dumpbase', name,
                      '-c', str(GCOV_DIR / f'{name}.c'), '-o', str(use / f'{name}.o')])
            self.assertEqual(res.returncode, 0, res.stderr)
            self.assertEqual(res.stderr, '')

    def test_changed_code_is_a_mismatch(self) -> None:
        """The check the build relies on is live: a changed function's
        profile is refused."""
        use = self.tmp / 'changed'
        gcda.write_all(self.objs, use)
        src = use / 'profiled_b.c'
        src.write_text((GCOV_DIR / 'profiled_b.c').read_text().replace(
            'r = -x;', 'r = -x;\n\t\tif (x > 7)\n\t\t\tr++;'))
        res = cc([*USE, '-dumpdir', f'{use}/', '-dumpbase', 'profiled_b',
                  '-c', str(src), '-o', str(use / 'b.o')])
        self.assertNotEqual(res.returncode, 0)
        self.assertIn('coverage-mismatch', res.stderr)

    def test_lost_counters_are_refused(self) -> None:
        payloads = [{'t': 'gcov_obj', 'obj': 0, 'file': '/x/a.gcda', 'version': 1,
                     'stamp': 2, 'checksum': 3, 'types': 1, 'functions': 1},
                    {'t': 'gcov_fn', 'obj': 0, 'fn': 0, 'key': True, 'ident': 1,
                     'lineno_checksum': 2, 'cfg_checksum': 3, 'counts': [300]},
                    {'t': 'gcov_ctr', 'obj': 0, 'fn': 0, 'type': 0, 'off': 0,
                     'v': [1] * 256}]
        with self.assertRaisesRegex(gcda.GcdaError, '44 counters missing'):
            gcda.objects_from_records(payloads)
        payloads[2]['off'] = 44
        payloads.append({'t': 'gcov_ctr', 'obj': 0, 'fn': 0, 'type': 0, 'off': 0,
                         'v': [2] * 44})
        objs = gcda.objects_from_records(payloads)
        self.assertEqual(objs[0].functions[0].values[0], [2] * 44 + [1] * 256)


if __name__ == '__main__':
    unittest.main()
