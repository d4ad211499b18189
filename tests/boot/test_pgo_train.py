# SPDX-License-Identifier: GPL-2.0-or-later
"""A profile from ring 0 (issue 21, docs/pgo.md): the training image runs
one quick workload in QEMU and sends its arc counters as gcov records;
they make complete .gcda files, the workload's own functions counted, and
GCC compiles measured sources against them, exactly as the pgo variant's
build does, without a coverage-mismatch or missing-profile diagnostic.
(The whole profile-using kernel build is left to `./kfront pgo`: too long
for `./kfront test`.)"""
from __future__ import annotations

import contextlib
import os
import re
import shlex
import shutil
import subprocess
import tempfile
import unittest
from pathlib import Path

from kfront import collect, gcda, paths, pgo, qemu
from kfront.cmd_pgo import TRAIN_BUILD, build_training_image

import build_variant  # tools/build, put on the path by kfront.pgo

TRAIN = 'net.udp_rr'
# kernel/net/udp.c runs in the workload; the generated filter table is the
# one source that lives in the build directory, whose path differs between
# the training and the use build (build_variant.cc_source).
SOURCES = ['kernel/net/udp.c', 'GEN:kernel/net/filter_rules.c']
USE_FLAGS = ['-O2', '-fprofile-use', '-fprofile-partial-training', '-fno-profile-values']


def kernel_cflags(build: Path) -> list[str]:
    """The kernel's --cflags of the training variant, from build.ninja."""
    text = (build / 'build.ninja').read_text()
    for line in text.splitlines():
        if 'build_variant.py' in line and '--target kernel' in line:
            m = re.search(r"'--cflags=((?:[^'])*)'", line)
            if m:
                return shlex.split(m.group(1).replace('$ ', ' ').replace('$:', ':')
                                   .replace('$$', '$'))
    raise AssertionError('no kernel variant command in build.ninja')


class RingZeroProfile(unittest.TestCase):
    @classmethod
    def setUpClass(cls) -> None:
        if shutil.which('gcc') is None:
            raise unittest.SkipTest('no gcc')
        if not build_training_image():
            raise RuntimeError('training image build failed')
        cls.tmp = Path(tempfile.mkdtemp(prefix='kfront-pgo-boot-'))
        log = cls.tmp / 'train.log'
        cfg = qemu.BootConfig(iso=paths.iso_path(TRAIN_BUILD), timeout=300,
                              kernel_args=[f'bench={TRAIN}', 'quick', 'runs=1', 'warmup=0'])
        cls.res = qemu.boot(cfg, log=log)
        cls.col = collect.collect_file(log)

    @classmethod
    def tearDownClass(cls) -> None:
        shutil.rmtree(cls.tmp, ignore_errors=True)

    def test_records_make_a_profile_gcc_accepts(self) -> None:
        self.assertEqual(self.res.status, 0, self.res.text[-2000:])
        self.assertTrue(self.col.complete)
        self.assertEqual([p for p in self.col.problems if p.severity == 'error'], [])
        payloads = [r.payload for r in self.col.runs[-1].records]
        objs = gcda.objects_from_records(payloads)   # complete, or GcdaError
        by_name = {o.name: o for o in objs}
        self.assertIn('kernel_net_udp.gcda', by_name)
        self.assertIn('gen_kernel_net_filter_rules.gcda', by_name)
        udp_arcs = sum(c or 0 for f in by_name['kernel_net_udp.gcda'].functions.values()
                       for v in f.values.values() for c in v)
        self.assertGreater(udp_arcs, 0, 'udp.c never counted in net.udp_rr')
        # the profile as kfront pgo writes it, in a scratch build directory
        meta = pgo.write_profile(payloads, TRAIN, build=self.tmp / 'build')
        self.assertEqual(meta['objects'], len(objs))
        pdir = self.tmp / 'build' / 'pgo' / pgo.pgo_profile.set_name(TRAIN)
        self.assertEqual(pgo.pgo_profile.load(pdir)['checksum'], meta['checksum'])
        # compiled as the pgo variant's build compiles them
        base = kernel_cflags(TRAIN_BUILD)
        work = self.tmp / 'use'
        gen = self.tmp / 'main-build'
        work.mkdir()
        gen.mkdir()
        for i, src in enumerate(SOURCES):
            if src.startswith('GEN:'):
                # a generated source, from another build directory
                rel = src[4:]
                (gen / rel).parent.mkdir(parents=True, exist_ok=True)
                shutil.copyfile(TRAIN_BUILD / rel, gen / rel)
            else:
                rel = str(paths.ROOT / src)
            with contextlib.chdir(gen):     # build_variant runs in its build directory
                cmd, cwd = build_variant.c_command('gcc', base, USE_FLAGS, 'pgo', 'kernel',
                                                   str(pdir), work, rel, work / f'{i}.o')
            self.assertIn('-Werror=coverage-mismatch', cmd)
            self.assertIsNotNone(cwd)
            res = subprocess.run(cmd, capture_output=True, text=True, cwd=cwd,
                                 env={**os.environ, 'PWD': str(cwd)},
                                 stdin=subprocess.DEVNULL)
            self.assertEqual(res.returncode, 0, f'{src}: {res.stderr}')
            self.assertEqual(res.stderr, '', src)
        # each source's profile was staged where GCC looked for it
        self.assertEqual(len(list((work / 'profile').glob('*.gcda'))), len(SOURCES))


if __name__ == '__main__':
    unittest.main()
