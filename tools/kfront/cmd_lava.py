# SPDX-License-Identifier: GPL-2.0-or-later
"""`kfront lava-job`: write a LAVA job definition for a QEMU worker or a
bare-metal x86_64 box, with the kernel arguments filled in (docs/labs.md)."""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

from kfront import kargs, lava, names, paths


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser('lava-job', help='write a LAVA job definition (docs/labs.md)',
                       description='Write a LAVA job that boots kfront on a QEMU worker '
                       '(the ISO as a CD-ROM, kernel arguments through fw_cfg) or on a '
                       'bare-metal x86_64 box (the kernel through GRUB and multiboot2), '
                       'with monitor patterns that make one LAVA test case per variant '
                       'and benchmark and a failure per error, timeout or panic record.')
    p.add_argument('--device-type', choices=lava.DEVICE_TYPES, default='qemu',
                   help='qemu (default): a LAVA QEMU worker; x86: a bare-metal box '
                   'whose device type boots with GRUB')
    p.add_argument('--quick', action='store_true', help='the quick suite')
    p.add_argument('--bench', metavar='GLOBS', help='benchmarks, e.g. "sched.*,calib.calls"')
    p.add_argument('--variants', metavar='LIST', help='variants to run, e.g. O2,Os')
    p.add_argument('--image-url', metavar='URL',
                   help='where the worker downloads kfront.iso (qemu) or kfront.elf (x86); '
                   'default: file:// URL of the local build, for a worker on this machine')
    p.add_argument('--no-checksum', action='store_true',
                   help='leave out the sha256sum of the local image')
    p.add_argument('--accel', choices=('tcg', 'kvm'), default='tcg',
                   help='qemu: tcg (default, as kfront run) or kvm on a worker with KVM')
    p.add_argument('--lava-device-type', metavar='NAME',
                   help='device_type in the job (default: qemu, or x86-grub for x86)')
    p.add_argument('--job-name', metavar='NAME', help='job_name in the job')
    p.add_argument('--out', type=Path, metavar='FILE', help='write here instead of stdout')
    p.add_argument('--device-dict', type=Path, metavar='FILE',
                   help='qemu: also write the device dictionary for running the job '
                   'on this machine with `lava-run --device FILE`')
    p.add_argument('extra', nargs='*', metavar='EXTRA_KERNEL_ARGS',
                   help='further kernel arguments after "--"')
    p.set_defaults(func=run, needs_setup=False)


def local_image(device_type: str) -> Path:
    return paths.iso_path() if device_type == 'qemu' else paths.kernel_path()


def make_spec(args: argparse.Namespace) -> lava.JobSpec:
    image = local_image(args.device_type)
    url = args.image_url or image.resolve().as_uri()
    sha = None
    if not args.no_checksum and image.is_file():
        sha = lava.sha256_file(image)
    return lava.JobSpec(device_type=args.device_type, quick=args.quick,
                        bench=args.bench, variants=args.variants,
                        extra_args=list(args.extra), image_url=url, sha256=sha,
                        accel=args.accel, lava_device_type=args.lava_device_type,
                        job_name=args.job_name)


def check_args(args: argparse.Namespace) -> str | None:
    wire = any(a.startswith('peer=') for a in args.extra)
    problem = (kargs.check_lists(args.variants, args.bench)
               or names.selection_problem(args.variants, args.bench, wire=wire,
                                          wire_hint='peer= among the kernel arguments')
               or names.kernel_args_problem(list(args.extra)))
    if problem:
        return problem
    for arg in args.extra:
        if '"' in arg or any(c.isspace() for c in arg):
            return f'kernel argument {arg!r}: no spaces or quotes'
        if arg.startswith('exit='):
            return 'the job sets exit=halt itself: LAVA powers the device off'
    if args.device_dict and args.device_type != 'qemu':
        return '--device-dict is for the qemu device type'
    if args.device_type == 'x86' and args.accel != 'tcg':
        return '--accel applies to the qemu device type only'
    return None


def run(args: argparse.Namespace) -> int:
    err = check_args(args)
    if err:
        print(f'kfront lava-job: {err}', file=sys.stderr)
        return 2
    spec = make_spec(args)
    header = ('LAVA job written by `kfront lava-job`; docs/labs.md explains it.\n'
              f'Kernel command line: {" ".join(spec.kernel_args())}')
    job = lava.job(spec)
    text = lava.to_yaml(job, header)
    if args.device_dict:
        args.device_dict.parent.mkdir(parents=True, exist_ok=True)
        args.device_dict.write_text(lava.to_yaml(lava.qemu_device(job), (
            'Device dictionary for `lava-run --device` on this machine, as lava-server\n'
            'would render it from qemu.jinja2 and the job context.')), encoding='utf-8')
    if args.out:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(text, encoding='utf-8')
        print(f'kfront lava-job: wrote {args.out}', file=sys.stderr)
    else:
        sys.stdout.write(text)
    return 0
