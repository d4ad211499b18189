# SPDX-License-Identifier: GPL-2.0-or-later
"""The typed results model: results.json loaded once into dataclasses.

`results.build_results()` writes the document (docs/results-schema.md is
the contract); readers (report, compare, the LAVA path) take it through
`from_dict()` or `load()` here, which check every field they use and name
the first wrong one with its file, e.g.

    results.json: results[3].counters.tsc.per_op.median: expected a number, got 'x'

so a reader never walks raw dicts or mistakes a missing field for "?".
Fields the schema leaves free-form (the machine record, config, variants,
events, extra, sizes, truth) stay dicts, typed as far as the reports read
them (the machine and config as their record is, records.check_value).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NoReturn

from . import records
from . import results as results_file
from . import stats
from .results import ResultsError

# A JSON scalar kept as it came: group and digest are whatever the kernel sent.
Scalar = Any


@dataclass(frozen=True)
class _At:
    """Where in which file a value sits, for error messages."""

    file: str
    path: str = ""

    def key(self, name: str) -> _At:
        return _At(self.file, f"{self.path}.{name}" if self.path else name)

    def index(self, i: int) -> _At:
        return _At(self.file, f"{self.path}[{i}]")

    def fail(self, expected: str, value: Any) -> NoReturn:
        where = self.path or "top level"
        raise ResultsError(f"{self.file}: {where}: expected {expected}, got {value!r}")


_MISSING = object()


def _finite(value: int | float) -> bool:
    """Neither NaN nor infinite, nor an integer beyond 64 bits (whose float
    overflows): what every figure of results.json is."""
    return records.fits(value, "num")


def _checked(obj: dict[str, Any], at: _At, name: str, spec: Any
             ) -> dict[str, Any]:
    """An optional object field whose fields must match `spec`
    (records.check_value: the same types its record is held to)."""
    value = _obj_field(obj, at, name)
    wrong = records.check_value(value, spec, at.key(name).path)
    if wrong is not None:
        raise ResultsError(f"{at.file}: {wrong}")
    return value


def _get(obj: dict[str, Any], at: _At, name: str, optional: bool) -> Any:
    value = obj.get(name, _MISSING)
    if value is _MISSING:
        if optional:
            return None
        raise ResultsError(f"{at.file}: {at.key(name).path}: missing")
    return value


def _number(obj: dict[str, Any], at: _At, name: str, optional: bool = False
            ) -> float | None:
    value = _get(obj, at, name, optional)
    if value is None and optional:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        at.key(name).fail("a number", value)
    if not _finite(value):
        at.key(name).fail("a finite number", value)
    return value


def _int(obj: dict[str, Any], at: _At, name: str, optional: bool = False
         ) -> int | None:
    value = _get(obj, at, name, optional)
    if value is None and optional:
        return None
    if isinstance(value, bool) or not isinstance(value, int):
        at.key(name).fail("an integer", value)
    if not _finite(value):
        at.key(name).fail("an integer of at most 64 bits", value)
    return value


def _str(obj: dict[str, Any], at: _At, name: str, optional: bool = False
         ) -> str | None:
    value = _get(obj, at, name, optional)
    if value is None and optional:
        return None
    if not isinstance(value, str):
        at.key(name).fail("a string", value)
    return value


def _bool(obj: dict[str, Any], at: _At, name: str, default: bool | None
          ) -> bool | None:
    value = _get(obj, at, name, True)
    if value is None:
        return default
    if not isinstance(value, bool):
        at.key(name).fail("true or false", value)
    return value


def _object(value: Any, at: _At) -> dict[str, Any]:
    if not isinstance(value, dict):
        at.fail("an object", value)
    return value


def _obj_field(obj: dict[str, Any], at: _At, name: str) -> dict[str, Any]:
    """An optional object field; absent or null reads as empty."""
    value = _get(obj, at, name, True)
    return {} if value is None else _object(value, at.key(name))


def _list(value: Any, at: _At) -> list[Any]:
    if not isinstance(value, list):
        at.fail("a list", value)
    return value


def _list_field(obj: dict[str, Any], at: _At, name: str) -> list[Any]:
    value = _get(obj, at, name, True)
    return [] if value is None else _list(value, at.key(name))


def _scalar(obj: dict[str, Any], at: _At, name: str) -> Scalar:
    value = obj.get(name)
    if isinstance(value, (dict, list)):
        at.key(name).fail("a string, number or null", value)
    return value


@dataclass(frozen=True)
class Summary(stats.Summary):
    """Statistics of a counter per run or per operation: the robust summary
    of stats.py, plus what results.json adds per operation."""

    # per_op only: the median's 95% interval, its standard error, the lag-1
    # autocorrelation of the runs and whether it is above the limit.
    ci: tuple[float, float] | None = None
    se: float | None = None
    lag1: float | None = None
    autocorrelated: bool = False

    @classmethod
    def from_dict(cls, d: Any, at: _At) -> Summary:
        d = _object(d, at)
        s = cls(_number(d, at, "median"), _number(d, at, "min"),
                _number(d, at, "max"), _number(d, at, "mad"),
                _int(d, at, "n"), _interval(d, at.key("ci")),
                _number(d, at, "se", True), _number(d, at, "lag1", True),
                bool(_bool(d, at, "autocorrelated", False)))
        s._check(at)
        return s

    def _check(self, at: _At) -> None:
        """What every summary of counts is: at least one run, and its
        figures in order, none below zero (a sample that would go below
        zero is clamped to 0 where it is made, harness.c). A summary that
        breaks this was not made by kfront, and a report of it would print
        figures that mean nothing."""
        if self.n < 1:
            at.key("n").fail("at least 1 run", self.n)
        if self.min < 0:
            at.key("min").fail("a count of at least 0", self.min)
        if not self.min <= self.median <= self.max:
            at.key("median").fail(f"a number from min to max ({self.min} to "
                                  f"{self.max})", self.median)
        for name in ("mad", "se"):
            value = getattr(self, name)
            if value is not None and value < 0:
                at.key(name).fail("a number of at least 0", value)
        if self.ci is not None and self.ci[0] > self.ci[1]:
            at.key("ci").fail("an interval whose low end is not above its high end",
                              list(self.ci))


def _interval(d: dict[str, Any], at: _At) -> tuple[float, float] | None:
    value = d.get("ci")
    if value is None:
        return None
    if not isinstance(value, list) or len(value) != 2 or not all(
            isinstance(v, (int, float)) and not isinstance(v, bool) and _finite(v)
            for v in value):
        at.fail("null or a list of two finite numbers", value)
    return (value[0], value[1])


@dataclass
class Ratio:
    """A counter's median per op over the baseline variant's."""

    baseline: str
    value: float
    lo: float | None
    hi: float | None
    method: str
    unbounded: bool = False
    confidence: float | None = None
    resamples: int | None = None
    effective: int | None = None
    excludes_one: bool = False
    p: float | None = None
    p_holm: float | None = None
    # None in results from before Holm's correction.
    significant: bool | None = None
    # both variants gave the same count in every run (false in results
    # from before it was recorded: their tables show the bounds)
    every_run_same: bool = False

    @property
    def marked(self) -> bool:
        """The report's `*`: Holm-corrected, or for older results the
        uncorrected `excludes_one`."""
        return self.significant if self.significant is not None else self.excludes_one

    @classmethod
    def from_dict(cls, d: Any, at: _At) -> Ratio:
        d = _object(d, at)
        r = cls(_str(d, at, "baseline"), _number(d, at, "value"),
                _number(d, at, "lo", True), _number(d, at, "hi", True),
                _str(d, at, "method", True) or "",
                bool(_bool(d, at, "unbounded", False)),
                _number(d, at, "confidence", True),
                _int(d, at, "resamples", True), _int(d, at, "effective", True),
                bool(_bool(d, at, "excludes_one", False)),
                _number(d, at, "p", True), _number(d, at, "p_holm", True),
                _bool(d, at, "significant", None),
                bool(_bool(d, at, "every_run_same", False)))
        if r.value < 0:
            at.key("value").fail("a ratio of counts, at least 0", r.value)
        if r.lo is not None and r.hi is not None and r.lo > r.hi:
            at.key("lo").fail(f"at most hi ({r.hi})", r.lo)
        return r


@dataclass
class Counter:
    """One counter of one result."""

    per_run: Summary
    per_op: Summary
    samples: list[int]
    ratio: Ratio | None

    @classmethod
    def from_dict(cls, d: Any, at: _At) -> Counter:
        d = _object(d, at)
        samples = _list_field(d, at, "samples")
        for i, s in enumerate(samples):
            if not records.fits(s, "u64"):
                at.key("samples").index(i).fail("a count from 0 to 2^64-1", s)
        ratio = d.get("ratio")
        return cls(Summary.from_dict(_get(d, at, "per_run", False), at.key("per_run")),
                   Summary.from_dict(_get(d, at, "per_op", False), at.key("per_op")),
                   samples,
                   None if ratio is None else Ratio.from_dict(ratio, at.key("ratio")))


@dataclass
class Result:
    """One result record: a benchmark of one variant in one event group."""

    bench: str
    variant: str
    iters: int
    line: int | None
    counters: dict[str, Counter]
    group: Scalar = None
    op: str | None = None
    method: str | None = None
    footprint: int | None = None
    state: str | None = None
    positions: list[int] | None = None
    clamped: dict[str, Any] = field(default_factory=dict)
    overhead_spread: dict[str, Any] = field(default_factory=dict)
    runs: int | None = None
    warmup: int | None = None
    overhead: dict[str, Any] = field(default_factory=dict)
    digest: Scalar = None
    wire: str | None = None
    # per-function tables by source ("sim": sim_functions, "vg":
    # vg_functions; docs/results-schema.md), as stored
    functions: dict[str, dict[str, Any]] = field(default_factory=dict)

    @property
    def label(self) -> str:
        """The benchmark as people read it: footprint, cold state, wire."""
        label = self.bench if self.footprint is None else f"{self.bench} @{self.footprint}"
        if self.state == "cold":
            label += " (cold)"
        return label + " [wire]" if self.wire else label

    @property
    def digest_key(self) -> str:
        """The key of this result in `digests` and `digest_mismatches`."""
        key = self.bench if self.footprint is None else f"{self.bench}@{self.footprint}"
        return key + " cold" if self.state == "cold" else key

    @classmethod
    def from_dict(cls, d: Any, at: _At) -> Result:
        d = _object(d, at)
        iters = _int(d, at, "iters")
        if iters < 1:
            at.key("iters").fail("an integer of at least 1", iters)
        for name, least in (("footprint", 0), ("runs", 1), ("warmup", 0)):
            value = _int(d, at, name, True)
            if value is not None and value < least:
                at.key(name).fail(f"an integer of at least {least}", value)
        cat = at.key("counters")
        counters = {str(name): Counter.from_dict(c, cat.key(str(name)))
                    for name, c in _obj_field(d, at, "counters").items()}
        positions = d.get("positions")
        return cls(_str(d, at, "bench"), _str(d, at, "variant"), iters,
                   _int(d, at, "line", True), counters, _scalar(d, at, "group"),
                   _str(d, at, "op", True), _str(d, at, "method", True),
                   _int(d, at, "footprint", True), _str(d, at, "state", True),
                   None if positions is None else _list(positions, at.key("positions")),
                   _obj_field(d, at, "clamped"), _obj_field(d, at, "overhead_spread"),
                   _int(d, at, "runs", True), _int(d, at, "warmup", True),
                   _obj_field(d, at, "overhead"), _scalar(d, at, "digest"),
                   _str(d, at, "wire", True),
                   {src: _obj_field(d, at, f"{src}_functions")
                    for src in ("sim", "vg") if d.get(f"{src}_functions") is not None})


@dataclass
class Problem:
    """One problem of the collection (records.Problem as stored)."""

    kind: str
    severity: str
    line: int
    message: str

    @classmethod
    def from_dict(cls, d: Any, at: _At) -> Problem:
        d = _object(d, at)
        return cls(_str(d, at, "kind"), _str(d, at, "severity"), _int(d, at, "line"),
                   _str(d, at, "message"))


@dataclass
class DigestMismatch:
    """A benchmark whose variants gave different verification digests."""

    bench: str
    digests: dict[str, Scalar]
    reference: str

    def differing(self) -> list[str]:
        """The variants whose digest differs from the reference's."""
        ref = self.digests.get(self.reference)
        return [v for v, d in self.digests.items() if d != ref]

    @classmethod
    def from_dict(cls, d: Any, at: _At) -> DigestMismatch:
        d = _object(d, at)
        return cls(_str(d, at, "bench"), _object(_get(d, at, "digests", False),
                                                  at.key("digests")),
                   _str(d, at, "reference"))


