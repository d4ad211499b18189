# SPDX-License-Identifier: GPL-2.0-or-later
"""`kfront collect`: serial captures (files or a live port) -> results.json
and the reports, with every problem reported at its line.

Exit status: 0 when every run is complete and nothing is wrong, 1 when a run
is incomplete or any problem (bad CRC, gap, digest mismatch, ...) was found,
2 for a usage or I/O error.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import sys
import time
from pathlib import Path
from typing import BinaryIO

from . import argtypes, cmd_repeats, collect, model, output, paths, report, results, term
from .records import Run

EXIT_OK, EXIT_PROBLEMS, EXIT_USAGE = 0, 1, 2


def default_outdir() -> Path:
    return Path("results") / time.strftime("%Y%m%d-%H%M%S")


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser(
        "collect", help="collect results from serial logs or a serial port",
        description="Parse kfront result records from serial captures "
        "(files, or a live port with --device), split boots into runs, "
        "report every problem with its line number, and write "
        "results.json and the reports. Exit status: 0 complete, "
        "1 incomplete data or problems found, 2 usage or I/O error.")
    p.add_argument("logs", nargs="*", type=Path, metavar="LOG",
                   help="serial capture files")
    p.add_argument("--out", type=Path, metavar="DIR",
                   help="output folder (default results/<date>-<time>/); "
                   "several runs go to DIR/run-<n>/")
    p.add_argument("--device", metavar="DEV",
                   help="read a live serial port (e.g. /dev/ttyUSB0) until "
                   "the suite-end record")
    p.add_argument("--baud", type=int, default=collect.DEFAULT_BAUD,
                   help="baud rate for --device (default 115200)")
    p.add_argument("--timeout", type=argtypes.positive_seconds,
                   default=collect.DEFAULT_DEVICE_TIMEOUT, metavar="SECONDS",
                   help="give up on --device after this long (default 600)")
    p.add_argument("--context", choices=results.CONTEXTS,
                   help="where the results were measured (default: from "
                   "the log, else kernel)")
    p.add_argument("--no-report", action="store_true",
                   help="write results.json only")
    output.add_options(p, "the results document (a list of them for several runs)")
    p.set_defaults(func=run, needs_setup=False)


def _error(msg: str) -> int:
    print(f"kfront collect: error: {msg}", file=sys.stderr)
    return EXIT_USAGE


class _DeviceLog:
    """The raw copy of --device, created when the first bytes arrive (or
    at the end): a device that cannot be opened leaves no file and no
    folder behind, and mode "x" never replaces an existing log."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.fh: BinaryIO | None = None

    def open(self) -> BinaryIO:
        if self.fh is None:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self.fh = open(self.path, "xb")
        return self.fh

    def write(self, data: bytes) -> int:
        return self.open().write(data)

    def flush(self) -> None:
        self.open().flush()

    def close(self) -> None:
        if self.fh is not None:
            self.fh.close()


def _gather(args: argparse.Namespace, outdir: Path
            ) -> list[collect.CollectResult]:
    if args.device:
        log_path = outdir / "serial.log"
        print(f"kfront collect: reading {args.device} at {args.baud} baud "
              f"(raw copy in {log_path}), up to {args.timeout:g} s",
              file=sys.stderr)
        log = _DeviceLog(log_path)
        try:
            got = collect.collect_device(args.device, args.baud, args.timeout,
                                         log)
            log.open()  # the raw copy exists even when nothing came
        finally:
            log.close()
        got.source = str(log_path)
        return [got]
    return [collect.collect_file(path) for path in args.logs]


def _print_problems(got: collect.CollectResult) -> None:
    for p in got.problems:
        print(f"{got.source}:{p.line}: {p.severity}: {p.kind}: {p.message}",
              file=sys.stderr)
    for note in got.notes:
        print(f"{got.source}: note: {note}", file=sys.stderr)


def _write(run: Run, source: str, outdir: Path, args: argparse.Namespace
           ) -> model.Results:
    extra = {"source": source}
    if args.context:
        extra["context"] = args.context
    data = results.build_results(run, extra)
    res = model.from_dict(data, str(results.save(data, outdir / "results.json")))
    if not args.no_report:
        report.write_all(res, outdir)
    return res


# What collect writes in a run's folder: a --csv there would replace it.
_WRITTEN = ("results.json", "serial.log", "report.md", "report.html")


