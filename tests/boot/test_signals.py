# SPDX-License-Identifier: GPL-2.0-or-later
"""No orphans: `kfront boot` and `kfront run`, stopped with SIGINT, SIGTERM
or SIGHUP, or losing their parent, stop QEMU, remove their temporary
directory, keep the partial serial log and say how to collect it; a SIGKILL
of kfront itself still takes QEMU down (tools/kfront/lifecycle.py)."""
from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import tempfile
import time
import unittest
from pathlib import Path

from kfront import build, paths

KFRONT = str(paths.ROOT / 'kfront')
HANG = ['crash=hang']       # the kernel boots, then waits forever
WAIT_S = 60.0


def setUpModule() -> None:
    if not build.build():
        raise RuntimeError('build failed')


def children(pid: int) -> list[int]:
    out = []
    for entry in os.listdir('/proc'):
        if not entry.isdigit():
            continue
        try:
            stat = Path(f'/proc/{entry}/stat').read_text()
        except OSError:
            continue
        # pid (comm) state ppid ...: comm may hold spaces and parentheses
        fields = stat[stat.rfind(')') + 2:].split()
        if int(fields[1]) == pid:
            out.append(int(entry))
    return out


def cmdline(pid: int) -> list[str]:
    try:
        return Path(f'/proc/{pid}/cmdline').read_bytes().decode(
            errors='replace').split('\0')
    except OSError:
        return []


def alive(pid: int) -> bool:
    try:
        state = Path(f'/proc/{pid}/stat').read_text()
    except OSError:
        return False
    return state[state.rfind(')') + 2] != 'Z'


def qemus_of(parent: int) -> list[int]:
    """The QEMUs `parent` started."""
    return [pid for pid in children(parent)
            if any('qemu-system' in a for a in cmdline(pid)[:1])]


def wait_for_qemu(parent: int, log: Path | None = None) -> int:
    """The QEMU that `parent` started; with a log, once the kernel's banner
    is in it (else a few seconds for it to get there)."""
    deadline = time.monotonic() + WAIT_S
    while time.monotonic() < deadline:
        for pid in qemus_of(parent):
            wait_for_banner(log, deadline)
            return pid
        time.sleep(0.2)
    raise AssertionError(f'no QEMU under pid {parent} after {WAIT_S} s')


def wait_for_banner(log: Path | None, deadline: float) -> None:
    if log is None:
        time.sleep(3.0)
        return
    while time.monotonic() < deadline:
        if log.exists() and b'booting' in log.read_bytes():
            return
        time.sleep(0.2)
    raise AssertionError(f'no kernel banner in {log}')


def temp_dir_of(qemu_pid: int) -> Path | None:
    for arg in cmdline(qemu_pid):
        m = re.search(r'file=(/[^,]*kfront-boot-[^/,]+)/cmdline', arg)
        if m:
            return Path(m.group(1))
    return None


def gone(pid: int, within: float = 30.0) -> bool:
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        if not alive(pid):
            return True
        time.sleep(0.2)
    return False


class Stop(unittest.TestCase):
    def stop_and_check(self, argv: list[str], sig: int, log: Path,
                       qemus: int = 1) -> str:
        """Stop kfront with sig once its QEMUs (this many) run; every one
        must end."""
        proc = subprocess.Popen([sys.executable, KFRONT, *argv],
                                stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                start_new_session=True)
        try:
            qpid = wait_for_qemu(proc.pid, log)
            tmp = temp_dir_of(qpid)
            running = qemus_of(proc.pid)
            proc.send_signal(sig)
            out, _ = proc.communicate(timeout=60)
        finally:
            if proc.poll() is None:
                proc.kill()
        text = out.decode(errors='replace')
        want = 130 if sig == signal.SIGINT else 128 + sig
        self.assertEqual(proc.returncode, want, text[-2000:])
        self.assertEqual(len(running), qemus, text[-2000:])
        for pid in running:
            self.assertTrue(gone(pid), f'QEMU {pid} survived {sig}')
        self.assertIsNotNone(tmp)
        self.assertFalse(tmp.exists(), f'{tmp} left behind')
        self.assertIn(f'stopped by {signal.Signals(sig).name}', text)
        return text

    def test_boot(self) -> None:
        with tempfile.TemporaryDirectory() as d:
            log = Path(d) / 'serial.log'
            for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
                with self.subTest(sig=sig.name):
                    text = self.stop_and_check(
                        ['boot', '--log', str(log), '--', *HANG], sig, log)
                    self.assertIn(f'./kfront collect {log}', text)
                    self.assertIn('booting', log.read_text(errors='replace'))

    def test_run(self) -> None:
        for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
            with self.subTest(sig=sig.name), tempfile.TemporaryDirectory() as d:
                out = Path(d) / 'out'
                log = out / 'serial.log'
                # one boot (the default deals the benchmarks over one
                # boot per core; the parallel boots' test is below)
                text = self.stop_and_check(
                    ['run', '--quick', '--sim-jobs', '1', '--out', str(out), '--', *HANG],
                    sig, log)
                self.assertIn(f'./kfront collect {log} --out {out}', text)
                self.assertTrue(log.exists())

    def test_run_with_parallel_simulator_boots(self) -> None:
        # --sim-jobs 2: two QEMUs at once; a SIGTERM ends both
        with tempfile.TemporaryDirectory() as d:
            out = Path(d) / 'out'
            self.stop_and_check(['run', '--quick', '--no-host', '--sim', 'small,small@plru',
                                 '--sim-jobs', '2', '--out', str(out), '--', *HANG],
                                signal.SIGTERM, out / 'serial.log', qemus=2)
            self.assertTrue((out / 'serial-2.log').exists())

    def test_parent_dies(self) -> None:
        # A shell starts kfront and is killed: kfront gets SIGTERM from the
        # kernel (PR_SET_PDEATHSIG) and stops QEMU.
        shell = subprocess.Popen(
            ['sh', '-c', f'"{sys.executable}" "{KFRONT}" boot -- {HANG[0]} '
                         '>/dev/null 2>&1 & wait'],
            start_new_session=True)
        try:
            deadline = time.monotonic() + WAIT_S
            kids: list[int] = []
            while not kids and time.monotonic() < deadline:
                kids = children(shell.pid)
                time.sleep(0.1)
            self.assertTrue(kids, 'the shell started nothing')
            qpid = wait_for_qemu(kids[0])
            shell.kill()
            shell.wait()
            self.assertTrue(gone(kids[0]), 'kfront outlived its parent')
            self.assertTrue(gone(qpid), 'QEMU outlived kfront')
        finally:
            if shell.poll() is None:
                shell.kill()

    def test_sigkill_of_kfront(self) -> None:
        # Nothing can run in kfront after SIGKILL; QEMU still goes
        # (it asked for SIGKILL when its parent dies).
        proc = subprocess.Popen([sys.executable, KFRONT, 'boot', '--', *HANG],
                                stdout=subprocess.DEVNULL,
                                stderr=subprocess.DEVNULL,
                                start_new_session=True)
        qpid = wait_for_qemu(proc.pid)
        proc.kill()
        proc.wait()
        self.assertTrue(gone(qpid), 'QEMU outlived a SIGKILL of kfront')


if __name__ == '__main__':
    unittest.main()
