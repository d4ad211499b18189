# SPDX-License-Identifier: GPL-2.0-or-later
"""Boot kfront.iso in QEMU, stream its serial output, map its exit status.

Exit status convention (README.md, "Exit status"): the kernel writes its status to
isa-debug-exit and QEMU exits with (status << 1) | 1. A QEMU exit of 0
means the kernel never reported (a reset, a shutdown, or QEMU's own
error); a timeout kills QEMU and is reported as 124.
"""
from __future__ import annotations

import os
import selectors
import shutil
import signal
import subprocess
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from kfront import lifecycle

TIMEOUT_STATUS = 124
# QEMU devices behind `--nic`: the modern-only virtio 1.0 transport (the
# driver speaks nothing else) and the 82540EM e1000.
NIC_DEVICES = {
    'virtio': 'virtio-net-pci,disable-legacy=on',
    'e1000': 'e1000',
}
# Host side of every forward: this machine's loopback, never an outside
# address.
FORWARD_HOST = '127.0.0.1'
# What a guest on QEMU user networking connects to in order to reach this
# machine's loopback (QEMU relays 10.0.2.2:PORT to 127.0.0.1:PORT).
GUEST_HOST_ADDR = '10.0.2.2'

OVMF_CANDIDATES = ('/usr/share/ovmf/OVMF.fd', '/usr/share/qemu/OVMF.fd')
KERNEL_FIRST_LINE = b'kfront '


@dataclass
class BootConfig:
    iso: Path
    firmware: str = 'bios'          # bios | uefi
    accel: str = 'tcg'              # tcg | kvm
    timeout: float = 300.0
    kernel_args: list[str] = field(default_factory=list)
    memory_mb: int = 512
    cpu: str | None = None          # QEMU -cpu; None: max (tcg) or host (kvm)
    smp: int = 1                    # QEMU -smp: virtual CPUs
    extra_qemu_args: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class Forward:
    """A port of this machine's loopback forwarded into the guest."""
    proto: str          # tcp | udp
    host_port: int
    guest_port: int

    @staticmethod
    def parse(text: str) -> 'Forward':
        """[tcp:|udp:]HOSTPORT:GUESTPORT"""
        parts = text.split(':')
        proto = 'tcp'
        if len(parts) == 3:
            proto = parts.pop(0)
        if proto not in ('tcp', 'udp') or len(parts) != 2:
            raise ValueError(f'{text!r}: want [tcp:|udp:]HOSTPORT:GUESTPORT')
        try:
            host, guest = (int(p) for p in parts)
        except ValueError:
            raise ValueError(f'{text!r}: ports must be numbers') from None
        if not (0 < host < 65536 and 0 < guest < 65536):
            raise ValueError(f'{text!r}: ports must be 1-65535')
        return Forward(proto, host, guest)


def nic_qemu_args(nic: str, forwards: list[Forward]) -> list[str]:
    """User-mode networking (slirp: guest 10.0.2.15, gateway 10.0.2.2)
    with the given forwards, behind the chosen card."""
    if nic not in NIC_DEVICES:
        raise ValueError(f'unknown NIC {nic!r}: one of {", ".join(NIC_DEVICES)}')
    netdev = 'user,id=n0' + ''.join(
        f',hostfwd={f.proto}:{FORWARD_HOST}:{f.host_port}-:{f.guest_port}'
        for f in forwards)
    return ['-netdev', netdev, '-device', f'{NIC_DEVICES[nic]},netdev=n0']


@dataclass
class BootResult:
    status: int | None              # the kernel's own exit status
    qemu_rc: int
    timed_out: bool
    output: bytes
    elapsed_s: float
    first_line_s: float | None      # QEMU start to the kernel's first line
    command: list[str]
    cpu_s: float | None = None      # QEMU's user + system CPU seconds, all threads

    @property
    def text(self) -> str:
        return self.output.decode('utf-8', errors='replace')

    def exit_code(self) -> int:
        """What `kfront boot` exits with."""
        if self.timed_out:
            return TIMEOUT_STATUS
        if self.status is None:
            return 125
        return self.status


def ovmf_firmware() -> str | None:
    for path in OVMF_CANDIDATES:
        if os.path.exists(path):
            return path
    return None


