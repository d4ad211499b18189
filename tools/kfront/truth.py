# SPDX-License-Identifier: GPL-2.0-or-later
"""Sources of truth: what a run can honestly measure on this machine, and
the one line that says so at the top of every output.

- Ring-0 PMU: the kernel's machine record says rdpmc works (bare metal,
  KVM with a vPMU). Its counters are the measurement.
- No PMU in ring 0 (QEMU TCG raises #UD for rdpmc, or a VM without a
  vPMU): the front-end simulator (fesim) counts the kernel's own code in
  kernel context, with the model nearest to this machine's CPU, and the
  host harness times the same variants on this CPU in user space. TSC
  ticks of a TCG guest time QEMU's translated code, not a CPU front end:
  they are shown only as "emulator time".

Everything is decided here, from the run's records and /proc/cpuinfo, so
the terminal, report.md, report.html and results.json's `truth` key agree.
"""
from __future__ import annotations

import re
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from . import cpu_models

CPUINFO = Path('/proc/cpuinfo')
FALLBACK_MODEL = 'skylake'

# The preset for each core of the model table (cpu_models.py, from the
# kernel's arch/x86/cpu_model_table.h): (preset, exact, why it is only the
# nearest). The JCC erratum's microcode rule applies to Skylake to Cascade
# Lake only (Intel white paper 341810), so older and newer cores of that
# line take skylake-nojcc. Redwood and Lion Cove fetch from a 64 KiB L1i.
_SKYLAKE_LINE = ' (the same 32 KiB L1i and 1536-uop cache; no JCC erratum)'
_SKYLAKE_LATER = ' (no JCC erratum; its uop cache is larger)'
_COVE_64K = ' (its L1i is 64 KiB)'
_LION_COVE = ' (its L1i is 64 KiB, its uop cache larger)'
CORE_PRESETS: dict[str, tuple[str, bool, str]] = {
    'sandybridge': ('skylake-nojcc', False, _SKYLAKE_LINE),
    'ivybridge': ('skylake-nojcc', False, _SKYLAKE_LINE),
    'haswell': ('skylake-nojcc', False, _SKYLAKE_LINE),
    'broadwell': ('skylake-nojcc', False, _SKYLAKE_LINE),
    'skylake': ('skylake', True, ''),
    'icelake': ('skylake-nojcc', False, _SKYLAKE_LATER),
    'tigerlake': ('skylake-nojcc', False, _SKYLAKE_LATER),
    'alderlake': ('goldencove', True, ''),
    'sapphirerapids': ('goldencove', True, ''),
    'meteorlake': ('goldencove', False, _COVE_64K),
    'graniterapids': ('goldencove', False, _COVE_64K),
    'arrowlake': ('goldencove', False, _LION_COVE),
    'lunarlake': ('goldencove', False, _LION_COVE),
    'zen': ('zen4', False, ''),
    'zen2': ('zen4', False, ''),
    'zen3': ('zen4', False, ' (same 32 KiB 8-way L1i, smaller op cache)'),
    'zen4': ('zen4', True, ''),
    'zen5': ('zen4', False, ' (no Zen 5 preset; its op cache and fetch differ)'),
}
# AMD families the zen4 preset is nearest to, for a model the table lacks.
AMD_ZEN_FAMILIES = (0x17, 0x19, 0x1a)

SOURCE_PMU = 'pmu'
SOURCE_SIM = 'sim'
SOURCE_HOST = 'host'
SOURCE_EMULATOR = 'emulator'


@dataclass(frozen=True)
class CpuId:
    vendor: str
    family: int
    model: int
    name: str = ''


@dataclass(frozen=True)
class ModelChoice:
    """The fesim preset for a CPU, and in words why."""

    model: str
    exact: bool
    note: str


def parse_cpuinfo(text: str) -> CpuId | None:
    """Vendor, family, model and name of the first CPU in /proc/cpuinfo."""
    fields: dict[str, str] = {}
    for line in text.splitlines():
        if not line.strip():
            if fields:
                break
            continue
        key, sep, value = line.partition(':')
        if sep:
            fields.setdefault(key.strip(), value.strip())
    try:
        return CpuId(fields['vendor_id'], int(fields['cpu family']), int(fields['model']),
                     fields.get('model name', ''))
    except (KeyError, ValueError):
        return None


def read_host_cpu(path: Path = CPUINFO) -> CpuId | None:
    try:
        return parse_cpuinfo(path.read_text(encoding='utf-8', errors='replace'))
    except OSError:
        return None


def _from_table(cpu: CpuId, what: str) -> ModelChoice | None:
    entry = cpu_models.lookup(cpu.vendor, cpu.family, cpu.model)
    if entry is None:
        return None
    preset, exact, why = CORE_PRESETS[entry.core]
    how = 'preset' if exact else 'nearest preset'
    return ModelChoice(preset, exact, f'{what} is {entry.name}: {how} {preset}{why}')


