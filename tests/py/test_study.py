# SPDX-License-Identifier: GPL-2.0-or-later
"""The findings document (tools/kfront/study.py) from fixed inputs: the same
results give the same text, the table has one row per workload with the
real-CPU ratio and its interval, the crossover is the first sweep point
where Os misses clearly less, and the patterns of the explaining functions
are grouped by which variant has more of them; models whose L1i tables
are the same share one, and the uop cache gets its own section, tallied
per model."""
from __future__ import annotations

import io
import json
import tempfile
import unittest
from contextlib import redirect_stderr
from pathlib import Path
from unittest import mock

from tests.py import FIXTURES
from kfront import cmd_study, collect, explain, paths, placement, results, study


def counters(per_op: dict[str, float], ratio: dict | None = None) -> dict:
    out = {name: {'per_op': {'median': v}, 'per_run': {'median': v * 10}}
           for name, v in per_op.items()}
    if ratio is not None:
        out.setdefault('tsc', {'per_op': {'median': 1.0}})['ratio'] = ratio
    return out


def sim_entry(bench: str, variant: str, fp: int, insns: float, l1i: float) -> dict:
    return {'bench': bench, 'variant': variant, 'footprint': fp,
            'counters': counters({'sim.instructions': insns,
                                  'sim.skylake.l1i_misses': l1i}),
            'sim_functions': {'per': 'run', 'columns': ['instructions'],
                              'top': [{'function': 'hot', 'addr': '0x10',
                                       'instructions': insns * 10}],
                              'other': {'functions': 0, 'instructions': 0}}}


SIM = {'git': 'abc', 'results': [
    sim_entry('net.x', 'O2', 0, 100, 0.0), sim_entry('net.x', 'Os', 0, 120, 0.0),
    sim_entry('net.x', 'O2', 64, 100, 2.0), sim_entry('net.x', 'Os', 64, 120, 1.0),
    sim_entry('calib.empty', 'O2', 0, 1, 0.0)]}
HOST = {'git': 'abc', 'machine': {'brand': 'Test CPU', 'vendor': 'AuthenticAMD',
                                  'family': 25, 'model': 17, 'pmu': {'available': False,
                                                                     'reason': 'none here'}},
        'results': [
            {'bench': 'net.x', 'variant': 'O2', 'footprint': 0,
             'counters': counters({'tsc': 10.0, 'vg.instructions': 100})},
            {'bench': 'net.x', 'variant': 'Os', 'footprint': 0,
             'counters': counters({'tsc': 7.0, 'vg.instructions': 135},
                                  {'value': 0.7, 'lo': 0.66, 'hi': 0.72,
                                   'significant': True})}]}


class Render(unittest.TestCase):
    def render(self) -> str:
        return study.render(study.Inputs(sim=SIM, host=HOST, commands=['./kfront study']))

    def test_deterministic(self) -> None:
        self.assertEqual(self.render(), self.render())

    def test_table_and_sections(self) -> None:
        text = self.render()
        self.assertIn('| net.x | 0.70 [0.66, 0.72] * | 1.350 | 1.200 | 0.00 / 0.00 |', text)
        self.assertNotIn('calib.empty', text)
        self.assertIn('- CPU: Test CPU', text)
        self.assertIn('Fast string copies (CPUID): not recorded', text)
        self.assertIn('### net.x', text)
        self.assertIn('--counter sim.instructions --footprint 0', text)
        self.assertIn('What the simulator cannot see', text)
        # the stream rows' caveat, right after the table and its mean
        self.assertLess(text.index('| net.x |'), text.index(study.COPY_LOOP))
        self.assertIn("Linux's x86-64 `memcpy` is assembly", text)

    def test_crossover(self) -> None:
        self.assertEqual(study.crossover(SIM, 'net.x', 'skylake'), '64 rules')
        self.assertEqual(study.crossover(SIM, 'net.x', 'zen4'), 'n/a')

    def test_chart(self) -> None:
        chart = study.ratio_chart(HOST)
        self.assertIn('net.x', chart)
        self.assertIsNone(study.ratio_chart(None))


