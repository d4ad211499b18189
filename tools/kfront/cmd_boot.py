# SPDX-License-Identifier: GPL-2.0-or-later
"""`kfront boot`: boot the ISO in QEMU and stream the serial console."""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

from kfront import build, paths, qemu


def add_boot_options(p: argparse.ArgumentParser) -> None:
    p.add_argument('--firmware', choices=('bios', 'uefi'), default='bios',
                   help='SeaBIOS (default) or OVMF UEFI')
    p.add_argument('--accel', choices=('tcg', 'kvm'), default='tcg',
                   help='tcg (default). On machines like this one, a VM without '
                        'nested hardware support, KVM runs the guest far slower '
                        'than TCG: use it only on real hardware hosts')


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser('boot', help='boot the ISO in QEMU and stream its serial output',
                       description='Boot kfront.iso in QEMU, stream the serial output '
                       'to stdout (and --log FILE), and exit with the kernel\'s own '
                       'status (124 on timeout, 125 if the kernel never reported).')
    add_boot_options(p)
    p.add_argument('--timeout', type=float, default=300.0, metavar='SECONDS',
                   help='kill QEMU after this long (default 300)')
    p.add_argument('--log', type=Path, help='also write the serial output here')
    p.add_argument('--nic', choices=sorted(qemu.NIC_DEVICES),
                   help='add a network card on QEMU user networking (the guest '
                        'is 10.0.2.15/24, gateway 10.0.2.2); pair it with kernel '
                        'arguments such as serve=echo,discard')
    p.add_argument('--forward', action='append', default=[], metavar='[udp:]HOST:GUEST',
                   help='forward 127.0.0.1:HOST on this machine to the guest\'s '
                        'port GUEST (tcp unless "udp:"; repeatable; needs --nic)')
    p.add_argument('kernel_args', nargs='*', metavar='KERNEL_ARGS',
                   help='kernel arguments, after "--" (e.g. -- bench=none)')
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    if args.timeout <= 0:
        print('kfront boot: --timeout must be positive', file=sys.stderr)
        return 2
    try:
        forwards = [qemu.Forward.parse(f) for f in args.forward]
    except ValueError as e:
        print(f'kfront boot: --forward {e}', file=sys.stderr)
        return 2
    if forwards and not args.nic:
        print('kfront boot: --forward needs --nic', file=sys.stderr)
        return 2
    if not build.build():
        return 1
    extra = qemu.nic_qemu_args(args.nic, forwards) if args.nic else []
    cfg = qemu.BootConfig(iso=paths.iso_path(), firmware=args.firmware,
                          accel=args.accel, timeout=args.timeout,
                          kernel_args=args.kernel_args, extra_qemu_args=extra)

    def echo(chunk: bytes) -> None:
        sys.stdout.buffer.write(chunk)
        sys.stdout.buffer.flush()

    res = qemu.boot(cfg, log=args.log, on_output=echo)
    if res.timed_out:
        print(f'\nkfront boot: timeout after {args.timeout:g} s: QEMU killed',
              file=sys.stderr)
    elif res.status is None:
        print(f'\nkfront boot: the kernel never reported an exit status '
              f'(QEMU exit code {res.qemu_rc})', file=sys.stderr)
    return res.exit_code()