@dataclass
class CounterInfo:
    """Which counters were measured, which not and why, and their events."""

    measured: list[str] = field(default_factory=list)
    unavailable: dict[str, str] = field(default_factory=dict)
    events: dict[str, dict[str, str]] = field(default_factory=dict)

    def event(self, counter: str) -> str:
        """The hardware event behind a counter, or ""."""
        return str(self.events.get(counter, {}).get("event", ""))

    @classmethod
    def from_dict(cls, d: Any, at: _At) -> CounterInfo:
        d = {} if d is None else _object(d, at)
        events = _obj_field(d, at, "events")
        for name, ev in events.items():
            _object(ev, at.key("events").key(str(name)))
        return cls([str(n) for n in _list_field(d, at, "measured")],
                   {str(k): str(v) for k, v in _obj_field(d, at, "unavailable").items()},
                   events)


@dataclass
class Results:
    """One results.json: one run (docs/results-schema.md)."""

    schema: int
    context: str | None
    complete: bool
    source: str | None
    baseline: str | None
    results: list[Result]
    counters: CounterInfo
    run: dict[str, Any] = field(default_factory=dict)
    kfront: Scalar = None
    git: Scalar = None
    cmdline: Scalar = None
    config: dict[str, Any] = field(default_factory=dict)
    wire: str | None = None
    machine: dict[str, Any] = field(default_factory=dict)
    variants: list[dict[str, Any]] = field(default_factory=list)
    digests: dict[str, Any] = field(default_factory=dict)
    digest_mismatches: list[DigestMismatch] = field(default_factory=list)
    events: list[dict[str, Any]] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)
    extra: dict[str, Any] = field(default_factory=dict)
    # Added by `kfront run` beside the built document (size.analyze_build).
    sizes: list[dict[str, Any]] | None = None
    # Added by `kfront run` (tools/kfront/truth.py): the sources of truth of
    # the run, and the host harness's own results document of the same run.
    truth: dict[str, Any] = field(default_factory=dict)
    host: Results | None = None

    def variant_names(self) -> list[str]:
        return [str(v.get("name")) for v in self.variants]

    def counter_names(self) -> set[str]:
        return {n for e in self.results for n in e.counters}

    @classmethod
    def from_dict(cls, d: Any, file: str) -> Results:
        at = _At(file)
        d = _object(d, at)
        schema = _int(d, at, "schema")
        if schema != results_file.SCHEMA_VERSION:
            raise ResultsError(f"{file} has results schema {schema}; this kfront "
                               f"reads schema {results_file.SCHEMA_VERSION}")
        rat = at.key("results")
        return cls(
            schema, _str(d, at, "context", True),
            bool(_bool(d, at, "complete", False)), _str(d, at, "source", True),
            _str(d, at, "baseline", True),
            [Result.from_dict(e, rat.index(i))
             for i, e in enumerate(_list(_get(d, at, "results", False), rat))],
            CounterInfo.from_dict(d.get("counters"), at.key("counters")),
            _obj_field(d, at, "run"), _scalar(d, at, "kfront"), _scalar(d, at, "git"),
            d.get("cmdline"), _checked(d, at, "config", records.CONFIG_FIELDS),
            _str(d, at, "wire", True),
            _checked(d, at, "machine", records.MACHINE_FIELDS),
            _objects(d, at, "variants", records.VARIANT_FIELDS),
            _obj_field(d, at, "digests"),
            [DigestMismatch.from_dict(m, at.key("digest_mismatches").index(i))
             for i, m in enumerate(_list_field(d, at, "digest_mismatches"))],
            _objects(d, at, "events", EVENT_FIELDS, True),
            [Problem.from_dict(p, at.key("problems").index(i))
             for i, p in enumerate(_list_field(d, at, "problems"))],
            _obj_field(d, at, "extra"),
            None if d.get("sizes") is None else _sizes(d, at),
            _truth(d, at),
            None if d.get("host") is None else cls.from_dict(d["host"], f"{file}: host"))