def uop_entry(bench: str, variant: str, fp: int, l1i: float,
              uops: dict[str, float]) -> dict:
    """A simulated result under two models: the same L1i figure in both,
    each its own uop-cache misses."""
    per_op = {'sim.instructions': 100.0}
    for model, misses in uops.items():
        per_op[f'sim.{model}.l1i_misses'] = l1i
        per_op[f'sim.{model}.uop_misses'] = misses
    cols = ['instructions', *(f'{m}.uop_misses' for m in uops)]
    return {'bench': bench, 'variant': variant, 'footprint': fp,
            'counters': counters(per_op),
            'sim_functions': {'per': 'run', 'columns': cols,
                              'top': [{'function': 'hot', 'addr': '0x10',
                                       'instructions': 1000,
                                       **{f'{m}.uop_misses': v * 10
                                          for m, v in uops.items()}}],
                              'other': {'functions': 0, 'instructions': 0}}}


# zen4 named first by the run, though after skylake by name
UOP_SIM = {'git': 'abc', 'extra': {'sim': {'models': ['zen4', 'skylake']}},
           'results': [
               uop_entry('net.x', 'O2', 0, 0.0, {'skylake': 100, 'zen4': 10}),
               uop_entry('net.x', 'Os', 0, 0.0, {'skylake': 50, 'zen4': 30}),
               uop_entry('net.x', 'O2', 64, 2.0, {'skylake': 200, 'zen4': 100}),
               uop_entry('net.x', 'Os', 64, 1.0, {'skylake': 203, 'zen4': 0.001}),
               uop_entry('sched.y', 'O2', 0, 0.0, {'skylake': 0.001, 'zen4': 0}),
               uop_entry('sched.y', 'Os', 0, 0.0, {'skylake': 0.005, 'zen4': 4})]}