def qemu_command(cfg: BootConfig, cmdline_file: Path | None) -> list[str]:
    qemu = shutil.which('qemu-system-x86_64') or 'qemu-system-x86_64'
    cmd = [qemu, '-M', 'q35', '-m', str(cfg.memory_mb), '-smp', str(cfg.smp),
           '-display', 'none', '-monitor', 'none', '-serial', 'stdio',
           '-no-reboot',
           '-device', 'isa-debug-exit,iobase=0xf4,iosize=0x04',
           '-cdrom', str(cfg.iso), '-boot', 'd']
    default_cpu = 'host' if cfg.accel == 'kvm' else 'max'
    cmd += ['-accel', cfg.accel, '-cpu', cfg.cpu or default_cpu]
    if cfg.firmware == 'uefi':
        fw = ovmf_firmware()
        if fw is None:
            raise FileNotFoundError('UEFI boot needs OVMF (Debian package ovmf)')
        cmd += ['-bios', fw]
    if cmdline_file is not None:
        # Extra kernel arguments travel through fw_cfg: the ISO and its
        # GRUB menu stay the same for every boot (kernel/main.c).
        cmd += ['-fw_cfg', f'name=opt/kfront/cmdline,file={cmdline_file}']
    return cmd + cfg.extra_qemu_args


def kernel_arg_problem(kernel_args: list[str]) -> str | None:
    """Why these arguments cannot reach the kernel, or None.

    The command line travels as UTF-8 text through fw_cfg; an argument
    that came from the shell as undecodable bytes (Python keeps them as
    surrogate escapes) cannot be written there.
    """
    for arg in kernel_args:
        try:
            arg.encode('utf-8')
        except UnicodeEncodeError:
            raw = os.fsencode(arg)
            return f'kernel argument {raw!r} is not valid UTF-8'
    return None


def cpu_models(qemu: str = 'qemu-system-x86_64') -> list[str]:
    """The CPU model names `qemu-system-x86_64 -cpu help` lists."""
    res = subprocess.run([qemu, '-cpu', 'help'], stdin=subprocess.DEVNULL,
                         capture_output=True, text=True, timeout=60)
    models = []
    for line in res.stdout.splitlines():
        # "x86 Skylake-Client-v1  Intel Core Processor (Skylake)"
        parts = line.split()
        if len(parts) >= 2 and parts[0] == 'x86':
            models.append(parts[1])
    return models


def cpu_features_problem(cpu: str, accel: str = 'tcg',
                         qemu: str = 'qemu-system-x86_64') -> str | None:
    """What QEMU says about the features of `cpu` (MODEL,FEATURES), asked
    of QEMU itself: it takes more +flag/-flag and NAME=VALUE properties
    than `-cpu help` lists. A machine with that CPU is made, paused, and
    quit at once through the monitor (a few tenths of a second)."""
    if ',' not in cpu:
        return None
    try:
        res = subprocess.run([qemu, '-machine', 'q35', '-accel', accel, '-cpu', cpu, '-S',
                              '-display', 'none', '-nodefaults', '-no-user-config',
                              '-monitor', 'stdio'], input='quit\n', capture_output=True,
                             text=True, timeout=60)
    except (OSError, subprocess.TimeoutExpired):
        return None     # no verdict: QEMU itself will say at boot
    if res.returncode == 0:
        return None
    lines = [ln for ln in res.stderr.splitlines() if ln.strip()]
    why = lines[0].removeprefix(f'{qemu}: ') if lines else f'status {res.returncode}'
    return f'--cpu {cpu}: QEMU refuses it: {why}'


def cpu_problem(cpu: str, known: list[str]) -> str | None:
    """Why `cpu` (MODEL or MODEL,FEATURES) is not a model QEMU knows."""
    model = cpu.split(',', 1)[0]
    if model in known:
        return None
    return (f'unknown CPU model {model!r}: `qemu-system-x86_64 -cpu help` lists '
            f'the {len(known)} valid ones (e.g. qemu64, Nehalem, Skylake-Client, '
            f'EPYC, max)')


def _status_from_rc(rc: int) -> int | None:
    if rc > 0 and rc & 1:
        return rc >> 1
    return None


def boot(cfg: BootConfig, log: Path | None = None,
         on_output: Callable[[bytes], None] | None = None) -> BootResult:
    """Run one boot to its end (or the timeout)."""
    return boot_many([cfg], [log], on_output)[0]


def boot_many(cfgs: list[BootConfig], logs: list[Path | None],
              on_output: Callable[[bytes], None] | None = None) -> list[BootResult]:
    """Run several boots at once, each to its end (or its timeout); the
    first one's output goes to on_output. A stop signal (lifecycle.py)
    ends them all: no QEMU is left behind."""
    with tempfile.TemporaryDirectory(prefix='kfront-boot-') as tmp:
        cmds = []
        for n, cfg in enumerate(cfgs):
            cmdline_file = None
            if cfg.kernel_args:
                cmdline_file = Path(tmp) / f'cmdline{n}'
                cmdline_file.write_text(' '.join(cfg.kernel_args), encoding='utf-8')
            cmds.append(qemu_command(cfg, cmdline_file))
        return _run_many(cmds, [cfg.timeout for cfg in cfgs], logs, on_output)