def _objects(d: dict[str, Any], at: _At, name: str,
             spec: dict[str, Any] | None = None, required: bool = False
             ) -> list[dict[str, Any]]:
    """An optional list of objects; with `spec`, their fields typed
    (records.check_value specs), and all of them present if `required`."""
    items = _list_field(d, at, name)
    out = [_object(v, at.key(name).index(i)) for i, v in enumerate(items)]
    for i, v in enumerate(out):
        if required:
            _require(v, at.key(name).index(i), spec or {})
        wrong = records.check_value(v, spec or {}, at.key(name).index(i).path)
        if wrong is not None:
            raise ResultsError(f"{at.file}: {wrong}")
    return out


def _require(obj: dict[str, Any], at: _At, fields: dict[str, Any]) -> None:
    for name, spec in fields.items():
        _get(obj, at, name, False)
        wrong = records.check_value(obj[name], spec, at.key(name).path)
        if wrong is not None:
            raise ResultsError(f"{at.file}: {wrong}")


# What the report reads of the free-form parts (report.py): an event's
# type, a size row's figures, the truth's fields (truth.Truth).
EVENT_FIELDS: dict[str, Any] = {"type": "str"}
SIZE_FIELDS: dict[str, Any] = {
    name: "scalar" for name in ("variant", "text", "rodata", "functions",
                                "rep_movs", "padding_bytes", "cold_functions")}
