# SPDX-License-Identifier: GPL-2.0-or-later
# fesim plugin tests: an instruction across a page boundary inside a TB.
"""QEMU 7.2 ends a TB before an instruction that would reach into a
second page, yet lists the bytes it had read of it as the TB's last
instruction. The plugin drops that listing (tools/fesim/translate.c,
rolled_back()), which needs the length of an instruction from its bytes
(tools/fesim/insn_length.c): the decoder is checked against objdump's
lengths, and the known answers of tests/fesim/pagecases/page_cases.S
show the instruction counted once (docs/fesim.md, "An instruction across
a page boundary").
"""
from __future__ import annotations

import shutil
import subprocess
import unittest
from pathlib import Path

from fesim_support import regions, run_plugin, tools

VALGRIND = shutil.which("valgrind")


def setUpModule() -> None:
    tools()      # once per process; skips the module without qemu-x86_64


def objdump_insns(path: Path) -> list[str]:
    """Every instruction objdump decodes in @path, as its bytes in hex.
    Left out: what objdump shows as an instruction but is not one the CPU
    (or QEMU) decodes so: a lone REX or segment prefix before data, and
    fwait (9b) merged into the x87 instruction after it."""
    out = subprocess.run(["objdump", "-d", "-w", "--insn-width=16", str(path)],
                         check=True, capture_output=True, text=True).stdout
    insns = []
    for line in out.splitlines():
        parts = line.split("\t")
        if len(parts) < 3 or not parts[0].strip().endswith(":"):
            continue
        text = parts[2].strip()
        if (not text or "(bad)" in text or text.startswith(".") or
                text.split()[-1].startswith("rex") or
                parts[1].startswith("9b ")):
            continue
        insns.append(parts[1].strip())
    return insns


class InstructionLength(unittest.TestCase):
    """insn_length() gives objdump's length for every instruction of real
    code, and calls every shorter prefix of its bytes short."""

    # edge cases, each as objdump 2.40 decodes it
    EDGES = {
        "66 e9 dd 00": 4,                  # jmpw rel16 (QEMU decodes 66h so)
        "66 0f 84 10 00": 5,               # je rel16
        "0f 23 87": 3,                     # mov %rdi,%db0: mod ignored
        "66 66 4b 35 57 88 90 f6": 8,      # REX.W wins: imm32, not imm16
        "48 b8 01 02 03 04 05 06 07 08": 10,   # movabs imm64
        "67 a1 00 10 00 00": 6,            # mov moffs32 under 67h
        "a1 00 10 00 00 00 00 00 00": 9,   # mov moffs64
        "8f e8 78 c2 ec 0e": 6,            # XOP vprotd, ib
        "8f 00": 2,                        # pop (%rax): 8f, map < 8
        "c5 f8 77": 3,                     # vzeroupper: no ModRM
        "62 f1 7d 48 6f 44 24 01": 8,      # EVEX vmovdqa32 disp8
        "c4 e3 79 0f c1 08": 6,            # vpalignr: map 3, ib
        "f6 44 24 08 01": 5,               # test $1,8(%rsp): F6 /0 ib
        "f7 d8": 2,                        # neg %eax: F7 /3, no imm
        "42 8b 04 25 00 10 00 00": 8,      # SIB without base: disp32
        "c8 10 00 01": 4,                  # enter iw, ib
        "f3 0f 1e fa": 4,                  # endbr64
    }

    @classmethod
    def setUpClass(cls) -> None:
        cls.exe = tools().build_length_check()

    def check(self, insns: list[str]) -> list[tuple[str, str]]:
        out = subprocess.run([str(self.exe)], input="\n".join(insns) + "\n",
                             check=True, capture_output=True,
                             text=True).stdout.split()
        wrong = []
        for k, hexbytes in enumerate(insns):
            length, not_short = int(out[2 * k]), int(out[2 * k + 1])
            want = len(hexbytes.split())
            if length != want:
                wrong.append((hexbytes, f"length {length}, not {want}"))
            elif not_short:
                wrong.append((hexbytes, f"its first {not_short} bytes "
                                        f"not called short"))
        return wrong

    def test_edge_cases(self) -> None:
        for hexbytes, want in self.EDGES.items():
            self.assertEqual(len(hexbytes.split()), want, hexbytes)
        self.assertEqual(self.check(list(self.EDGES)), [])

    def test_real_code(self) -> None:
        # GCC's code (the plugin itself), glibc's hand-written string
        # functions (SSE, AVX2, EVEX), and the kernel when it is built
        paths = [tools().plugin]
        libc = subprocess.run(["gcc", "-print-file-name=libc.so.6"],
                              capture_output=True, text=True).stdout.strip()
        if libc and Path(libc).is_file():
            paths.append(Path(libc))
        kernel = Path(__file__).resolve().parents[2] / "build" / "kfront.elf"
        if kernel.is_file():
            paths.append(kernel)
        for path in paths:
            with self.subTest(path=str(path)):
                insns = objdump_insns(path)
                self.assertGreater(len(insns), 1000)
                self.assertEqual(self.check(insns)[:10], [])