class UopCache(unittest.TestCase):
    def test_tally(self) -> None:
        # skylake: fewer at net.x @0; within 5 % at @64; both next to
        # nothing at sched.y. zen4: more at net.x @0 and sched.y (O2 0),
        # fewer at @64
        self.assertEqual(study.uop_tally(UOP_SIM, 'skylake'), (1, 0, 2))
        self.assertEqual(study.uop_tally(UOP_SIM, 'zen4'), (1, 2, 0))

    def test_section(self) -> None:
        text = study.render(study.Inputs(sim=UOP_SIM, host=None))
        self.assertIn('Simulated L1i misses per operation, skylake and zen4 '
                      '(the same figures under each), O2 / Os:', text)
        self.assertEqual(text.count('Simulated L1i misses per operation'), 1)
        self.assertIn('## The uop cache per model', text)
        self.assertIn('| skylake | 1 | 0 | 2 |', text)
        self.assertIn('| zen4 | 1 | 2 | 0 |', text)
        self.assertIn('Simulated uop-cache misses per operation, skylake, '
                      'O2 / Os:', text)
        self.assertIn('| net.x | 10.00 / 30.00 | 100.00 / 0.00 |', text)
        # the run's first model is the one the workload sections explain
        self.assertIn('Uop-cache misses at footprint 0 (zen4): `./kfront '
                      'explain SIM/results.json --bench net.x --counter '
                      'sim.zen4.uop_misses --footprint 0`', text)

    def test_share_tables(self) -> None:
        """With the uops by source, each model's share over the sweep; a
        study from before they were written (UOP_SIM) has no such table."""
        self.assertNotIn('Uop-cache share', study.render(study.Inputs(sim=UOP_SIM, host=None)))
        sim = {'git': 'abc', 'results': [dict(e) for e in UOP_SIM['results']]}
        shares = {('net.x', 'O2', 0): (99, 1), ('net.x', 'Os', 0): (95, 5),
                  ('net.x', 'O2', 64): (1, 3), ('net.x', 'Os', 64): (1, 1),
                  ('sched.y', 'O2', 0): (0, 0), ('sched.y', 'Os', 0): (1, 0)}
        for e in sim['results']:
            dsb, mite = shares[(e['bench'], e['variant'], e['footprint'])]
            e['counters'] = dict(e['counters'], **counters({'sim.zen4.uops_dsb': dsb,
                                                            'sim.zen4.uops_mite': mite}))
        text = study.render(study.Inputs(sim=sim, host=None))
        # the one table gets the share of its model (the first by name)
        # only where it was counted: here skylake has none
        self.assertNotIn('sim uop-cache share O2 / Os', text)
        for e in sim['results']:
            e['counters']['sim.skylake.uops_dsb'] = e['counters']['sim.zen4.uops_dsb']
            e['counters']['sim.skylake.uops_mite'] = e['counters']['sim.zen4.uops_mite']
        one = study.render(study.Inputs(sim=sim, host=None))
        self.assertIn('| sim uop-cache share O2 / Os (skylake) |', one)
        self.assertIn('| 0.00 / 0.00 | 99.0% / 95.0% |', one)
        self.assertIn('Uop-cache share, zen4:', text)
        self.assertNotIn('Uop-cache share, skylake:', text)
        self.assertIn('| net.x | 99.0% / 95.0% | 25.0% / 50.0% |', text)
        # no uops counted: '-', not a share
        self.assertIn('| sched.y | - / 100.0% | n/a / n/a |', text)

    def test_prefetch_note(self) -> None:
        """A MODEL@noprefetch column says what it is; without one, nothing."""
        self.assertNotIn('without its next-line prefetch',
                         study.render(study.Inputs(sim=UOP_SIM, host=None)))
        data = {'git': 'abc', 'results': [
            uop_entry('net.x', v, fp, l1i, {'skylake': 1, 'skylake@noprefetch': 1})
            for v, fp, l1i in (('O2', 0, 0.0), ('Os', 0, 0.0), ('O2', 64, 2.0),
                               ('Os', 64, 1.0))]}
        for e in data['results']:
            e['counters']['sim.skylake@noprefetch.l1i_misses'] = {
                'per_op': {'median': 4 * e['counters']['sim.skylake.l1i_misses']
                           ['per_op']['median']}}
        text = study.render(study.Inputs(sim=data, host=None))
        self.assertIn('| workload | skylake | skylake@noprefetch |', text)
        self.assertIn('skylake@noprefetch: the same model without its next-line prefetch',
                      text)
        self.assertIn('Simulated L1i misses per operation, skylake@noprefetch, O2 / Os:',
                      text)

    def test_models_apart(self) -> None:
        sim = {'git': 'abc', 'results': [
            uop_entry('net.x', 'O2', 0, 1.0, {'skylake': 1}),
            uop_entry('net.x', 'O2', 64, 1.0, {'skylake': 1}),
            uop_entry('net.x', 'O2', 0, 2.0, {'zen4': 1}),
            uop_entry('net.x', 'O2', 64, 2.0, {'zen4': 1})]}
        sim['results'] = [{**a, 'counters': {**a['counters'], **b['counters']}}
                          for a, b in zip(sim['results'][:2], sim['results'][2:])]
        text = study.render(study.Inputs(sim=sim, host=None))
        self.assertIn('Simulated L1i misses per operation, skylake, O2:', text)
        self.assertIn('Simulated L1i misses per operation, zen4, O2:', text)

    def test_apart_below_the_printed_digits(self) -> None:
        """Figures that print alike but differ are not called the same."""
        sim = {'git': 'abc', 'results': [
            uop_entry('net.x', 'O2', 0, 1.0, {'skylake': 1}),
            uop_entry('net.x', 'O2', 64, 1.0, {'skylake': 1})]}
        for e, l1i in zip(sim['results'], (1.001, 1.0)):
            e['counters']['sim.zen4.l1i_misses'] = {'per_op': {'median': l1i}}
        text = study.render(study.Inputs(sim=sim, host=None))
        self.assertNotIn('the same figures under each', text)
        self.assertIn('Simulated L1i misses per operation, zen4, O2:', text)

    def test_no_uop_counters(self) -> None:
        self.assertNotIn('The uop cache per model',
                         study.render(study.Inputs(sim=SIM, host=HOST)))


