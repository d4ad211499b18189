# SPDX-License-Identifier: GPL-2.0-or-later
"""LAVA job definitions for kfront: the monitor patterns that turn the
kernel's result records into LAVA test cases, the timeouts sized from
kfront's measured run times, and the job for a QEMU worker or a bare-metal
x86_64 box. docs/labs.md explains how a lab uses them.

LAVA's `test: monitors:` action reads the console through pexpect: every
pattern is a Python regular expression compiled with re.DOTALL and searched
(not matched) in a window of the last 4000 characters of what arrived so
far, with reads of at most 2000 characters (lava_dispatcher.shell,
2023.01). The patterns here are written for that:

- no `.`: a character class that excludes newlines keeps a match on one line;
- a pattern only needs the head of a record (the TSC counter comes first in
  "counters"), which always fits in the window, never the whole record;
- every group ends at a delimiter that must already have arrived, so a record
  half-way through the serial link never matches with a cut-off value.

LAVA makes a test case id from the `test_case_id` group by lower-casing it
and replacing each run of non-word characters with "_", so a result record
of calib.memcpy20 for variant O2 becomes the test case
`calib_memcpy20_variant_o2` with the median TSC ticks per operation as its
measurement and unit "tsc".
"""
from __future__ import annotations

import hashlib
import math
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from . import kargs

MONITOR_NAME = 'kfront'

# The kernel's first console line: "kfront 0.1.0 (822e30674104) booting".
# GRUB's "Booting `kfront: ...'" line has a capital B and no version.
MONITOR_START = r'kfront [^ \n]+ \([^)\n]*\) booting'

# kernel_exit() prints this last, after suite_end or after a panic report,
# whichever exit mode (halt, reboot, qemu) follows.
MONITOR_END = r'kfront: exit status [0-9]+'

# One record of type result, error, timeout or panic. Group 2 is set for a
# result record, group 3 for a panic; the conditionals pick each type's
# shape, because Python's re refuses a group name used twice.
MONITOR_PATTERN = (
    r'#KF[12] [0-9]+ [0-9a-f]{8} \{"t":"(?P<result>(result)|error|timeout|(panic))",'
    # A panic record starts with its name (kernel/panic.c); logs of
    # kernels from before that put an exception's vector first.
    r'"(?(3)(?:vector":[0-9]+,")?name":"|bench":")'
    r'(?P<test_case_id>'
    # panic: its name up to the last word character ("page fault (#PF").
    r'(?(3)[^"\n]*?\w(?=[^\w"\n]*")'
    # otherwise benchmark and variant; a result record adds its footprint
    # and event group when they tell it apart from the plain case (a sweep,
    # or the second PMU group), an error or timeout its footprint.
    r'|[^"\n]+","variant":"[^"\n]+'
    r'(?(2)(?:","op":"[^"\n]*",(?:"footprint":[0-9]+,"group":[0-9]+|"group":[1-9][0-9]*))?'
    r'|(?:","footprint":[0-9]+)?)))'
    # result: skip to the TSC counter, always the first one.
    r'(?(2)[^\n]*?"counters":\{")'
    # units: "tsc" for a result, empty otherwise (never None: lava-server
    # stores units as text).
    r'(?P<units>(?(2)tsc))'
    r'(?(2)":\{[^{}\n]*?"median_per_op":(?P<measurement>[0-9]+(?:\.[0-9]+)?)[,}]'
    # other records: the next key must have arrived, and must not be the
    # footprint, so an id is never cut before its footprint.
    r'|[^\w"\n]*"?,"(?!footprint")[a-z_]+":)'
)

FIXUPDICT = {'result': 'pass', 'error': 'fail', 'timeout': 'fail', 'panic': 'fail'}

# Run times measured on the development machine (QEMU 7.2 TCG, 2-core VM,
# Debian 12, commit 822e306), from QEMU start to "kfront: exit status":
# `kfront run --quick` 8 s, the full suite (7 benchmarks x 3 variants) 77 s.
# TCG emulates every instruction; a bare-metal box or a KVM worker runs the
# same suite faster, but its firmware and network boot take minutes.
MEASURED_QUICK_S = 8.0
MEASURED_FULL_S = 77.0
# Margin over the measured time for a slower worker, more variants, or a
# PMU box that measures each benchmark once per event group.
RUN_MARGIN = 4.0
RUN_SLACK_S = 60.0

DEVICE_TYPES = ('qemu', 'x86')
# The LAVA device type a generated job asks for. A bare-metal box needs a
# type whose boot methods include `grub` (one based on base-grub.jinja2,
# e.g. lab/lava/device-types/x86-grub.jinja2): LAVA's stock `x86` type boots
# with iPXE, which loads multiboot (1) kernels only.
LAVA_DEVICE_TYPE = {'qemu': 'qemu', 'x86': 'x86-grub'}


