# SPDX-License-Identifier: GPL-2.0-or-later
# fesim plugin tests: what every test module shares.
"""The programs the fesim tests run and how they run them under the plugin.

The plugin and the validation program come from the environment
(FESIM_PLUGIN, FESIM_VALIDATE: the meson test sets them); without them the
tests build both with gcc into a temporary directory. Either way that is
done once per process, by the first module's setUpModule(), and the
directory goes at exit: the known-answer programs built into it are shared
by every module. From a checkout:

    python3 -m unittest discover -s tests/fesim -v      # every module
    python3 tests/fesim/test_uop_rules.py -v            # one of them

This module holds no tests (its name does not match test_*.py).
"""
from __future__ import annotations

import atexit
import json
import os
import shutil
import subprocess
import sys
import tempfile
import unittest
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
# the plugin's sources; the host tools' merge of parallel boots
# (test_exactness.py imports kfront after this module)
sys.path.insert(0, str(ROOT / "tools"))
from fesim.sources import plugin_sources  # noqa: E402
FESIM = ROOT / "tools" / "fesim"
QEMU = shutil.which("qemu-x86_64")
QEMU_SYSTEM = shutil.which("qemu-system-x86_64")
STUB = ROOT / "tests" / "fesim" / "mbstub"
UOPCASES = ROOT / "tests" / "fesim" / "uopcases" / "uop_cases.S"
CLASSCASES = ROOT / "tests" / "fesim" / "classcases" / "class_cases.S"
CALLCASES = ROOT / "tests" / "fesim" / "callcases" / "call_cases.S"
POLICYCASES = ROOT / "tests" / "fesim" / "policycases" / "policy_cases.S"
PAGECASES = ROOT / "tests" / "fesim" / "pagecases" / "page_cases.S"
LENGTHCHECK = ROOT / "tests" / "fesim" / "lengthcheck" / "length_check.c"
# The LRU geometry the hand-worked L1i figures of cases.S assume: no
# next-line prefetch (skylake has it by default; cachegrind has none).
PLAIN = "model=skylake,l1i_prefetch=0"


class Tools:
    """Paths of the plugin and the validation program, built on demand."""

    def __init__(self) -> None:
        self.tmp = tempfile.TemporaryDirectory(prefix="fesim-test-")
        self.dir = Path(self.tmp.name)
        plugin = os.environ.get("FESIM_PLUGIN")
        exe = os.environ.get("FESIM_VALIDATE")
        self.plugin = Path(plugin) if plugin else self._build_plugin()
        self.exe = Path(exe) if exe else self._build_validate()

    def _build_plugin(self) -> Path:
        out = self.dir / "libfesim.so"
        subprocess.run(["gcc", "-O2", "-shared", "-fPIC",
                        "-fvisibility=hidden", "-I", str(ROOT / "include"),
                        "-o", str(out)] +
                       [str(s) for s in plugin_sources()], check=True)
        return out

    def build_stub(self, rounds: int) -> Path:
        """The multiboot test kernel: validation regions in system mode."""
        elf = self.dir / f"stub{rounds}.elf64"
        out = self.dir / f"stub{rounds}.elf"
        subprocess.run(["gcc", "-O2", "-ffreestanding", "-fno-pic",
                        "-fno-pie", "-mno-red-zone", "-mgeneral-regs-only",
                        "-fno-stack-protector",
                        "-fno-asynchronous-unwind-tables",
                        f"-DWORKLOAD_ROUNDS={rounds}",
                        "-I", str(ROOT / "include"), "-nostdlib", "-static",
                        "-no-pie", f"-Wl,-T,{STUB / 'stub.ld'}",
                        "-Wl,--build-id=none", "-o", str(elf),
                        str(STUB / "boot.S"), str(STUB / "stub_main.c"),
                        str(FESIM / "validate" / "cases.S")], check=True)
        # QEMU's multiboot loader takes ELF32 only; the entry is 32-bit code
        subprocess.run(["objcopy", "-O", "elf32-i386", str(elf), str(out)],
                       check=True)
        return out

    def _program(self, source: Path, name: str) -> Path:
        """A freestanding known-answer program (no libc), built once."""
        out = self.dir / name
        if not out.exists():
            subprocess.run(["gcc", "-nostdlib", "-static", "-no-pie",
                            "-Wl,--build-id=none", "-I", str(ROOT / "include"),
                            "-o", str(out), str(source)], check=True)
        return out

    def _symbols(self, exe: Path) -> Path:
        """@exe's `nm -n` output, the plugin's syms= file."""
        syms = exe.with_name(exe.name + ".syms")
        if not syms.exists():
            syms.write_text(subprocess.run(["nm", "-n", str(exe)], check=True,
                                           capture_output=True,
                                           text=True).stdout)
        return syms

    def build_uop_cases(self) -> Path:
        """The uop-cache known-answer program."""
        return self._program(UOPCASES, "uop_cases")

    def build_class_cases(self) -> tuple[Path, Path]:
        """The instruction-class known-answer program and its `nm -n`."""
        out = self._program(CLASSCASES, "class_cases")
        return out, self._symbols(out)

    def build_call_cases(self) -> tuple[Path, Path]:
        """The call-graph known-answer program and its `nm -n`."""
        out = self._program(CALLCASES, "call_cases")
        return out, self._symbols(out)

    def build_policy_cases(self) -> Path:
        """The replacement/prefetch/iTLB known-answer program."""
        return self._program(POLICYCASES, "policy_cases")

    def build_page_cases(self) -> Path:
        """The page-boundary known-answer program."""
        return self._program(PAGECASES, "page_cases")

    def build_length_check(self) -> Path:
        """The host check of the plugin's instruction-length decoder."""
        out = self.dir / "length_check"
        if not out.exists():
            subprocess.run(["gcc", "-O2", "-I", str(FESIM), "-I",
                            str(ROOT / "include"), "-o", str(out),
                            str(LENGTHCHECK), str(FESIM / "insn_length.c")],
                           check=True)
        return out

    def _build_validate(self) -> Path:
        out = self.dir / "fesim_validate"
        subprocess.run(["gcc", "-O1", "-static", "-no-pie",
                        "-I", str(ROOT / "include"), "-o", str(out),
                        str(FESIM / "validate" / "fesim_validate.c"),
                        str(FESIM / "validate" / "cases.S")], check=True)
        return out


_TOOLS: Tools | None = None


def tools() -> Tools:
    """The process's Tools, made on the first call (every test module's
    setUpModule() calls it: the whole module is skipped without QEMU)."""
    global _TOOLS
    if _TOOLS is None:
        if QEMU is None:
            raise unittest.SkipTest("qemu-x86_64 not installed (Debian: qemu-user)")
        _TOOLS = Tools()
        atexit.register(_TOOLS.tmp.cleanup)
    return _TOOLS


def run_plugin(cases: list[str], args: str = PLAIN, name: str = "out",
               exe: Path | None = None) -> tuple[list[dict], str]:
    """Run @exe (default: the validation program) with @cases as its
    arguments under the plugin; return records, text."""
    t = tools()
    out = t.dir / f"{name}.jsonl"
    if out.exists():
        out.unlink()
    subprocess.run([QEMU, "-plugin", f"{t.plugin},{args},out={out}",
                    str(exe or t.exe)] + cases, check=True, timeout=120)
    text = out.read_text()
    return [json.loads(line) for line in text.splitlines()], text


def regions(records: list[dict]) -> list[dict]:
    return [r for r in records if r["type"] == "region"]
