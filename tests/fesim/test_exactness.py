# SPDX-License-Identifier: GPL-2.0-or-later
# fesim plugin tests: the optimisations change no output.
"""Loop replay (loops=), the replay memo (memo=) and parallel boots
(`kfront run --sim-jobs`) are optimisations only: under every preset and
policy, on the known-answer programs, their output must be that of the
plain simulation byte for byte (but for the lines that account for the
optimisation itself). Also the refusal of their bad arguments.
"""
from __future__ import annotations

import json
import subprocess
import unittest
from pathlib import Path

from fesim_support import QEMU, tools
# fesim_support has put tools/ on sys.path
from kfront import sim, simjobs


def setUpModule() -> None:
    tools()      # once per process; skips the module without qemu-x86_64


# Every preset, all three policies: the settings the exactness checks of
# the optimisations (memo=, loops=) run under.
EVERY_SETTING = ("model=skylake:skylake@plru:skylake@random:zen4:zen4@random:"
                 "goldencove:goldencove@plru:skylake-nojcc:small")


def plugin_out(exe: Path, args: str, out: Path,
               cases: list[str] | None = None) -> Path:
    """Run @exe under the plugin with @args, its output to @out."""
    t = tools()
    subprocess.run([QEMU, "-plugin", f"{t.plugin},{args},out={out}",
                    str(exe)] + (cases or []), check=True, timeout=120,
                   stdout=subprocess.DEVNULL)
    return out


def run_toggled(exe: Path, args: str, name: str, knob: str,
                values: tuple[str, str],
                cases: list[str] | None = None) -> list[list[str]]:
    """The output lines of @exe under the plugin with knob=each value."""
    t = tools()
    outs = []
    for value in values:
        out = plugin_out(exe, f"{args},{knob}={value}",
                         t.dir / f"{knob}-{name}-{value.split(',')[0]}.jsonl",
                         cases)
        outs.append(out.read_text().splitlines())
    return outs


class KnownAnswerPrograms:
    """The known-answer programs under every setting, for a TestCase whose
    same(exe, args, name) runs one with an optimisation on and off."""

    def same(self, exe: Path, args: str, name: str,
             cases: list[str] | None = None) -> object:
        raise NotImplementedError

    def test_policy_cases(self) -> None:
        t = tools()
        exe = t.build_policy_cases()
        self.same(exe, EVERY_SETTING, "policy")
        self.same(exe, EVERY_SETTING + ",cold=on", "policy-cold")

    def test_uop_cases(self) -> None:
        t = tools()
        self.same(t.build_uop_cases(), EVERY_SETTING, "uop")


