# SPDX-License-Identifier: GPL-2.0-or-later
"""The assembly memcpy and memset of a -DKFRONT_ASM_STRING variant
(arch/x86/string_asm.c) are the same machine code, at the same alignment,
whatever the variant's flags: like Linux's, they are not the compiler's
to shape. Without the define the file defines nothing, so lib/string.c's C
functions stay the only ones. (Their behaviour: tests/unit/test_string_asm.c.)"""
from __future__ import annotations

import shutil
import subprocess
import tempfile
import unittest
from pathlib import Path

from kfront import paths
from kfront.flags import vt   # tools/build/variants.py
from tests.py.test_variant_code import disassemble

ROOT = paths.ROOT
SOURCE = ROOT / 'arch/x86/string_asm.c'
# The kernel's code-shaping flags (meson.build, kernel_c_args).
KERNEL = ['-ffreestanding', '-fno-pic', '-fno-pie', '-mcmodel=kernel', '-mno-red-zone',
          '-mgeneral-regs-only', '-fno-stack-protector', '-fno-asynchronous-unwind-tables',
          '-fcf-protection=none', '-ffunction-sections', '-Wall', '-Wextra', '-Werror',
          f'-I{ROOT / "include"}', f'-I{ROOT / "arch/x86/include"}']
HYBRID = ('-O2 -fno-align-functions -fno-align-jumps -fno-align-loops -fno-align-labels '
          '-finline-limit=40 --param max-inline-insns-auto=8 --param max-inline-insns-single=40 '
          '-fno-tree-ch -freorder-blocks-algorithm=simple').split()
SETS = [('gcc', ['-O2']), ('gcc', ['-Os']), ('gcc', HYBRID), ('gcc', ['-O0']),
        ('clang', ['-O2']), ('clang', ['-Os'])]


def compile_one(work: Path, cc: str, flags: list[str], define: bool) -> Path:
    obj = work / f'{cc}{len(list(work.iterdir()))}.o'
    subprocess.run([cc, *KERNEL, *flags, *(['-DKFRONT_ASM_STRING'] if define else []),
                    '-c', str(SOURCE), '-o', str(obj)], check=True)
    return obj


def section_align(obj: Path, section: str) -> int:
    out = subprocess.run(['readelf', '-SW', str(obj)], check=True,
                         capture_output=True, text=True).stdout
    for line in out.splitlines():
        cols = line.replace('[ ', '[').split()
        if len(cols) > 2 and cols[1] == section:
            return int(cols[-1])
    raise AssertionError(f'{section} not in {obj}')


def defined_symbols(obj: Path) -> set[str]:
    out = subprocess.run(['nm', '--defined-only', str(obj)], check=True,
                         capture_output=True, text=True).stdout
    return {line.split()[-1] for line in out.splitlines() if line.strip()}


def body(lines: list[str]) -> list[str]:
    """The instructions without objdump's comments, up to the last ret:
    after a naked function's body GCC puts a ud2 (a nop at -O0) in case
    it falls off its end, clang nothing; none of it is reached."""
    out = [ins.split('#')[0].strip() for ins in lines]
    last = max((i for i, ins in enumerate(out) if ins.startswith('ret')), default=len(out) - 1)
    return out[:last + 1]


class StringAsm(unittest.TestCase):
    def setUp(self) -> None:
        self.work = Path(tempfile.mkdtemp(prefix='kfront-strasm-'))
        self.addCleanup(shutil.rmtree, self.work)

    def test_same_code_under_every_flag_set(self) -> None:
        code: dict[str, dict[str, list[str]]] = {}
        for cc, flags in SETS:
            if not shutil.which(cc):
                continue
            obj = compile_one(self.work, cc, flags, True)
            key = f'{cc} {" ".join(flags[:1])}{" (hybrid)" if flags is HYBRID else ""}'
            code[key] = {fn: body(disassemble(obj, fn)) for fn in ('memcpy', 'memset')}
            for fn in ('memcpy', 'memset'):
                self.assertGreaterEqual(section_align(obj, f'.text.{fn}'), 16, (key, fn))
        self.assertIn('gcc -Os', code)
        first = code['gcc -O2']
        self.assertIn('rep movsb %ds:(%rsi),%es:(%rdi)', first['memcpy'])
        self.assertIn('rep stos %al,%es:(%rdi)', first['memset'])
        self.assertGreater(len(first['memcpy']), 40)    # the loop and its tail too
        for key, fns in code.items():
            self.assertEqual(fns, first, key)

    def test_nothing_without_the_define(self) -> None:
        obj = compile_one(self.work, 'gcc', ['-O2'], False)
        self.assertFalse({'memcpy', 'memset'} & defined_symbols(obj))


class AsmStringTable(unittest.TestCase):
    """bench/variants-asm-string.ini is the default table's O2, Os and
    hybrid with the define added, and nothing else, so the two tables'
    runs differ in the string helpers only."""

    def test_default_flags_plus_the_define(self) -> None:
        default = {v.name: v for v in vt.load(ROOT / 'bench/variants.ini')}
        table = vt.load(ROOT / 'bench/variants-asm-string.ini')
        self.assertEqual([v.name for v in table], ['O2', 'Os', 'hybrid'])
        for v in table:
            self.assertEqual(v.cc, default[v.name].cc, v.name)
            self.assertEqual(v.flags, default[v.name].flags + ('-DKFRONT_ASM_STRING',), v.name)


if __name__ == '__main__':
    unittest.main()