def _not_in_table(cpu: CpuId, what: str) -> ModelChoice:
    if cpu.vendor == 'AuthenticAMD' and cpu.family in AMD_ZEN_FAMILIES:
        later = ' past Zen 5' if cpu.family == 0x1a else ''
        return ModelChoice('zen4', False, f'{what} is a Zen core{later} kfront does not '
                           'know: nearest preset zen4 (no preset for its front end)')
    return ModelChoice(FALLBACK_MODEL, False, f'{what}: no preset; {FALLBACK_MODEL}')


def sim_model_for(cpu: CpuId | None) -> ModelChoice:
    """The fesim model matching a CPU's vendor and generation, else skylake."""
    if cpu is None:
        return ModelChoice(FALLBACK_MODEL, False,
                           f'host CPU unknown (no /proc/cpuinfo): {FALLBACK_MODEL}')
    what = f'host CPU {cpu.vendor} family {cpu.family:#x} model {cpu.model:#x}'
    return _from_table(cpu, what) or _not_in_table(cpu, what)


@dataclass
class Truth:
    """What a run measured and how far each figure can be trusted."""

    pmu: bool
    pmu_reason: str
    environment: str                   # 'QEMU TCG', 'QEMU KVM', 'bare metal', ...
    sources: list[str] = field(default_factory=list)
    sim_models: list[str] = field(default_factory=list)
    sim_model_note: str = ''
    host: str = ''                      # what the host harness ran on, '' when not run
    host_note: str = ''                 # why no host figures, when there are none
    line: str = ''

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Truth:
        known = {k: d[k] for k in cls.__dataclass_fields__ if k in d}
        return cls(**known)


def pmu_state(machine: dict[str, Any]) -> tuple[bool, str]:
    """(rdpmc works in ring 0, the kernel's reason when it does not)."""
    pmu = machine.get('pmu') if isinstance(machine.get('pmu'), dict) else {}
    if pmu.get('available'):
        return True, ''
    return False, str(pmu.get('reason') or 'the kernel reported no PMU')


def environment(machine: dict[str, Any], accel: str | None) -> str:
    hv = str(machine.get('hypervisor') or '')
    if accel == 'tcg' or hv.startswith('TCGTCG'):
        return 'QEMU TCG'
    if accel == 'kvm' or hv.startswith('KVMKVM'):
        return 'QEMU KVM'
    if hv:
        return f'hypervisor {hv}'
    return 'bare metal'


def decide(machine: dict[str, Any], accel: str | None, sim_models: list[str],
           sim_model_note: str = '', host: str = '', host_note: str = '') -> Truth:
    """The sources of truth of one run, and its truth line."""
    pmu, reason = pmu_state(machine)
    env = environment(machine, accel)
    sources = [SOURCE_PMU] if pmu else []
    if sim_models:
        sources.append(SOURCE_SIM)
    if host:
        sources.append(SOURCE_HOST)
    if not pmu:
        sources.append(SOURCE_EMULATOR if env == 'QEMU TCG' else 'tsc')
    t = Truth(pmu, reason, env, sources, list(sim_models), sim_model_note, host, host_note)
    t.line = truth_line(t)
    return t


def truth_line(t: Truth) -> str:
    """One line: what was measured, by what, and what is only emulator time."""
    if t.pmu:
        head = f'Truth: ring-0 PMU counters ({t.environment}, rdpmc works)'
    else:
        head = f'Truth: no PMU in ring 0 ({t.environment})'
    parts = []
    if t.sim_models:
        parts.append(f'simulated front end {",".join(t.sim_models)} (kernel code, '
                     f'deterministic; {t.sim_model_note or "model chosen by --sim"})')
    if t.host:
        parts.append(f'real-CPU time in user space on {t.host} (host harness, TSC)')
    elif t.host_note and not t.pmu:
        parts.append(f'no real-CPU time: {t.host_note}')
    if not t.pmu:
        parts.append('ring-0 TSC under TCG is emulator time, not CPU time'
                     if t.environment == 'QEMU TCG'
                     else 'ring-0 TSC ticks only (no counters)')
    return head + (': ' + '; '.join(parts) if parts else '')


def from_results(extra: dict[str, Any]) -> Truth | None:
    """The stored truth of a results document's `truth` key, if any."""
    if not isinstance(extra, dict) or not extra:
        return None
    return Truth.from_dict(extra)


CPU_NAME_RE = re.compile(r'\s+')


def host_label(cpu: CpuId | None) -> str:
    """How the host CPU is named in the truth line."""
    if cpu is None:
        return 'this CPU'
    name = CPU_NAME_RE.sub(' ', cpu.name).strip() or cpu.vendor
    return f'{name} (family {cpu.family:#x} model {cpu.model:#x})'