def _csv_problem(csv_path: Path | None, outdir: Path) -> str | None:
    if csv_path is None:
        return None
    rel = Path(os.path.relpath(os.path.realpath(csv_path),
                               os.path.realpath(outdir)))
    if (rel.name in _WRITTEN and (len(rel.parts) == 1 or len(rel.parts) == 2
                                  and rel.parts[0].startswith("run-"))):
        return (f"--csv {csv_path} is a file this command writes in {outdir}; "
                "give another file name")
    return None


def _repeated_log(logs: list[Path]) -> str | None:
    """Two LOG arguments that hold the same capture (one file named twice,
    or a copy of it): its runs would be counted twice, as independent."""
    if len(logs) < 2:
        return None     # nothing to compare: do not read a log twice
    seen: dict[str, Path] = {}
    for log in logs:
        try:
            with open(log, "rb") as fh:      # in chunks: logs can be large
                digest = hashlib.file_digest(fh, "sha256").hexdigest()
        except OSError:
            continue    # collecting it says why it cannot be read
        if digest in seen:
            return (f"{seen[digest]} and {log} hold the same capture: its runs "
                    "would count twice; give each log once")
        seen[digest] = log
    return None


def run(args: argparse.Namespace) -> int:
    if not args.logs and not args.device:
        return _error("give at least one LOG file or --device DEV")
    if args.logs and args.device:
        return _error("give LOG files or --device, not both")
    if args.device:
        try:
            collect.baud_constant(args.baud)
        except ValueError as exc:
            return _error(str(exc))
    problem = _repeated_log(args.logs)
    if problem:
        return _error(problem)
    outdir = args.out or default_outdir()
    # a folder whose serial.log is the log to collect (what kfront run
    # suggests after a stop) is fine; --device writes a serial.log there
    held = paths.RUN_FILES if args.device else ('results.json',)
    problem = paths.out_problem(outdir, held) or _csv_problem(args.csv, outdir)
    if problem:
        return _error(problem)
    try:
        gathered = _gather(args, outdir)
    except collect.CollectError as exc:
        return _error(str(exc))
    except OSError as exc:  # serial.log of --device, else a log
        verb = "write" if args.device else "read"
        return _error(f"cannot {verb} {exc.filename or outdir}: {exc.strerror or exc}")
    runs = [(got.source, r) for got in gathered for r in got.runs]
    if len(runs) > 1:
        # Checked for every run before the first is written: nothing is
        # left half done.
        for n in range(1, len(runs) + 1):
            problem = paths.out_problem(outdir / f"run-{n}", held)
            if problem:
                return _error(problem)
    status = EXIT_OK
    for got in gathered:
        _print_problems(got)
        if not got.runs:
            print(f"{got.source}: no kfront records found", file=sys.stderr)
            status = EXIT_PROBLEMS
        elif not got.clean:
            status = EXIT_PROBLEMS
    color = term.use_color(sys.stdout)
    written: list[tuple[Path, model.Results]] = []
    try:
        for n, (source, r) in enumerate(runs, 1):
            if r.duplicate_of is not None:
                # Its results are those of the run it repeats: write and
                # count them once (the duplicate_run problem is listed).
                print(f"run {n}: {source} lines {r.first_line}-"
                      f"{r.last_line}, DUPLICATE of run "
                      f"{r.duplicate_of + 1}, not counted again")
                status = EXIT_PROBLEMS
                continue
            where = outdir if len(runs) == 1 else outdir / f"run-{n}"
            res = _write(r, source, where, args)
            written.append((where / "results.json", res))
            if any(p.severity != "note" for p in res.problems):
                status = EXIT_PROBLEMS
            state = "complete" if res.complete else "INCOMPLETE"
            print(f"run {n}: {source} lines {r.first_line}-{r.last_line}, "
                  f"{state}, {len(res.results)} results -> {where}")
            print(report.terminal_table(res, color))
        if written:
            output.emit_results(args, [w for w, _ in written], [r for _, r in written])
        timed = [w for w, r in written if r.complete and cmd_repeats.timed(r)[0]]
        if len(timed) > 1:
            # boots of one image (placement=random, days apart) timed on a
            # CPU: do their verdicts hold in all? (docs/bare-metal.md,
            # section 6; TCG time is the emulator's, and not asked)
            print(f"{len(timed)} complete runs: `kfront repeats "
                  f"{' '.join(str(w) for w in timed)}` says which real-CPU "
                  "verdicts are the same in every one")
    except OSError as exc:
        # The file that failed (a --csv, a chart), not just the folder.
        return _error(f"cannot write {exc.filename or outdir}: {exc.strerror or exc}")
    return status
