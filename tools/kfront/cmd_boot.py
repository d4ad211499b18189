# SPDX-License-Identifier: GPL-2.0-or-later
"""`kfront boot`: boot the ISO in QEMU and stream the serial console."""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

from kfront import argtypes, build, kargs, lifecycle, names, paths, qemu, sim


def add_boot_options(p: argparse.ArgumentParser) -> None:
    p.add_argument('--firmware', choices=('bios', 'uefi'), default='bios',
                   help='SeaBIOS (default) or OVMF UEFI')
    p.add_argument('--accel', choices=('tcg', 'kvm'), default='tcg',
                   help='tcg (default). On machines like this one, a VM without '
                        'nested hardware support, KVM runs the guest far slower '
                        'than TCG: use it only on real hardware hosts')
    p.add_argument('--cpu', metavar='MODEL',
                   help='QEMU CPU model, optionally with features (MODEL[,+feat,...]): '
                        'qemu64, Nehalem, Skylake-Client, EPYC, ...; '
                        '`qemu-system-x86_64 -cpu help` lists them (default: max, '
                        'or host with --accel kvm)')
    p.add_argument('--memory', type=argtypes.memory_mb, default=512, metavar='SIZE',
                   help=f'guest memory as QEMU -m reads it: 64M, 1G, ... '
                        f'({argtypes.MEMORY_MIN_MB}M to {argtypes.MEMORY_MAX_MB // 1024}G, '
                        f'default 512M)')
    p.add_argument('--smp', type=argtypes.vcpu_count, default=1, metavar='N',
                   help=f'virtual CPUs, 1 to {argtypes.SMP_MAX} (default 1; the '
                        f'benchmarks run on the first)')


def machine_problem(args: argparse.Namespace) -> str | None:
    """What is wrong with --cpu, or None. The model list comes from the
    installed QEMU, so a model it lacks fails here rather than as a QEMU
    error after the build."""
    if args.cpu is None:
        return None
    return (qemu.cpu_problem(args.cpu, qemu.cpu_models())
            or qemu.cpu_features_problem(args.cpu, args.accel))


def machine_config(args: argparse.Namespace) -> dict:
    """The BootConfig fields that add_boot_options sets."""
    return {'firmware': args.firmware, 'accel': args.accel, 'cpu': args.cpu,
            'memory_mb': args.memory, 'smp': args.smp}


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser('boot', help='boot the ISO in QEMU and stream its serial output',
                       description='Boot kfront.iso in QEMU, stream the serial output '
                       'to stdout (and --log FILE), and exit with the kernel\'s own '
                       'status (124 on timeout, 125 if the kernel never reported).')
    add_boot_options(p)
    p.add_argument('--timeout', type=argtypes.positive_seconds, default=300.0,
                   metavar='SECONDS', help='kill QEMU after this long (default 300)')
    p.add_argument('--log', type=Path, help='also write the serial output here')
    p.add_argument('--nic', choices=sorted(qemu.NIC_DEVICES),
                   help='add a network card on QEMU user networking (the guest '
                        'is 10.0.2.15/24, gateway 10.0.2.2); pair it with kernel '
                        'arguments such as serve=echo,discard')
    p.add_argument('--forward', action='append', default=[], metavar='[udp:]HOST:GUEST',
                   help='forward 127.0.0.1:HOST on this machine to the guest\'s '
                        'port GUEST (tcp unless "udp:"; repeatable; needs --nic)')
    p.add_argument('--sim', metavar='MODELS',
                   help='run under the fesim front-end simulator: MODEL[@POLICY],... '
                        '(e.g. skylake,skylake@plru; docs/fesim.md); needs --accel tcg')
    p.add_argument('--sim-out', type=Path, metavar='FILE',
                   help='where fesim writes its JSON lines (default: '
                        'build/fesim-boot.jsonl); needs --sim')
    p.add_argument('kernel_args', nargs='*', metavar='KERNEL_ARGS',
                   help='kernel arguments, after "--" (e.g. -- bench=none)')
    p.set_defaults(func=run)


def sim_problem(args: argparse.Namespace) -> str | None:
    """What is wrong with --sim/--sim-out, or None (a usage error)."""
    if args.sim is None:
        return '--sim-out needs --sim' if args.sim_out is not None else None
    if args.accel != 'tcg':
        return '--sim needs --accel tcg (the plugin is a TCG plugin)'
    try:
        sim.parse_models(args.sim)
    except sim.SimError as exc:
        return f'--sim: {exc}'
    return None


def sim_qemu_args(args: argparse.Namespace) -> tuple[list[str], Path | None]:
    """QEMU arguments and output file of --sim (none without it)."""
    if args.sim is None:
        return [], None
    out = args.sim_out or paths.BUILD / 'fesim-boot.jsonl'
    return sim.plugin_args(sim.plugin_path(), sim.parse_models(args.sim),
                           out.resolve(), pages=kargs.text_pages(args.kernel_args)), out


def report_sim(out: Path) -> int:
    """Print the whole-boot totals of a --sim boot; 1 if unreadable."""
    try:
        data = sim.load(out)
    except sim.SimError as exc:
        print(f'kfront boot: --sim: {exc}', file=sys.stderr)
        return 1
    for line in sim.whole_boot_lines(data):
        print(f'kfront boot: {line}', file=sys.stderr)
    print(f'kfront boot: fesim output in {out}', file=sys.stderr)
    return 0


def run(args: argparse.Namespace) -> int:
    problem = (qemu.kernel_arg_problem(args.kernel_args) or machine_problem(args)
               or names.kernel_args_problem(args.kernel_args) or sim_problem(args))
    if problem:
        print(f'kfront boot: {problem}', file=sys.stderr)
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
    sim_args, sim_out = sim_qemu_args(args)
    if sim_out is not None:
        if not sim.plugin_path().exists():
            print(f'kfront boot: --sim: the fesim plugin was not built '
                  f'({sim.plugin_path()})', file=sys.stderr)
            return 1
        sim_out.parent.mkdir(parents=True, exist_ok=True)
        extra += sim_args
    cfg = qemu.BootConfig(iso=paths.iso_path(), timeout=args.timeout,
                          kernel_args=args.kernel_args, extra_qemu_args=extra,
                          **machine_config(args))

    def echo(chunk: bytes) -> None:
        sys.stdout.buffer.write(chunk)
        sys.stdout.buffer.flush()

    if args.log:
        lifecycle.salvage_hint(f'./kfront collect {args.log}')
    res = qemu.boot(cfg, log=args.log, on_output=echo)
    lifecycle.clear_salvage_hint()
    if res.timed_out:
        print(f'\nkfront boot: timeout after {args.timeout:g} s: QEMU killed',
              file=sys.stderr)
    elif res.status is None:
        print(f'\nkfront boot: the kernel never reported an exit status '
              f'(QEMU exit code {res.qemu_rc})', file=sys.stderr)
    if sim_out is not None and not res.timed_out and report_sim(sim_out):
        return res.exit_code() or 1
    return res.exit_code()