class Summarise(unittest.TestCase):
    def test_groups(self) -> None:
        a = explain.FunctionDiff('recv', 0, 300, None, None, excerpt=[
            '41 instructions in O2, 30 in Os', 'rep movs: 0 in O2, 1 in Os; in Os:',
            '    40bbe0: rep movsb %ds:(%rsi),%es:(%rdi)'])
        b = explain.FunctionDiff('write', 5, 300, None, None, excerpt=[
            'rep movs: 0 in O2, 1 in Os; in Os:', 'call: 1 in O2, 0 in Os; in O2:'])
        c = explain.FunctionDiff('memcpy', 560, 0, None, None)
        self.assertEqual(study.summarise([a, b, c]), [
            'more `rep movs` in Os: recv, write',
            'more `call` in O2: write',
            'own code only in O2 (inlined or not called in the other): memcpy (560 per run)',
            'own code only in Os (inlined or not called in the other): recv (300 per run)'])


if __name__ == '__main__':
    unittest.main()


class KeptPrograms(unittest.TestCase):
    """A study keeps the programs it explained; `--from` reads them, and
    without them says that build/'s stand in."""

    def test_kept_and_read_back(self) -> None:
        with tempfile.TemporaryDirectory() as tmp:
            build_dir, out = Path(tmp, 'build'), Path(tmp, 'study')
            (build_dir / 'host').mkdir(parents=True)
            (build_dir / 'kfront.elf').write_bytes(b'kernel')
            for v in ('O2', 'Os', 'hybrid'):
                (build_dir / 'host' / f'kfront-host-{v}').write_bytes(v.encode())
            with mock.patch.object(paths, 'BUILD', build_dir), \
                    mock.patch.object(paths, 'kernel_path',
                                      return_value=build_dir / 'kfront.elf'):
                err = io.StringIO()
                with redirect_stderr(err):
                    kernel, host = cmd_study.programs(out)
                self.assertEqual(kernel, build_dir / 'kfront.elf')
                self.assertEqual(host['Os'], build_dir / 'host' / 'kfront-host-Os')
                self.assertIn('holds no programs/', err.getvalue())
                cmd_study.keep_programs(out)
                # build/ moves on (another table, later code)
                (build_dir / 'host' / 'kfront-host-Os').unlink()
                err = io.StringIO()
                with redirect_stderr(err):
                    kernel, host = cmd_study.programs(out)
            self.assertEqual(err.getvalue(), '')
            self.assertEqual(kernel, out / 'programs' / 'kfront.elf')
            self.assertEqual(host['Os'].read_bytes(), b'Os')
            self.assertEqual(sorted(p.name for p in (out / 'programs').iterdir()),
                             ['kfront-host-O2', 'kfront-host-Os', 'kfront-host-hybrid',
                              'kfront.elf'])


class Helpers(unittest.TestCase):
    """The probe's table of the copy and checksum helpers goes under the
    copy-loop note, with its command; a study without it has none."""

    def test_table_with_its_command(self) -> None:
        table = 'helper speed on CPU 1 (Test)\nmemcpy (lib/string.c, out of line):\n  64  5.5\n'
        text = study.render(study.Inputs(sim=SIM, host=HOST, helpers=table,
                                         helpers_command='tools/probes/helper_speed.py -x'))
        at = text.index(study.COPY_LOOP)
        self.assertLess(at, text.index('(`tools/probes/helper_speed.py -x`):'))
        self.assertIn('```\nhelper speed on CPU 1 (Test)\nmemcpy (lib/string.c, out of line):\n'
                      '  64  5.5\n```', text)
        self.assertNotIn('helper_speed', study.render(study.Inputs(sim=SIM, host=HOST)))

    def test_kept_when_the_probe_runs(self) -> None:
        with tempfile.TemporaryDirectory() as tmp:
            out = Path(tmp)
            ok = mock.Mock(returncode=0, stdout='the table\n', stderr='')
            with mock.patch.object(cmd_study.subprocess, 'run', return_value=ok) as run:
                cmd_study.time_helpers(out)
            self.assertEqual(run.call_args.args[0][1:], cmd_study.HELPERS)
            self.assertEqual((out / cmd_study.HELPERS_OUT).read_text(), 'the table\n')
            (out / cmd_study.HELPERS_OUT).unlink()
            failed = mock.Mock(returncode=1, stdout='', stderr='no build')
            err = io.StringIO()
            with mock.patch.object(cmd_study.subprocess, 'run', return_value=failed), \
                    redirect_stderr(err):
                cmd_study.time_helpers(out)
            self.assertFalse((out / cmd_study.HELPERS_OUT).exists())
            self.assertIn('failed (exit 1): no build', err.getvalue())


