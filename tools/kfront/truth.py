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

CPUINFO = Path('/proc/cpuinfo')
FALLBACK_MODEL = 'skylake'

# Intel family 6 models by front end (Intel SDM vol. 4 model table; Linux
# arch/x86/include/asm/intel-family.h). Golden Cove and its successors
# Raptor Cove / Redwood Cove keep a 32 KiB L1i and a 4K-uop cache.
INTEL_GOLDENCOVE = {
    0x97: 'Alder Lake', 0x9a: 'Alder Lake-L', 0xb7: 'Raptor Lake',
    0xba: 'Raptor Lake-P', 0xbf: 'Raptor Lake-S', 0x8f: 'Sapphire Rapids',
    0xcf: 'Emerald Rapids',
}
INTEL_GOLDENCOVE_NEAR = {
    0xaa: 'Meteor Lake (Redwood Cove)', 0xac: 'Meteor Lake (Redwood Cove)',
    0xad: 'Granite Rapids (Redwood Cove)', 0xae: 'Granite Rapids-D (Redwood Cove)',
    0xb5: 'Arrow Lake-U (Redwood Cove)',
}
# Lion Cove (Arrow Lake-S/H, Lunar Lake P-cores): no preset of its own; the
# kernel's PMU table has it (arch/x86/cpu_uarch.c).
INTEL_LIONCOVE = {0xc5: 'Arrow Lake-H (Lion Cove)', 0xc6: 'Arrow Lake (Lion Cove)',
                  0xbd: 'Lunar Lake (Lion Cove)'}
INTEL_SKYLAKE = {
    0x4e: 'Skylake-L', 0x5e: 'Skylake', 0x55: 'Skylake-X / Cascade Lake',
    0x8e: 'Kaby Lake-L / Whiskey Lake', 0x9e: 'Kaby Lake / Coffee Lake',
    0xa5: 'Comet Lake', 0xa6: 'Comet Lake-L',
}
INTEL_SKYLAKE_NEAR = {
    0x7d: 'Ice Lake', 0x7e: 'Ice Lake-L', 0x6a: 'Ice Lake-X', 0x6c: 'Ice Lake-D',
    0x8c: 'Tiger Lake-L', 0x8d: 'Tiger Lake', 0xa7: 'Rocket Lake',
}
# AMD families (PPRs): 0x17 Zen/Zen 2, 0x19 Zen 3/Zen 4, 0x1a Zen 5 and
# Zen 6; the model ranges are those of Linux's arch/x86/kernel/cpu/amd.c, as
# in arch/x86/cpu_uarch.c.
AMD_ZEN4_MODELS = set(range(0x10, 0x20)) | set(range(0x60, 0x80)) | set(range(0xa0, 0xb0))
AMD_ZEN5_MODELS = set(range(0x00, 0x30)) | set(range(0x40, 0x50)) | set(range(0x60, 0x80))

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


def _amd(cpu: CpuId, what: str) -> ModelChoice:
    if cpu.family == 0x19 and cpu.model in AMD_ZEN4_MODELS:
        return ModelChoice('zen4', True, f'{what} is Zen 4: preset zen4')
    if cpu.family == 0x19:
        return ModelChoice('zen4', False, f'{what} is Zen 3: nearest preset zen4 '
                           '(same 32 KiB 8-way L1i, smaller op cache)')
    if cpu.family == 0x1a and cpu.model in AMD_ZEN5_MODELS:
        return ModelChoice('zen4', False, f'{what} is Zen 5: nearest preset zen4 '
                           '(no Zen 5 preset; its op cache and fetch differ)')
    if cpu.family == 0x1a:
        return ModelChoice('zen4', False, f'{what} is past Zen 5: nearest preset zen4 '
                           '(no preset for its front end)')
    if cpu.family == 0x17:
        return ModelChoice('zen4', False, f'{what} is Zen/Zen 2: nearest preset zen4')
    return ModelChoice(FALLBACK_MODEL, False,
                       f'{what}: no preset for AMD family {cpu.family:#x}; {FALLBACK_MODEL}')


def _intel(cpu: CpuId, what: str) -> ModelChoice:
    if cpu.family == 6:
        for table, model, exact in ((INTEL_GOLDENCOVE, 'goldencove', True),
                                    (INTEL_GOLDENCOVE_NEAR, 'goldencove', False),
                                    (INTEL_LIONCOVE, 'goldencove', False),
                                    (INTEL_SKYLAKE, 'skylake', True),
                                    (INTEL_SKYLAKE_NEAR, 'skylake', False)):
            if cpu.model in table:
                how = 'preset' if exact else 'nearest preset'
                return ModelChoice(model, exact,
                                   f'{what} is {table[cpu.model]}: {how} {model}')
    return ModelChoice(FALLBACK_MODEL, False,
                       f'{what}: no preset for Intel family {cpu.family} model '
                       f'{cpu.model:#x}; {FALLBACK_MODEL}')


def sim_model_for(cpu: CpuId | None) -> ModelChoice:
    """The fesim model matching a CPU's vendor and generation, else skylake."""
    if cpu is None:
        return ModelChoice(FALLBACK_MODEL, False,
                           f'host CPU unknown (no /proc/cpuinfo): {FALLBACK_MODEL}')
    what = f'host CPU {cpu.vendor} family {cpu.family:#x} model {cpu.model:#x}'
    if cpu.vendor == 'AuthenticAMD':
        return _amd(cpu, what)
    if cpu.vendor == 'GenuineIntel':
        return _intel(cpu, what)
    return ModelChoice(FALLBACK_MODEL, False, f'{what}: no preset; {FALLBACK_MODEL}')


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