HOT_FIELDS: dict[str, Any] = {"bytes": "scalar", "functions": "scalar"}
TRUTH_FIELDS: dict[str, Any] = {
    "pmu": "bool", "pmu_reason": "str", "environment": "str",
    "sources": ("list", "str"), "sim_models": ("list", "str"),
    "sim_model_note": "str", "host": "str", "host_note": "str", "line": "str"}


def _truth(d: dict[str, Any], at: _At) -> dict[str, Any]:
    """The truth key: empty, or truth.Truth's fields typed (the first
    three have no default there)."""
    truth = _checked(d, at, "truth", TRUTH_FIELDS)
    if truth:
        _require(truth, at.key("truth"), {name: TRUTH_FIELDS[name] for name in
                                          ("pmu", "pmu_reason", "environment")})
    return truth


def _sizes(d: dict[str, Any], at: _At) -> list[dict[str, Any]]:
    """kfront run's code sizes: every figure the size table shows."""
    sizes = _objects(d, at, "sizes", SIZE_FIELDS, True)
    for i, size in enumerate(sizes):
        sat = at.key("sizes").index(i)
        for bench, hot in _obj_field(size, sat, "hot").items():
            _require(_object(hot, sat.key("hot").key(bench)),
                     sat.key("hot").key(bench), HOT_FIELDS)
    return sizes


def from_dict(data: Any, file: str = "results") -> Results:
    """The typed model of a results document (ResultsError naming the
    first wrong field and `file`)."""
    return Results.from_dict(data, file)


def load(path: Path) -> Results:
    """Read and check a results.json: results.load(), then the model."""
    return from_dict(results_file.load(path), str(path))


def cost_counter(entries: list[Result]) -> str | None:
    """The counter that stands for cost: cycles if measured, else TSC."""
    present = {n for e in entries for n in e.counters}
    for name in ("cycles", "tsc"):
        if name in present:
            return name
    return None