class LoopsExact(KnownAnswerPrograms, unittest.TestCase):
    """Loop replay (docs/fesim.md, "Loop replay") is an optimisation only:
    with loops=off every period is simulated, and every count must be the
    same. loop_min=2 puts every small loop of the programs through it (by
    default periods under 24 TB runs are left to the memos): loops over a
    capacity edge under all three policies, the JCC erratum, prefetch,
    regions started cold. The output's "loops" line (how much was
    replayed) is the one line that differs."""

    def same(self, exe: Path, args: str, name: str,
             cases: list[str] | None = None) -> dict:
        on, off = run_toggled(exe, args, name, "loops",
                              ("on,loop_min=2", "off"), cases)
        stats = [json.loads(ln) for ln in on if '"type":"loops"' in ln]
        self.assertEqual(len(stats), 1, "loops=on writes one loops line")
        self.assertFalse(any('"type":"loops"' in ln for ln in off))
        on = [ln for ln in on if '"type":"loops"' not in ln]
        self.assertTrue(sum('"type":"region"' in ln for ln in on) > 0)
        self.assertEqual(on, off, name)
        return stats[0]

    def test_validation_program(self) -> None:
        t = tools()
        st = self.same(t.exe, EVERY_SETTING, "validate",
                       ["loop_fit=50", "loop_2x=50", "conflict9=3000",
                        "conflict8=3000", "dsb_fit=3000", "dsb_dense=3000",
                        "split=50"])
        # most of the run is loops: most TB runs must have been replayed,
        # or the comparison above proved nothing
        self.assertGreater(st["tb_runs_replayed"], st["tb_runs"] // 2, st)
        self.assertGreater(st["periods_replayed"], 1000, st)

    def test_function_rows(self) -> None:
        # a replayed period adds its per-function misses too
        t = tools()
        syms = t.dir / "validate.syms"
        syms.write_text(subprocess.run(["nm", "-n", str(t.exe)], check=True,
                                       capture_output=True, text=True).stdout)
        st = self.same(t.exe, EVERY_SETTING + f",syms={syms}", "validate-syms",
                       ["loop_fit=20", "loop_2x=20", "conflict9=300",
                        "dsb_dense=300", "split=20"])
        self.assertGreater(st["tb_runs_replayed"], 0, st)
        out = (t.dir / "loops-validate-syms-off.jsonl").read_text()
        self.assertIn('"funcs":[[', out)
        exe, csyms = t.build_class_cases()
        self.same(exe, EVERY_SETTING + f",syms={csyms}", "class-syms")

    def test_bad_loop_min(self) -> None:
        t = tools()
        for bad in ("1", "0", "x", "-3", "2k"):
            proc = subprocess.run([QEMU, "-plugin",
                                   f"{t.plugin},model=skylake,loop_min={bad}",
                                   str(t.exe), "straight"],
                                  capture_output=True, text=True, timeout=60)
            self.assertNotEqual(proc.returncode, 0, bad)
            self.assertIn(f"bad argument 'loop_min={bad}'", proc.stderr, bad)

    def test_bad_switch_is_named(self) -> None:
        """on|off switches take on/off (or yes/no, true/false, 1/0) and
        nothing else, and the refusal names the argument before the
        (long) usage."""
        t = tools()
        for bad in ("speed=maybe", "memo=2", "loops=", "cold=onn"):
            proc = subprocess.run([QEMU, "-plugin",
                                   f"{t.plugin},model=skylake,{bad}",
                                   str(t.exe), "straight"],
                                  capture_output=True, text=True, timeout=60)
            self.assertNotEqual(proc.returncode, 0, bad)
            self.assertTrue(proc.stderr.startswith(f"fesim: bad argument '{bad}'"),
                            proc.stderr[:200])


class MemoExact(KnownAnswerPrograms, unittest.TestCase):
    """The replay memo (docs/fesim.md, "Speed") is an optimisation only:
    with memo=off every lookup is done again, and every output must be
    byte-identical. The programs cover windows that are never cached (the
    generation goes back after a dropped fill), the JCC erratum, all three
    policies and prefetch."""

    def same(self, exe: Path, args: str, name: str,
             cases: list[str] | None = None) -> None:
        on, off = run_toggled(exe, args, name, "memo", ("on", "off"), cases)
        self.assertTrue(sum('"type":"region"' in ln for ln in on) > 0)
        self.assertEqual(on, off, name)

    def test_validation_program(self) -> None:
        t = tools()
        self.same(t.exe, EVERY_SETTING, "validate",
                  ["loop_fit=20", "loop_2x=5", "conflict9=300",
                   "dsb_dense=300", "dsb_fit=300", "split=5"])

    def test_speed_line(self) -> None:
        """speed=on adds one last line saying how each segment's part in
        each model was done (docs/fesim.md, "Output format"); every other line
        is unchanged. memo=off simulates exactly the runs that memo=on
        replays or simulates, so the two accounts must add up."""
        t = tools()
        exe = t.build_uop_cases()
        plain, with_speed = run_toggled(exe, EVERY_SETTING + ",memo=on", "speed",
                                        "speed", ("off", "on"))
        self.assertEqual(with_speed[:-1], plain)
        on = json.loads(with_speed[-1])
        off = json.loads(run_toggled(exe, EVERY_SETTING + ",memo=off", "speed-off",
                                     "speed", ("on", "on"))[0][-1])
        self.assertEqual(on["type"], "speed")
        self.assertGreater(on["translations"], 0)
        self.assertGreater(on["tb_bytes"], 0)
        self.assertGreater(on["memo_replayed"], 0)
        # memos checked set by set after the caches changed elsewhere
        self.assertGreater(on["memo_revalidated"], 0)
        self.assertLessEqual(on["memo_revalidated"], on["memo_replayed"])
        self.assertEqual(off["memo_revalidated"], 0)
        self.assertEqual(on["simulated_memo_off"], 0)
        self.assertEqual(off["memo_replayed"] + off["simulated_no_memo"] +
                         off["simulated_caches_changed"] + off["simulated_other_entry"], 0)
        self.assertEqual(on["memo_replayed"] + on["simulated_no_memo"] +
                         on["simulated_caches_changed"] + on["simulated_other_entry"],
                         off["simulated_memo_off"])

    def test_random_hits_change_nothing(self) -> None:
        """Under random replacement nothing a victim draw depends on moves
        on a hit (the uop cache counts its entries in slot order), so a
        run of hits that are not the most recent ones is replayed from its
        memo: the same loop leaves fewer memos empty than under LRU, whose
        hits reorder the sets (docs/fesim.md, "Replacement and prefetch").
        The counts are those of memo=off."""
        t = tools()
        speed = {}
        for setting in ("zen4", "zen4@random"):
            on, off = run_toggled(t.exe, f"model={setting},loops=off,speed=on",
                                  f"hits-{setting}", "memo", ("on", "off"),
                                  ["loop_fit=20"])
            self.assertEqual(on[:-1], off[:-1])
            speed[setting] = json.loads(on[-1])
        self.assertLess(speed["zen4@random"]["simulated_no_memo"],
                        speed["zen4"]["simulated_no_memo"] / 2)

    def test_tb_runs_in_bulk(self) -> None:
        """QEMU runs a rep movs/stos one pass per TB run; once a pass
        replayed its memo in every model, the further passes are counted
        in bulk (tools/fesim/bulk.c, bulk_flush()). memo=off runs every
        pass: every line but the speed line must be the same, function
        rows (syms=) included. class_cases' rep movsb and rep stosq run
        6 and 8 passes an execution: the bulk path must have taken some."""
        t = tools()
        exe, syms = t.build_class_cases()
        on, off = run_toggled(exe, f"{EVERY_SETTING},syms={syms},speed=on", "rep",
                              "memo", ("on", "off"))
        self.assertEqual(on[:-1], off[:-1])
        bulk = [json.loads(ln[-1])["tb_runs_in_bulk"] for ln in (on, off)]
        self.assertGreater(bulk[0], 0)
        self.assertEqual(bulk[1], 0)


class ParallelBootsExact(unittest.TestCase):
    """`kfront run --sim-jobs` deals the settings over boots and merges
    their outputs (tools/kfront/simjobs.py): the merged output must be the
    one a single run of every setting writes, byte for byte, but the loops
    line (the boots' replay work added up). User mode repeats exactly, so
    the whole-run total must match too."""

    def merged_and_single(self, exe: Path, settings: list[str],
                          parts: list[list[str]], extra: str, name: str,
                          cases: list[str] | None = None) -> tuple[list[str], list[str]]:
        t = tools()
        outs = [plugin_out(exe, f"model={':'.join(part)}{extra}",
                           t.dir / f"jobs-{name}-{k}.jsonl", cases)
                for k, part in enumerate([settings] + parts)]
        merged = t.dir / f"jobs-{name}-merged.jsonl"
        simjobs.merge(outs[1:], parts, settings, merged)

        def lines(path: Path) -> list[str]:
            return [ln for ln in path.read_text().splitlines() if '"type":"loops"' not in ln]
        return lines(merged), lines(outs[0])

    def test_validation_program(self) -> None:
        t = tools()
        settings = ["skylake", "zen4@plru", "goldencove", "skylake@random"]
        merged, single = self.merged_and_single(
            t.exe, settings, [settings[0::2], settings[1::2]], "", "validate",
            ["loop_fit=20", "conflict9=300", "dsb_dense=300", "split=5"])
        self.assertTrue(sum('"type":"region"' in ln for ln in single) > 3)
        self.assertEqual(merged, single)

    def test_function_rows_and_calls(self) -> None:
        t = tools()
        settings = ["skylake", "zen4", "goldencove@plru"]
        for build, name in ((t.build_class_cases, "class"),
                            (t.build_call_cases, "call")):
            exe, syms = build()
            merged, single = self.merged_and_single(
                exe, settings, [["skylake", "goldencove@plru"], ["zen4"]],
                f",syms={syms}", name)
            self.assertTrue(any('"funcs":[[' in ln for ln in single), name)
            self.assertEqual(merged, single, name)

    def test_boots_that_differ_are_refused(self) -> None:
        t = tools()
        outs = [plugin_out(t.exe, f"model={model}",
                           t.dir / f"jobs-differ-{model}.jsonl", [case])
                for model, case in (("skylake", "loop_fit=20"), ("zen4", "loop_fit=21"))]
        with self.assertRaisesRegex(sim.SimError, "region 0 differs between the boots"):
            simjobs.merge(outs, [["skylake"], ["zen4"]], ["skylake", "zen4"],
                          t.dir / "jobs-differ.jsonl")


if __name__ == "__main__":
    unittest.main()