@dataclass
class _Proc:
    """One QEMU being run by _run_many()."""
    cmd: list[str]
    timeout: float
    proc: subprocess.Popen[bytes]
    logf: Any
    out: bytearray = field(default_factory=bytearray)
    first_line: float | None = None
    timed_out: bool = False
    done: bool = False
    end: float = 0.0
    cpu_s: float | None = None

    def finish(self, sel: selectors.BaseSelector, timed_out: bool = False) -> None:
        """Its output has ended (or its time is up): stop watching it."""
        self.done, self.timed_out = True, timed_out
        self.end = time.monotonic()
        sel.unregister(self.proc.stdout)


def _exited(proc: subprocess.Popen[bytes]) -> bool:
    """True once the process has ended, without reaping it: _reap()
    then reads its CPU time."""
    if proc.returncode is not None:
        return True
    try:
        return os.waitid(os.P_PID, proc.pid,
                         os.WEXITED | os.WNOHANG | os.WNOWAIT) is not None
    except ChildProcessError:
        return True


def _reap(proc: subprocess.Popen[bytes]) -> float | None:
    """Wait for the process; its user + system CPU seconds (all its
    threads: QEMU's TCG thread and the simulator plugin run in them), or
    None if something else reaped it first."""
    if proc.returncode is not None:
        return None
    try:
        _, status, usage = os.wait4(proc.pid, 0)
    except ChildProcessError:
        # reaped elsewhere: Popen then says 0, which gives no kernel
        # status (_status_from_rc), never a clean exit
        proc.wait()
        return None
    proc.returncode = os.waitstatus_to_exitcode(status)
    return usage.ru_utime + usage.ru_stime


def _reap_all(procs: list[_Proc]) -> None:
    """Reap every QEMU (each has ended or been killed) and close its
    files. A stop signal that comes meanwhile (lifecycle.py ignores any
    further ones) must not leave the others unreaped: it is raised once
    all are."""
    stop: BaseException | None = None
    for p in procs:
        while True:
            try:
                p.cpu_s = _reap(p.proc)
                break
            except (KeyboardInterrupt, lifecycle.Stopped) as exc:
                stop = stop or exc
        p.proc.stdout.close()
        if p.logf:
            p.logf.close()
    if stop is not None:
        raise stop


def _run_many(cmds: list[list[str]], timeouts: list[float], logs: list[Path | None],
              on_output: Callable[[bytes], None] | None) -> list[BootResult]:
    start = time.monotonic()
    procs: list[_Proc] = []
    sel = selectors.DefaultSelector()
    try:
        for cmd, timeout, log in zip(cmds, timeouts, logs):
            logf = open(log, 'wb') if log else None
            try:
                proc = subprocess.Popen(cmd, stdin=subprocess.DEVNULL,
                                        stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                        start_new_session=True,
                                        preexec_fn=lifecycle.die_with_parent)
            except BaseException:
                if logf:
                    logf.close()
                raise
            procs.append(_Proc(cmd, timeout, proc, logf))
            sel.register(proc.stdout, selectors.EVENT_READ, len(procs) - 1)
        while not all(p.done for p in procs):
            now = time.monotonic()
            for p in procs:
                if not p.done and now - start >= p.timeout:
                    p.finish(sel, timed_out=True)
            if all(p.done for p in procs):
                break
            left = min(p.timeout - (now - start) for p in procs if not p.done)
            events = sel.select(timeout=min(left, 0.5))
            for p in procs:
                if not p.done and not events and _exited(p.proc):
                    p.finish(sel)
            for key, _ in events:
                p = procs[key.data]
                chunk = os.read(p.proc.stdout.fileno(), 65536)
                if not chunk:
                    p.finish(sel)
                    continue
                if p.first_line is None and KERNEL_FIRST_LINE in p.out + chunk:
                    p.first_line = time.monotonic() - start
                p.out += chunk
                if p.logf:
                    p.logf.write(chunk)
                    p.logf.flush()
                if on_output and key.data == 0:
                    on_output(chunk)
    finally:
        # every QEMU still running is killed before any is waited for
        for p in procs:
            if p.timed_out or not _exited(p.proc):
                try:
                    os.killpg(p.proc.pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
        _reap_all(procs)
        sel.close()
    results = []
    for p in procs:
        rc = p.proc.returncode
        results.append(BootResult(status=None if p.timed_out else _status_from_rc(rc),
                                  qemu_rc=rc, timed_out=p.timed_out, output=bytes(p.out),
                                  elapsed_s=(p.end or time.monotonic()) - start,
                                  first_line_s=p.first_line, command=p.cmd,
                                  cpu_s=p.cpu_s))
    return results