def host_doc(flip: dict[tuple[str, str], dict] | None = None) -> dict:
    """A real host-style results document (the clean fixture's three
    calib points, renamed into the study's families, context "user" as
    the host harness writes), with some of its ratios to O2 replaced."""
    run = collect.collect_file(FIXTURES / 'clean.log').runs[0]
    doc = json.loads(json.dumps(results.build_results(run, {'source': 'clean',
                                                            'context': 'user'})))
    for e in doc['results']:
        e['bench'] = e['bench'].replace('calib.', 'net.')
        ratio = e['counters']['tsc'].get('ratio')
        if ratio and (e['bench'], e['variant']) in (flip or {}):
            ratio.update(flip[(e['bench'], e['variant'])])
    return doc


class Repeat(unittest.TestCase):
    """The timings taken again after the counting runs: the document says
    which verdicts against O2 the second run repeats (kfront compare's
    agreement), and a study without the second run reads as before."""

    def test_paragraph(self) -> None:
        first = host_doc()
        again = host_doc({('net.calls', 'Os'): {'value': 1.03},
                          ('net.memcpy20', 'hybrid'): {'significant': False}})
        text = study.render(study.Inputs(sim=None, host=first, host_again=again,
                                         host_path='S/host/results.json',
                                         host_again_path='S/host-again/results.json'))
        self.assertIn('`./kfront compare S/host/results.json S/host-again/results.json`',
                      text)
        self.assertIn('Of the 6 verdicts of Os and the hybrid against O2', text)
        self.assertIn('4 are the same in both runs: 1 loss, 3 ties. 1 is a win or a loss '
                      'in one run and a tie in the other, and 1 a win in one and a loss in '
                      'the other: net.calls Os (win, then loss).', text)
        self.assertIn('| the same, timed again |', text)
        self.assertRegex(text, r'over these 3 workloads: [0-9.]+ \(timed again: [0-9.]+\)\.')
        same = study.render(study.Inputs(sim=None, host=first, host_again=first))
        self.assertIn('6 are the same in both runs: 2 losses, 3 ties, 1 win (net.calls Os). '
                      '0 are a win or a loss in one run and a tie in the other, and 0 a win '
                      'in one and a loss in the other. A point\'s time ratio moved by a '
                      'median of 0.0 % between the runs (at most 0.0 %: ', same)
        self.assertIn("where the first run's 95 % intervals (median ±", same)

    def test_where_the_code_ran_from(self) -> None:
        # the fixture documents, like every study before 2026-12-07, say
        # nothing of the placement: both ran the build's file as it stood
        first, again = host_doc(), host_doc()
        text = study.render(study.Inputs(sim=None, host=first, host_again=again))
        self.assertIn("Both timing runs ran the build's program file as it stood", text)
        for doc in (first, again):
            doc['extra']['host'] = {'placement': placement.FRESH}
        text = study.render(study.Inputs(sim=None, host=first, host_again=again))
        self.assertIn('Each timing run ran from a fresh copy of the program', text)
        self.assertNotIn('as it stood', text)

    def test_points_marked_where_os_moved(self) -> None:
        """The per-footprint table marks `!` where Os's verdict against O2
        is not the same in the second run: those points, and no others."""
        again = host_doc({('net.calls', 'Os'): {'value': 1.03},
                          ('net.memcpy20', 'hybrid'): {'significant': False}})
        cmp, problem = study._timed_again(study.Inputs(sim=None, host=host_doc(),
                                                       host_again=again))
        self.assertEqual((study._moved(cmp), problem), ({('net.calls', 0)}, ''))
        self.assertEqual(study._timed_again(study.Inputs(sim=None, host=host_doc())),
                         (None, ''))

    def test_without_a_second_run(self) -> None:
        text = study.render(study.Inputs(sim=SIM, host=HOST))
        self.assertNotIn('Do the verdicts repeat', text)
        self.assertNotIn('timed again', text)
        self.assertRegex(text, r'over these 1 workloads: 0\.700\.')

    def test_measured_last_alone(self) -> None:
        args = mock.Mock(quick=False, variants_file=None, doc=None, reuse=None)
        cmds = cmd_study.commands(args, Path('/tmp/out'))
        self.assertEqual(list(cmds), ['host', 'sim', 'hostvg', 'host-again'])
        self.assertEqual(cmds['host-again'][:-4], cmds['host'][:-4])
        self.assertIn('/tmp/out/host-again', cmds['host-again'])


