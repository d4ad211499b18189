#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Assemble kfront.iso with grub-mkrescue (BIOS and UEFI images).

The image is written beside the output and renamed over it: a QEMU
booting the old image keeps reading its own file while a rebuild runs,
and a failed grub-mkrescue leaves the old image as it was."""
import os
import shutil
import subprocess
import sys
from pathlib import Path


def main() -> int:
    if len(sys.argv) != 5:
        print('usage: mkiso.py KERNEL.elf grub.cfg OUT.iso WORKDIR', file=sys.stderr)
        return 2
    kernel, cfg, out, work = (Path(a) for a in sys.argv[1:])
    root = work / 'iso'
    if root.exists():
        shutil.rmtree(root)
    (root / 'boot' / 'grub').mkdir(parents=True)
    shutil.copy(kernel, root / 'boot' / 'kfront.elf')
    shutil.copy(cfg, root / 'boot' / 'grub' / 'grub.cfg')
    # The modules the configuration uses are built into both core images,
    # so the ISO boots the same way from a CD, a USB stick or QEMU.
    new = out.with_name(out.name + '.new')
    cmd = ['grub-mkrescue', '-o', str(new),
           '--modules=serial smbios multiboot2 test',
           '--fonts=', '--locales=', '--themes=',
           str(root)]
    res = subprocess.run(cmd, capture_output=True, text=True)
    if res.returncode != 0:
        sys.stderr.write(res.stdout + res.stderr)
        new.unlink(missing_ok=True)
        return res.returncode
    os.replace(new, out)
    return 0


if __name__ == '__main__':
    sys.exit(main())