class PageCases(unittest.TestCase):
    """Known answers of tests/fesim/pagecases/page_cases.S: the same loop
    with a movl across a page boundary (region 1) and starting on it
    (region 2)."""

    PASSES = 10
    SETTINGS = "skylake:zen4:goldencove"

    @classmethod
    def setUpClass(cls) -> None:
        cls.records = run_plugin([], f"model={cls.SETTINGS},speed=on",
                                 "pages", tools().build_page_cases())[0]
        cls.region = {r["slot"]: r for r in regions(cls.records)}

    def test_counted_once(self) -> None:
        # 16 instructions a pass, plus begin marker, jmp, end marker; the
        # jmp into the loop and the passes - 1 jnz back are the landings
        for slot in (1, 2):
            r = self.region[slot]
            self.assertEqual(r["insns"], 16 * self.PASSES + 3, slot)
            self.assertEqual(r["taken_branches"], self.PASSES, slot)
        self.assertEqual(self.region[1]["bytes"], self.region[2]["bytes"])

    def test_crossing_is_seen(self) -> None:
        # the movl crosses a 64-byte line in region 1 only; the nop
        # before it ends the page in region 2 and crosses nothing
        self.assertEqual(self.region[1]["classes"]["cross64"], self.PASSES)
        self.assertEqual(self.region[2]["classes"]["cross64"], 0)

    def test_same_lines(self) -> None:
        # both loops run through the same two lines a pass: the L1i sees
        # the same accesses, whatever TBs QEMU cut the loop into
        for name in self.SETTINGS.split(":"):
            self.assertEqual(self.region[1]["models"][name]["l1i_accesses"],
                             self.region[2]["models"][name]["l1i_accesses"],
                             name)

    @unittest.skipIf(VALGRIND is None, "valgrind not installed")
    def test_cachegrind_agrees(self) -> None:
        # valgrind decodes the program itself: its instruction count for
        # the whole run is the plugin's whole-run total (before the fix,
        # PASSES more); it names none of this program's functions (no
        # debug information), so the totals are compared
        t = tools()
        out = t.dir / "pages.cachegrind"
        subprocess.run([VALGRIND, "--tool=cachegrind", "--cache-sim=no",
                        f"--cachegrind-out-file={out}",
                        str(t.build_page_cases())],
                       check=True, timeout=120, capture_output=True)
        summary = next(line for line in out.read_text().splitlines()
                       if line.startswith("summary:"))
        total = next(r for r in self.records if r["type"] == "total")
        self.assertEqual(int(summary.split()[1]), total["insns"])

    def test_rolled_back_counted(self) -> None:
        # one translation (region 1's nops) listed the rolled-back movl;
        # a QEMU that drops it from the list itself shows none
        speed = next(r for r in self.records if r["type"] == "speed")
        self.assertIn(speed["rolled_back"], (0, 1))


if __name__ == "__main__":
    unittest.main()