@dataclass
class JobSpec:
    """What one LAVA job runs, and where its image comes from."""

    device_type: str = 'qemu'          # qemu | x86
    quick: bool = False
    bench: str | None = None
    variants: str | None = None
    extra_args: list[str] = field(default_factory=list)
    image_url: str = ''
    sha256: str | None = None
    accel: str = 'tcg'                 # qemu only: tcg | kvm
    lava_device_type: str | None = None
    job_name: str | None = None
    # The test action's timeout in seconds instead of the one sized from
    # the measured suite: a test that wants LAVA to cut a silent kernel
    # short, or a lab that knows its boxes.
    test_timeout_s: int | None = None

    def kernel_args(self) -> list[str]:
        """The kernel command line; halt at the end, LAVA powers off."""
        sel = kargs.Selection(quick=self.quick, variants=self.variants, bench=self.bench,
                              extra=tuple(self.extra_args))
        return kargs.build(sel, trailing=('exit=halt',))


@dataclass(frozen=True)
class Timeouts:
    """Per-action timeouts of a job, in minutes."""

    deploy: int
    boot: int
    test: int

    @property
    def job(self) -> int:
        return self.deploy + self.boot + self.test + 2


def minutes(seconds: float) -> int:
    return max(1, math.ceil(seconds / 60.0))


def timeouts(spec: JobSpec) -> Timeouts:
    """Timeouts from the measured run time of the suite the job runs.

    A subset of the benchmarks or variants runs faster than the measured
    suite, so the same bound holds. The kernel's own watchdog (budget_ms)
    ends a hung benchmark; these only catch a kernel that stopped talking.
    """
    run = MEASURED_QUICK_S if spec.quick else MEASURED_FULL_S
    test = minutes(run * RUN_MARGIN + RUN_SLACK_S)
    if spec.device_type == 'qemu':
        # Copying a 10 MB ISO into tmpfs, then starting QEMU.
        return Timeouts(deploy=5, boot=2, test=test)
    # Power cycle, firmware POST, PXE and GRUB on a server: minutes.
    return Timeouts(deploy=5, boot=10, test=test)


def monitor() -> dict[str, Any]:
    return {'name': MONITOR_NAME, 'start': MONITOR_START, 'end': MONITOR_END,
            'pattern': MONITOR_PATTERN, 'fixupdict': dict(FIXUPDICT)}


def qemu_string(value: str) -> str:
    """A value inside a QEMU option list: commas are doubled."""
    return value.replace(',', ',,')


def _timeout(n: int) -> dict[str, int]:
    return {'minutes': n}


def _test_timeout(spec: JobSpec, t: Timeouts) -> dict[str, int]:
    if spec.test_timeout_s is None:
        return _timeout(t.test)
    if spec.test_timeout_s < 1:
        raise ValueError(f'test timeout {spec.test_timeout_s} s: want at least 1 s')
    return {'seconds': spec.test_timeout_s}


def _image(spec: JobSpec, extra: dict[str, str]) -> dict[str, Any]:
    image: dict[str, Any] = {'url': spec.image_url, **extra}
    if spec.sha256:
        image['sha256sum'] = spec.sha256
    return image


def _qemu_actions(spec: JobSpec, t: Timeouts) -> tuple[dict, list[dict]]:
    cmdline = ' '.join(spec.kernel_args())
    # LAVA joins the QEMU command into one string and pexpect splits it
    # again, honouring double quotes: the quoted value keeps its spaces.
    options = ['-machine q35', '-smp 1', '-boot d',
               f'-fw_cfg "name=opt/kfront/cmdline,string={qemu_string(cmdline)}"']
    context: dict[str, Any] = {'arch': 'amd64', 'memory': 512}
    if spec.accel == 'tcg':
        # The device type adds "-cpu host -enable-kvm" unless told not to.
        context['no_kvm'] = True
        options.insert(0, '-cpu max')
    context['extra_options'] = options
    actions = [
        {'deploy': {'timeout': _timeout(t.deploy), 'to': 'tmpfs',
                    'images': {'iso': _image(spec, {'image_arg': '-cdrom {iso}'})}}},
        {'boot': {'timeout': _timeout(t.boot), 'method': 'qemu', 'media': 'tmpfs'}},
    ]
    return context, actions


def _x86_actions(spec: JobSpec, t: Timeouts) -> list[dict]:
    cmdline = ' '.join(spec.kernel_args())
    commands = [
        'net_bootp',
        f'multiboot2 (tftp,{{SERVER_IP}})/{{KERNEL}} {cmdline}',
        'boot',
    ]
    return [
        {'deploy': {'timeout': _timeout(t.deploy), 'to': 'tftp',
                    'kernel': _image(spec, {})}},
        {'boot': {'timeout': _timeout(t.boot), 'method': 'grub',
                  'commands': commands}},
    ]


