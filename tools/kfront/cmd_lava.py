# SPDX-License-Identifier: GPL-2.0-or-later
"""`kfront lava-job`: write a LAVA job definition for a QEMU worker or a
bare-metal x86_64 box, with the kernel arguments filled in (docs/labs.md)."""
from __future__ import annotations

import argparse
import re
import sys
import unicodedata
import urllib.parse
from pathlib import Path

from kfront import kargs, lava, names, output, paths

# A LAVA device type is a short name (a slug in lava-server).
_DEVICE_TYPE_RE = re.compile(r'^[A-Za-z0-9][A-Za-z0-9_.-]*$')
# Control characters, line and paragraph separators (a newline in a YAML
# scalar folds into a space, so the job would not say what was given),
# format characters, and the lone surrogates of bytes that are not UTF-8.
_BAD_CHAR_CATEGORIES = ('Cc', 'Cf', 'Cs', 'Zl', 'Zp')


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


def _bad_char(text: str) -> str | None:
    for c in text:
        if unicodedata.category(c) in _BAD_CHAR_CATEGORIES:
            return f'{text!r}: no control characters (found {c!r})'
    return None


def _url_problem(url: str) -> str | None:
    parts = urllib.parse.urlsplit(url)
    scheme = parts.scheme.lower()
    if any(c.isspace() for c in url) or scheme not in ('http', 'https', 'file') \
            or (scheme != 'file' and not parts.netloc) or not parts.path:
        return f'--image-url {url!r}: want an http://, https:// or file:// URL of the image'
    return None


def _text_problem(args: argparse.Namespace) -> str | None:
    """The free-text options, which end up in the job's YAML as written."""
    for option, value in (('--lava-device-type', args.lava_device_type),
                          ('--job-name', args.job_name), ('--image-url', args.image_url),
                          ('--bench', args.bench), ('--variants', args.variants)):
        problem = value is not None and _bad_char(value)
        if problem:
            return f'{option} {problem}'
    for arg in args.extra:
        problem = _bad_char(arg)
        if problem:
            return f'kernel argument {problem}'
    if args.lava_device_type is not None and not _DEVICE_TYPE_RE.match(args.lava_device_type):
        return (f'--lava-device-type {args.lava_device_type!r}: want a device type name '
                '(letters, digits, "-", "_", ".")')
    if args.image_url is not None:
        return _url_problem(args.image_url)
    return None


def _out_problem(args: argparse.Namespace) -> str | None:
    """Output paths that cannot be files, or one file for two documents."""
    for option, path in (('--out', args.out), ('--device-dict', args.device_dict)):
        if path is not None and path.is_dir():
            return f'{option} {path} is a folder; want a file name'
    if args.out is not None and args.device_dict is not None \
            and output.same_file(args.out, args.device_dict):
        return '--out and --device-dict name the same file; give two files'
    return None


def check_args(args: argparse.Namespace) -> str | None:
    problem = _text_problem(args) or _out_problem(args)
    if problem:
        return problem
    wire = names.has_peer(list(args.extra))
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
    try:
        if args.device_dict:
            _write(args.device_dict, lava.to_yaml(lava.qemu_device(job), (
                'Device dictionary for `lava-run --device` on this machine, as lava-server\n'
                'would render it from qemu.jinja2 and the job context.')))
        if args.out:
            _write(args.out, text)
            print(f'kfront lava-job: wrote {args.out}', file=sys.stderr)
        else:
            sys.stdout.write(text)
    except OSError as exc:
        print(f'kfront lava-job: cannot write {exc.filename or "stdout"}: '
              f'{exc.strerror or exc}', file=sys.stderr)
        return 2
    return 0


def _write(path: Path, text: str) -> None:
    # No exist_ok: under a file, the error is "Not a directory", which says
    # what is wrong, not "File exists".
    if not path.parent.exists():
        path.parent.mkdir(parents=True)
    try:
        path.write_text(text, encoding='utf-8')
    except OSError as exc:
        exc.filename = exc.filename or str(path)  # a failed write or close
        raise