class OtherTable(unittest.TestCase):
    """`kfront study --variants-file FILE`: the runs use FILE, the document
    names it and goes beside docs/findings.md instead of replacing it (its
    chart too), and a table whose O2 and Os take Linux-style helpers gets
    their note instead of the copy-loop one; --from keeps the table."""

    def args(self, vfile: Path | None, **kw) -> object:
        return mock.Mock(quick=False, variants_file=vfile, doc=None, reuse=None, **kw)

    def test_commands_and_document_name(self) -> None:
        table = paths.ROOT / 'bench' / 'variants-asm-string.ini'
        cmds = cmd_study.commands(self.args(table), Path('/tmp/out'))
        for name in ('host', 'sim', 'hostvg'):
            self.assertIn('--variants-file bench/variants-asm-string.ini', ' '.join(cmds[name]))
        self.assertNotIn('--variants-file', ' '.join(cmd_study.commands(self.args(None),
                                                                        Path('/o'))['sim']))
        self.assertEqual(cmd_study.default_doc(table),
                         paths.ROOT / 'docs' / 'findings-variants-asm-string.md')
        self.assertEqual(cmd_study.default_doc(None), paths.ROOT / 'docs' / 'findings.md')

    def test_table_problems(self) -> None:
        self.assertIsNone(cmd_study.table_problem(None))
        self.assertIsNone(cmd_study.table_problem(paths.ROOT / 'bench' / 'variants-asm-string.ini'))
        self.assertRegex(cmd_study.table_problem(paths.ROOT / 'bench' / 'hybrid-candidates.ini'),
                         r'the study compares O2, Os, hybrid; the table has no O2, Os$')
        self.assertIn('no such file', cmd_study.table_problem(Path('/nonexistent.ini')))

    def test_render_with_linux_helpers(self) -> None:
        asm = [{'name': n, 'flags': f'-{n[1:]} -DKFRONT_ASM_STRING'} for n in ('O2', 'Os')]
        text = study.render(study.Inputs(
            sim=dict(SIM, variants=asm), host=dict(HOST, variants=asm),
            variants_file='bench/variants-asm-string.ini', chart='findings-x/time-ratio.svg'))
        self.assertIn('Variant table: `bench/variants-asm-string.ini`', text)
        self.assertIn(study.ASM_HELPERS, text)
        self.assertNotIn(study.COPY_LOOP, text)
        # which body each run ran comes from its machine record
        self.assertIn('In the host harness what memcpy and memset ran is not known', text)
        self.assertIn('in the simulated kernel what memcpy and memset ran is not known', text)
        self.assertIn('](findings-x/time-ratio.svg)', text)

    def test_from_keeps_the_table(self) -> None:
        with tempfile.TemporaryDirectory() as tmp:
            out = Path(tmp)
            (out / 'study.json').write_text(
                '{"commands": {}, "note": "", "variants_file": "bench/variants-asm-string.ini"}')
            args = self.args(None)
            args.reuse = out
            with mock.patch.object(cmd_study, 'write', return_value=0) as write:
                self.assertEqual(cmd_study.run(args), 0)
            self.assertEqual(write.call_args.args[0].variants_file,
                             paths.ROOT / 'bench' / 'variants-asm-string.ini')