def job(spec: JobSpec) -> dict[str, Any]:
    """The LAVA job definition (a dict in LAVA's job schema)."""
    if spec.device_type not in DEVICE_TYPES:
        raise ValueError(f'unknown device type {spec.device_type!r}')
    t = timeouts(spec)
    suite = 'quick suite' if spec.quick else 'full suite'
    name = spec.job_name or f'kfront: {suite} on {spec.device_type}'
    out: dict[str, Any] = {
        'job_name': name,
        'device_type': spec.lava_device_type or LAVA_DEVICE_TYPE[spec.device_type],
        'visibility': 'public',
        'priority': 'medium',
        'timeouts': {'job': _timeout(t.job), 'connection': _timeout(2)},
        'metadata': {'kfront.cmdline': ' '.join(spec.kernel_args()),
                     'kfront.suite': 'quick' if spec.quick else 'full'},
    }
    if spec.device_type == 'qemu':
        context, actions = _qemu_actions(spec, t)
        out['context'] = context
    else:
        actions = _x86_actions(spec, t)
    actions.append({'test': {'timeout': _test_timeout(spec, t), 'monitors': [monitor()]}})
    out['actions'] = actions
    return out


def sha256_file(path: Path) -> str:
    h = hashlib.sha256()
    with open(path, 'rb') as fh:
        for chunk in iter(lambda: fh.read(1 << 20), b''):
            h.update(chunk)
    return h.hexdigest()


# -- YAML output (standard library only) ------------------------------------

_PLAIN_KEY = re.compile(r'^[A-Za-z_][A-Za-z0-9_.-]*$')


def _scalar(value: Any) -> str:
    if value is None:
        return 'null'
    if isinstance(value, bool):
        return 'true' if value else 'false'
    if isinstance(value, (int, float)):
        return str(value)
    # Single quotes: backslashes stay literal (regexes), only ' is doubled.
    return "'" + str(value).replace("'", "''") + "'"


def _key(key: str) -> str:
    return key if _PLAIN_KEY.match(key) else _scalar(key)


def _emit(value: Any, indent: int, out: list[str]) -> None:
    pad = ' ' * indent
    if isinstance(value, dict):
        for k, v in value.items():
            if isinstance(v, (dict, list)) and v:
                out.append(f'{pad}{_key(k)}:')
                _emit(v, indent + 2, out)
            else:
                out.append(f'{pad}{_key(k)}: {_inline(v)}')
    elif isinstance(value, list):
        for item in value:
            if isinstance(item, dict) and item:
                sub: list[str] = []
                _emit(item, indent + 2, sub)
                out.append(f'{pad}- {sub[0].lstrip()}')
                out.extend(sub[1:])
            elif isinstance(item, list) and item:
                out.append(f'{pad}-')
                _emit(item, indent + 2, out)
            else:
                out.append(f'{pad}- {_inline(item)}')


def _inline(value: Any) -> str:
    if isinstance(value, dict):
        return '{}'
    if isinstance(value, list):
        return '[]'
    return _scalar(value)


def to_yaml(data: dict[str, Any], header: str = '') -> str:
    """Block-style YAML of plain dicts, lists, strings, ints and bools."""
    out = [f'# {line}' if line else '#' for line in header.splitlines()]
    _emit(data, 0, out)
    return '\n'.join(out) + '\n'


# -- a device dictionary for lava-run on this machine -----------------------

def qemu_device(job_def: dict[str, Any]) -> dict[str, Any]:
    """The device dictionary lava-server would render for a `qemu` job.

    lava-server renders qemu.jinja2 with the job's context (arch, memory,
    no_kvm, extra_options) into a device dictionary; `lava-run` alone does
    no rendering, so a local run needs this one. It follows the template's
    QEMU options for amd64 (2023.01).
    """
    context = job_def.get('context', {})
    options = []
    if not context.get('no_kvm'):
        options += ['-cpu host', '-enable-kvm']
    options += ['-nographic',
                '-net nic,model=virtio,macaddr=52:54:00:12:34:58 -net user',
                f'-m {context.get("memory", 512)}',
                '-monitor none']
    return {
        'device_type': 'qemu',
        'available_architectures': ['amd64', 'x86_64'],
        'constants': {
            # Read by the dispatcher even when the job never uses them.
            'kernel-start-message': MONITOR_START,
            'shutdown-message': MONITOR_END,
            'default-shell-prompt': 'lava-test: # ',
            'spawn_maxread': '2000',
            'failure_retry': 1,
            'boot_retry': 1,
            'posix': {'lava_test_sh_cmd': '/bin/sh',
                      'lava_test_results_dir': '/lava-%s',
                      'lava_test_shell_file': '~/.bashrc'},
        },
        'commands': {'connect': ''},
        'actions': {
            'deploy': {'connections': {'serial': None},
                       'methods': {'image': {'parameters': {'guest': {
                           'size': 512, 'interface': 'ide', 'driveid': 'lavatest'}}}}},
            'boot': {'connections': {'serial': None},
                     'methods': {'qemu': {'parameters': {
                         'command': 'qemu-system-x86_64',
                         'options': options,
                         'extra': list(context.get('extra_options', []))}}}},
        },
        'timeouts': {'actions': {}, 'connections': {}},
    }
