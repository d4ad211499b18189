# SPDX-License-Identifier: GPL-2.0-or-later
"""Configure (once) and build the tree with Meson and Ninja."""
from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import TextIO

from kfront import paths, term

sys.path.insert(0, str(paths.ROOT / 'tools' / 'build'))
import pgo_profile  # noqa: E402  (tools/build/pgo_profile.py)


# Set by `kfront test` for its worker processes: this tree is built.
BUILT_ENV = 'KFRONT_TREE_BUILT'


def configured_options(build: Path) -> dict[str, object]:
    """The build directory's configured option values ({} if none)."""
    try:
        return {o['name']: o['value'] for o in json.loads(
            (build / 'meson-info' / 'intro-buildoptions.json').read_text())}
    except (OSError, ValueError, KeyError, TypeError):
        return {}


def _restore_options(build: Path, before: dict[str, object], opts: list[str]) -> None:
    """After a failed build, set the options this build changed back to
    what they were: an option that broke the build (a variants table meson
    could not read) would otherwise stay configured and fail the next
    command's build too."""
    back = []
    for opt in opts:
        name = opt.removeprefix('-D').partition('=')[0]
        if isinstance(before.get(name), str) and f'-D{name}={before[name]}' != opt:
            back.append(f'-D{name}={before[name]}')
    if back:
        subprocess.run(['meson', 'configure', str(build), *back],
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        print(f'kfront: build options set back: {" ".join(back)}', file=sys.stderr)


def _options_in_effect(build: Path, opts: list[str]) -> bool:
    """True when every -Dname=value in opts is already the configured value
    (so `meson configure`, which rewrites the build files, can be skipped)."""
    current = configured_options(build)
    if not current:
        return False
    for opt in opts:
        name, eq, value = opt.removeprefix('-D').partition('=')
        if not opt.startswith('-D') or not eq or str(current.get(name)) != value:
            return False
    return True


PROFILE_DIR_RE = re.compile(r"--profile-dir=(/[^\s']+)")
LAYOUT_RE = re.compile(r"--layout=(/[^\s']+)")


def _profile_newer(build: Path) -> bool:
    """A training profile (build/pgo/SET/profile.json, docs/pgo.md) newer
    than the configuration, or one the configuration uses that no longer
    fits the source tree: the variant table's profile-using variants are
    chosen at configure time (a stale profile leaves its variant out), so
    configure again."""
    try:
        configured = (build / 'build.ninja').stat().st_mtime
    except OSError:
        return False
    made = [*(paths.BUILD / 'pgo').glob('*/profile.json'),
            *(paths.BUILD / 'pgo').glob('*/layout.json')]
    if any(p.stat().st_mtime > configured for p in made):
        return True
    try:
        ninja = (build / 'build.ninja').read_text()
    except OSError:
        return False
    try:
        for d in set(PROFILE_DIR_RE.findall(ninja)):
            pgo_profile.load(Path(d))
        # a function order in use (pgo-layout) that no longer fits
        for f in set(LAYOUT_RE.findall(ninja)):
            pgo_profile.load_layout(Path(f).parent)
    except pgo_profile.ProfileError:
        return True
    return False


def configure(build: Path = paths.BUILD, options: list[str] | None = None) -> bool:
    opts = options or []
    if (build / 'build.ninja').exists():
        if _profile_newer(build):
            res = subprocess.run(['meson', 'setup', '--reconfigure', str(build), *opts],
                                 stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
            if res.returncode != 0:
                sys.stdout.write(res.stdout)
            _show_left_out(res.stdout)
            return res.returncode == 0
        if opts and not _options_in_effect(build, opts):
            res = subprocess.run(['meson', 'configure', str(build), *opts],
                                 stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
            if res.returncode != 0:
                sys.stderr.write(res.stdout)
            return res.returncode == 0
        return True
    cmd = ['meson', 'setup', str(build), str(paths.ROOT),
           '--cross-file', str(paths.CROSS_FILE), *opts]
    res = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if res.returncode != 0:
        sys.stderr.write(res.stdout)
        print('kfront: meson setup failed', file=sys.stderr)
        return False
    _show_left_out(res.stdout)
    return True


def _show_left_out(meson_output: str) -> None:
    """Meson's warnings about variants left out of the image (no usable
    profile), which the quiet build would otherwise hide."""
    for line in meson_output.splitlines():
        if 'left out of the image' in line:
            print(f'kfront: {line.strip()}', file=sys.stderr, flush=True)


def table_problem(build: Path, options: list[str] | None) -> str | None:
    """Why the variant table a build without a -Dvariants_file option
    would use cannot be read, or None. `kfront host`, `flags` and `pgo`
    leave build/ configured with the table of their --variants-file, and a
    build that sets none keeps it: once that file is gone (a scratch table
    in /tmp), meson fails with an error that does not name the option."""
    if any(o.startswith('-Dvariants_file=') for o in options or []):
        return None
    value = configured_options(build).get('variants_file') or ''
    if not value or Path(str(value)).is_file():
        return None
    return (f'{build} is configured with the variant table {value}, which no longer '
            'exists (an earlier --variants-file). Go back to bench/variants.ini with '
            f'`meson configure {build} -Dvariants_file=` (./kfront run does it), or '
            'give that file back.')


def build(build: Path = paths.BUILD, targets: list[str] | None = None,
          quiet: bool = True, options: list[str] | None = None) -> bool:
    """Build; on failure print the compiler output and return False.

    quiet: ninja's [n/N] progress on one line of stderr (a terminal) or
    nothing (a log); otherwise (-v) ninja's whole output as it comes."""
    # Parallel test workers start after `kfront test` built the tree: two
    # ninja runs at once in one build directory would race on its logs.
    if os.environ.get(BUILT_ENV) == str(build) and (
            not options or _options_in_effect(build, options)):
        return True
    problem = table_problem(build, options)
    if problem:
        print(f'kfront: {problem}', file=sys.stderr)
        return False
    before = configured_options(build) if options else {}
    if not configure(build, options):
        _restore_options(build, before, options or [])
        return False
    cmd = ['ninja', '-C', str(build), *(targets or [])]
    status, output = run_ninja(cmd, BuildStatus(sys.stderr, verbose=not quiet))
    if status != 0:
        if quiet:
            sys.stderr.write(output)
        print('kfront: build failed', file=sys.stderr)
        _restore_options(build, before, options or [])
        return False
    return True


# ninja's own status line, made explicit so the parser does not depend on
# the user's NINJA_STATUS.
NINJA_STATUS = '[%f/%t] '
STEP_RE = re.compile(r'^\[(\d+)/(\d+)\] (.*)$')


class BuildStatus:
    """Shows ninja's progress: every line with verbose, else the latest
    [n/N] step redrawn on one line of a terminal (nothing on a log file)."""

    def __init__(self, stream: TextIO, verbose: bool = False) -> None:
        self.stream = stream
        self.verbose = verbose
        self.live = term.live(stream) and not verbose
        self.shown = 0
        self.steps = 0

    def line(self, text: str) -> None:
        if self.verbose:
            self.stream.write(text)
            self.stream.flush()
            return
        m = STEP_RE.match(text.rstrip('\n'))
        if not m:
            return
        self.steps = int(m.group(1))
        if self.live:
            width = max(20, shutil.get_terminal_size().columns - 1)
            msg = f'kfront: building [{m.group(1)}/{m.group(2)}] {m.group(3)}'[:width]
            self.stream.write('\r' + msg.ljust(self.shown))
            self.shown = len(msg)
            self.stream.flush()

    def done(self) -> None:
        if self.shown:
            self.stream.write('\r' + ' ' * self.shown + '\r')
            self.stream.flush()
            self.shown = 0


def run_ninja(cmd: list[str], status: BuildStatus) -> tuple[int, str]:
    """Run ninja, feeding each output line to status; (exit status, the
    whole output)."""
    env = dict(os.environ, NINJA_STATUS=NINJA_STATUS)
    lines = []
    with subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                          text=True, errors='replace', env=env) as proc:
        assert proc.stdout is not None
        try:
            for text in proc.stdout:
                lines.append(text)
                status.line(text)
        finally:
            status.done()
        rc = proc.wait()
    return rc, ''.join(lines)
