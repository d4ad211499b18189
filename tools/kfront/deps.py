# SPDX-License-Identifier: GPL-2.0-or-later
"""The Debian packages kfront needs, and installing the missing ones."""
from __future__ import annotations

import os
import shutil
import subprocess
import sys

# Package -> why kfront needs it.
PACKAGES: dict[str, str] = {
    'gcc': 'compiles the kernel, variants and host tests',
    'binutils': 'ld, objcopy, objdump, nm for linking and size reports',
    'nasm': 'assembles the boot path and the context switch',
    'meson': 'build system',
    'ninja-build': 'build backend',
    'python3': 'the kfront tool itself',
    'git': 'records the commit of each build',
    'qemu-system-x86': 'boots the kernel (TCG) for runs and tests',
    'grub-pc-bin': 'BIOS GRUB for the ISO',
    'grub-efi-amd64-bin': 'UEFI GRUB for the ISO',
    'grub-common': 'grub-mkrescue',
    'xorriso': 'writes the ISO image',
    'mtools': 'builds the EFI system partition inside the ISO',
    'ovmf': 'UEFI firmware for QEMU boots',
    'clang': 'the clang variants and the libFuzzer target',
    'libclang-rt-14-dev': 'libFuzzer and sanitizer runtimes for clang',
    'valgrind': 'callgrind/cachegrind counts; validates the fesim plugin',
    'netcat-openbsd': 'nc: the interoperability tests talk to the echo service with it too',
    'qemu-user': 'qemu-x86_64 runs the fesim validation program under the plugin',
    'pyflakes3': '`kfront test` lints the Python code (tools/, tests/) with it',
    'lava-common': "LAVA's job schema: the tests validate `kfront lava-job` output",
    'chromium': 'headless browser: the tests lay report.html out at phone and desktop widths',
}

# `kfront setup --lab` adds these. lava-dispatcher brings lava-run, which the
# LAVA boot tests drive; it is about 150 packages (libguestfs, kernel
# headers, ...), so a plain setup leaves it out and those tests skip.
LAB_PACKAGES: dict[str, str] = {
    'lava-dispatcher': 'lava-run: the LAVA boot tests run generated jobs through it',
}


def wanted_packages(lab: bool = False) -> list[str]:
    return list(PACKAGES) + (list(LAB_PACKAGES) if lab else [])


def missing_packages(lab: bool = False) -> list[str]:
    """Packages not installed, by dpkg's record; [] when dpkg is absent."""
    if not shutil.which('dpkg-query'):
        return []
    wanted = wanted_packages(lab)
    out = subprocess.run(
        ['dpkg-query', '-W', '-f=${Package} ${db:Status-Status}\n', *wanted],
        capture_output=True, text=True).stdout
    installed = {line.split()[0] for line in out.splitlines()
                 if line.endswith(' installed')}
    return [p for p in wanted if p not in installed]


def _apt_prefix() -> list[str] | None:
    if os.geteuid() == 0:
        return []
    if shutil.which('sudo'):
        return ['sudo']
    return None


def ensure(quiet: bool = False, lab: bool = False) -> bool:
    """Install what is missing (with lab: LAB_PACKAGES too). Returns
    False with a message on failure."""
    if not shutil.which('dpkg-query'):
        need = [t for t in ('gcc', 'nasm', 'meson', 'ninja', 'qemu-system-x86_64',
                            'grub-mkrescue', 'xorriso') if not shutil.which(t)]
        if need:
            print('kfront: not a Debian/Ubuntu system and these tools are missing: '
                  + ', '.join(need) + '. Install the equivalents of: '
                  + ' '.join(wanted_packages(lab)), file=sys.stderr)
            return False
        return True
    missing = missing_packages(lab)
    if not missing:
        if not quiet:
            print('kfront setup: all %d packages present' % len(wanted_packages(lab)))
        return True
    prefix = _apt_prefix()
    if prefix is None:
        print('kfront: missing packages and no root or sudo to install them:\n'
              '  apt-get install ' + ' '.join(missing), file=sys.stderr)
        return False
    print('kfront setup: installing ' + ' '.join(missing), flush=True)
    env = dict(os.environ, DEBIAN_FRONTEND='noninteractive')
    for cmd in (['apt-get', 'update', '-qq'],
                ['apt-get', 'install', '-y', '-qq', '--no-install-recommends', *missing]):
        res = subprocess.run(prefix + cmd, env=env, stdout=subprocess.PIPE,
                             stderr=subprocess.STDOUT, text=True)
        if res.returncode != 0:
            print(res.stdout[-3000:], file=sys.stderr)
            print('kfront: "%s" failed (exit %d)' % (' '.join(cmd), res.returncode),
                  file=sys.stderr)
            return False
    still = missing_packages(lab)
    if still:
        print('kfront: still missing after install: ' + ' '.join(still), file=sys.stderr)
        return False
    return True
