# SPDX-License-Identifier: GPL-2.0-or-later
"""results.json: build the results document of one run, load and check it.

`build_results(run, extra)` turns the checked records of one boot (a
`records.Run`) into the dict documented in docs/results-schema.md: machine
description, variants, per result and counter the statistics per run and per
operation with intervals, ratios to the baseline variant, verification
digests compared across variants, unavailable counters with their reasons,
error/timeout/panic records, every problem and a `complete` flag.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from . import stats
from .records import U64_LIMIT, Problem, Record, Run, check_fields, fits

SCHEMA_VERSION = 1
BASELINE = "O2"
CONTEXTS = ("kernel", "user")


class ResultsError(Exception):
    """A results.json that cannot be read or has the wrong schema."""


@dataclass
class _Builder:
    """State of one build_results call (no module-level state)."""

    run: Run
    unavailable: dict[str, str]
    problems: list[Problem]

    def problem(self, kind: str, line: int, msg: str) -> None:
        self.problems.append(Problem(kind, line, msg, self.run.index))


def _dict(value: Any) -> dict[str, Any]:
    """value if it is a JSON object, else an empty one."""
    return value if isinstance(value, dict) else {}


def _int_list(values: Any) -> list[int] | None:
    """values if it is a list of unsigned 64-bit integers, else None."""
    if not isinstance(values, list):
        return None
    if not all(fits(v, "u64") for v in values):
        return None
    return values


def _counter_entry(b: _Builder, rec: Record, name: str, iters: int,
                   samples: list[int] | None,
                   reported: Any) -> dict[str, Any] | None:
    p = rec.payload
    if samples:
        per_run = stats.summarize(samples)
        if isinstance(reported, dict):
            _check_reported(b, rec, name, samples, reported)
    elif isinstance(reported, dict) and isinstance(reported.get("n"), int) \
            and reported["n"] > 0:
        try:
            per_run = stats.Summary(float(reported["median"]),
                                    float(reported["min"]),
                                    float(reported["max"]),
                                    float(reported["mad"]), reported["n"])
        except (KeyError, TypeError, ValueError, OverflowError):
            b.problem("malformed", rec.line, f"{p.get('bench')} "
                      f"{p.get('variant')}: counter {name} has bad statistics")
            return None
    else:
        return None
    ops = stats.per_op(samples, iters) if samples else []
    per_op_sum = stats.Summary(per_run.median / iters, per_run.min / iters,
                               per_run.max / iters, per_run.mad / iters,
                               per_run.n)
    ci = None
    if ops:
        ci = stats.bootstrap_median_ci(
            ops, seed=stats.seed_for(p.get("bench"), p.get("variant"),
                                     p.get("group"), name))
    lag1 = stats.lag1_autocorrelation(ops) if ops else None
    return {
        "per_run": per_run.to_dict(),
        "per_op": dict(per_op_sum.to_dict(),
                       ci=[ci.lo, ci.hi] if ci else None,
                       se=stats.median_se(ops) if ops else None,
                       lag1=lag1,
                       autocorrelated=lag1 is not None and abs(lag1) >
                       stats.autocorrelation_limit(len(ops))),
        "samples": list(samples or []),
        "ratio": None,
    }


def _check_reported(b: _Builder, rec: Record, name: str,
                    samples: list[int], reported: dict[str, Any]) -> None:
    """The kernel's own statistics must agree with its samples.

    Both take the lower middle value as the median of an even count.
    """
    p = rec.payload
    s = sorted(samples)
    try:
        ok = (reported["n"] == len(s) and reported["min"] == s[0]
              and reported["max"] == s[-1]
              and reported["median"] == s[(len(s) - 1) // 2])
    except (KeyError, TypeError):
        ok = False
    if not ok:
        b.problem("stats_mismatch", rec.line, f"{p.get('bench')} "
                  f"{p.get('variant')}: the kernel's {name} statistics do not "
                  "match its samples (host values used)")


def _result_entry(b: _Builder, rec: Record) -> dict[str, Any] | None:
    p = rec.payload
    wrong = check_fields(p)
    if wrong is not None:
        # parse_line leaves such records out; a Run put together another
        # way (benchsplit, tests) is held to the same types.
        b.problem("malformed", rec.line, f"result record: {wrong}")
        return None
    bench, variant = p.get("bench"), p.get("variant")
    iters = p.get("iters")
    if not isinstance(bench, str) or not isinstance(variant, str) or \
            not fits(iters, "u64") or iters == 0:
        b.problem("malformed", rec.line, "result record without bench, "
                  "variant or an iters from 1 to 2^64-1")
        return None
    samples = _dict(p.get("samples"))
    reported = _dict(p.get("counters"))
    for name, count in _dict(p.get("clamped")).items():
        b.problem("clamped", rec.line, f"{bench} {variant}: {count} "
                  f"sample(s) of {name} came out below zero (cheaper than "
                  "the subtracted overhead or N-run) and were set to 0")
    counters: dict[str, Any] = {}
    # figures of a whole region (a footprint), not divided per operation
    per_region = set(p.get("per_region") or []) \
        if isinstance(p.get("per_region"), list) else set()
    for name in list(samples) + [n for n in reported if n not in samples]:
        values = _int_list(samples.get(name))
        if name in samples and values is None:
            b.problem("malformed", rec.line, f"{bench} {variant}: samples of "
                      f"{name} are not a list of integers from 0 to 2^64-1")
            continue
        if name in b.unavailable:
            b.problem("zero_counter", rec.line, f"{bench} {variant}: counter "
                      f"{name} is reported but the machine record says it is "
                      f"unavailable ({b.unavailable[name]}); ignored")
            continue
        entry = _counter_entry(b, rec, name,
                               1 if name in per_region else iters, values,
                               reported.get(name))
        if entry is not None:
            if name in per_region:
                entry["per"] = "region"
            counters[name] = entry
    return {
        "bench": bench,
        "variant": variant,
        "group": p.get("group"),
        "op": p.get("op"),
        "method": p.get("method"),
        "footprint": p.get("footprint"),
        # Front-end state of the counted runs (records before it existed
        # were cold: every run followed another variant's).
        "state": p.get("state") if isinstance(p.get("state"), str)
        else None,
        "positions": _int_list(p.get("positions")),
        "clamped": _dict(p.get("clamped")),
        "overhead_spread": _dict(p.get("overhead_spread")),
        "iters": iters,
        "runs": p.get("runs"),
        "warmup": p.get("warmup"),
        "overhead": p.get("overhead", {}),
        "digest": p.get("digest"),
        "wire": p.get("wire") if isinstance(p.get("wire"), str) else None,
        "line": rec.line,
        "counters": counters,
        # simulated top functions (sim.function_table); None without
        "sim_functions": p.get("sim_functions")
        if isinstance(p.get("sim_functions"), dict) else None,
        # callgrind's top functions (vg.function_table); None without
        "vg_functions": p.get("vg_functions")
        if isinstance(p.get("vg_functions"), dict) else None,
    }


def _key(entry: dict[str, Any]) -> tuple[Any, ...]:
    return (entry["bench"], entry["group"], entry["footprint"],
            entry.get("state"))


def _add_ratios(results: list[dict[str, Any]], baseline: str) -> None:
    base = {_key(e): e for e in results if e["variant"] == baseline}
    for e in results:
        ref = base.get(_key(e))
        if ref is None or e["variant"] == baseline:
            continue
        for name, c in e["counters"].items():
            rc = ref["counters"].get(name)
            if rc is None or rc["per_op"]["median"] == 0:
                continue
            c["ratio"] = _ratio_entry(e, ref, name, c, rc, baseline)
    _mark_significant(results)


def _ratio_entry(e: dict[str, Any], ref: dict[str, Any], name: str,
                 c: dict[str, Any], rc: dict[str, Any], baseline: str
                 ) -> dict[str, Any]:
    value = c["per_op"]["median"] / rc["per_op"]["median"]
    iv, p = None, None
    same = False
    why = "no interval (too few runs)"
    if c["samples"] and rc["samples"]:
        per_region = c.get("per") == "region"
        test = stats.per_op(c["samples"], 1 if per_region else e["iters"])
        base = stats.per_op(rc["samples"], 1 if per_region else ref["iters"])
        seed = stats.seed_for(e["bench"], e["group"], e["variant"], name,
                              "ratio")
        iv, p = stats.bootstrap_ratio(test, base, seed=seed)
        same = stats.every_run_same(test, base)
        if iv is None and min(len(test), len(base)) >= stats.MIN_RUNS_FOR_CI:
            why = ("no interval (the baseline's median was 0 under a 0 "
                   "test median in too many resamples)")
    return {
        "baseline": baseline, "value": value,
        "lo": iv.lo if iv else None,
        # JSON has no infinity: an unbounded interval has hi null and
        # "unbounded" true.
        "hi": iv.hi if iv and not iv.unbounded else None,
        "unbounded": bool(iv and iv.unbounded),
        "confidence": iv.confidence if iv else None,
        "resamples": iv.resamples if iv else None,
        "effective": iv.effective if iv else None,
        "excludes_one": iv.excludes_one if iv else False,
        "p": p,
        "every_run_same": same,
        "method": iv.method if iv else why,
    }


def _mark_significant(results: list[dict[str, Any]]) -> None:
    """Holm-correct the p-values of all ratios of one counter together (the
    family a report's table shows), and mark a ratio significant only when
    its corrected p is below 1 - confidence and its interval excludes 1."""
    family: dict[str, list[dict[str, Any]]] = {}
    for e in results:
        for name, c in e["counters"].items():
            r = c.get("ratio")
            if r is not None and r["p"] is not None:
                family.setdefault(name, []).append(r)
    for ratios in family.values():
        for r, adj in zip(ratios, stats.holm([r["p"] for r in ratios])):
            r["p_holm"] = adj
            r["significant"] = bool(r["excludes_one"]
                                    and adj < 1 - stats.DEFAULT_CONFIDENCE)
    for e in results:
        for c in e["counters"].values():
            r = c.get("ratio")
            if r is not None:
                r.setdefault("p_holm", None)
                r.setdefault("significant", False)


def _digests(b: _Builder, results: list[dict[str, Any]],
             baseline: str) -> tuple[dict[str, dict[str, Any]],
                                     list[dict[str, Any]]]:
    """Verification digests per benchmark; differences are flagged."""
    table: dict[str, dict[str, Any]] = {}
    lines: dict[tuple[str, str], int] = {}
    for e in results:
        name = e["bench"] if e["footprint"] is None else \
            f"{e['bench']}@{e['footprint']}"
        if e.get("state") == "cold":
            name += " cold"
        per = table.setdefault(name, {})
        d = e["digest"]
        if e["variant"] in per and per[e["variant"]] != d:
            b.problem("digest_mismatch", e["line"], f"{name}: {e['variant']} "
                      f"gave digest {d} in group {e['group']} but "
                      f"{per[e['variant']]} before")
        per.setdefault(e["variant"], d)
        lines.setdefault((name, e["variant"]), e["line"])
    mismatches = []
    for name, per in table.items():
        if len(set(map(str, per.values()))) <= 1:
            continue
        ref_variant = baseline if baseline in per else next(iter(per))
        ref = per[ref_variant]
        for variant, d in per.items():
            if d != ref:
                b.problem("digest_mismatch", lines[(name, variant)],
                          f"{name}: digest of {variant} ({d}) differs from "
                          f"{ref_variant} ({ref}): possible miscompilation")
        mismatches.append({"bench": name, "digests": dict(per),
                           "reference": ref_variant})
    return table, mismatches


def _event(rec: Record) -> dict[str, Any]:
    d = {k: v for k, v in rec.payload.items() if k != "t"}
    d["type"] = rec.type
    d["line"] = rec.line
    return d


def build_results(run: Run, extra: dict[str, Any] | None = None
                  ) -> dict[str, Any]:
    """The results.json dict for one run (see docs/results-schema.md).

    `extra` is stored under "extra"; its keys "context" ("kernel" or
    "user"), "source" and "baseline" override the defaults.
    """
    extra = dict(extra or {})
    begin = run.begin.payload if run.begin else {}
    # parse_line leaves a mistyped suite_begin out; a Run put together
    # another way is held to the same types.
    begin_wrong = check_fields(begin)
    if begin_wrong is not None:
        begin = {}
    machine = _dict(begin.get("machine"))
    unavailable = machine.get("unavailable")
    unavailable = {str(k): str(v) for k, v in unavailable.items()} \
        if isinstance(unavailable, dict) else {}
    b = _Builder(run, unavailable, list(run.problems))
    if begin_wrong is not None and run.begin is not None:
        b.problem("malformed", run.begin.line,
                  f"suite_begin record: {begin_wrong} (left out)")
    entries = [e for rec in run.of_type("result")
               if (e := _result_entry(b, rec)) is not None]
    variants = [dict(v) for v in begin.get("variants", [])
                if isinstance(v, dict)] \
        if isinstance(begin.get("variants"), list) else []
    names = [str(v.get("name")) for v in variants]
    for e in entries:
        if e["variant"] not in names:
            names.append(e["variant"])
            variants.append({"name": e["variant"]})
    baseline: str = extra.pop("baseline", None) or (
        BASELINE if BASELINE in names else (names[0] if names else BASELINE))
    _add_ratios(entries, baseline)
    digests, mismatches = _digests(b, entries, baseline)
    context = extra.pop("context", None) or begin.get("context") or "kernel"
    source = extra.pop("source", None)
    measured = machine.get("counters") if isinstance(
        machine.get("counters"), list) else sorted(
            {n for e in entries for n in e["counters"]})
    problems = sorted(b.problems, key=lambda p: (p.line, p.kind))
    return {
        "schema": SCHEMA_VERSION,
        "context": context,
        "complete": run.complete,
        "source": source,
        "run": {"index": run.index, "first_line": run.first_line,
                "last_line": run.last_line, "records": len(run.by_seq),
                "ended": run.ended},
        "kfront": begin.get("kfront"),
        "git": begin.get("git"),
        "cmdline": begin.get("cmdline"),
        "config": begin.get("config", {}),
        "wire": begin.get("wire") if isinstance(begin.get("wire"), str)
        else None,
        "machine": machine,
        "counters": {"measured": measured, "unavailable": unavailable,
                     "events": _encodings(machine)},
        "variants": variants,
        "baseline": baseline,
        "results": entries,
        "digests": digests,
        "digest_mismatches": mismatches,
        "events": [_event(r) for r in run.records
                   if r.type in ("error", "timeout", "panic")],
        "problems": [p.to_dict() for p in problems],
        "extra": extra,
    }


def save(results: dict[str, Any], path: Path) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "w", encoding="utf-8") as fh:
        json.dump(results, fh, indent=1, sort_keys=False)
        fh.write("\n")
    return path


# Far deeper than any document kfront writes (about 8 levels): one nested
# deeper is not a results document, and readers that walk it must not run
# out of stack.
MAX_DEPTH = 64


def read_json(path: Path) -> Any:
    """A JSON document from a file, with no NaN, infinity, integer beyond
    64 bits or nesting beyond MAX_DEPTH in it (ResultsError naming the
    file and the field otherwise): Python's json accepts all of them, and
    a NaN passes every comparison a regression gate makes."""
    try:
        with open(path, encoding="utf-8") as fh:
            data = json.load(fh)
    except OSError as exc:
        raise ResultsError(f"cannot read {path}: "
                           f"{exc.strerror or exc}") from None
    except RecursionError:
        raise ResultsError(f"{path} is not a results document (nested "
                           "deeper than JSON can be read)") from None
    except (ValueError, UnicodeDecodeError) as exc:
        raise ResultsError(f"{path} is not JSON: {exc}") from None
    wrong = _bad_value(data)
    if wrong is not None:
        raise ResultsError(f"{path}: {wrong}")
    return data


def _bad_value(data: Any) -> str | None:
    """The first value no results document holds, as "FIELD: why"; the
    walk keeps its own stack, so no nesting exhausts Python's."""
    stack: list[tuple[Any, str, int]] = [(data, "", 0)]
    while stack:
        value, where, depth = stack.pop()
        at = where or "top level"
        if isinstance(value, float) and not math.isfinite(value):
            return f"{at}: {value} is not a number JSON has"
        if isinstance(value, int) and not isinstance(value, bool) \
                and not -U64_LIMIT < value < U64_LIMIT:
            return f"{at}: integer of {len(str(abs(value)))} digits is " \
                "beyond 64 bits"
        if isinstance(value, (dict, list)):
            if depth >= MAX_DEPTH:
                return f"{at}: nested deeper than {MAX_DEPTH} levels"
            items = [(f"{where}.{k}" if where else k, v)
                     for k, v in value.items()] if isinstance(value, dict) \
                else [(f"{where}[{i}]", v) for i, v in enumerate(value)]
            stack.extend((v, sub, depth + 1) for sub, v in reversed(items))
    return None


def load(path: Path) -> dict[str, Any]:
    """Read a results.json (read_json), checking its schema version
    (ResultsError)."""
    data = read_json(path)
    if not isinstance(data, dict) or "schema" not in data:
        raise ResultsError(f"{path} is not a kfront results.json "
                           "(no 'schema' field)")
    if data["schema"] != SCHEMA_VERSION:
        raise ResultsError(f"{path} has results schema {data['schema']!r}; "
                           f"this kfront reads schema {SCHEMA_VERSION}")
    if not isinstance(data.get("results"), list):
        raise ResultsError(f"{path} has no 'results' list")
    return data


def _encodings(machine: dict[str, Any]) -> dict[str, dict[str, str]]:
    """Counter name -> {event, encoding}: the hardware event behind each
    PMU counter, from the machine record (empty without a PMU). The same
    name means different things on different cores (l1i_misses counts
    64-byte tag misses on Skylake, retired instructions that missed on
    Golden Cove), so reports always show it."""
    pmu = machine.get("pmu") if isinstance(machine.get("pmu"), dict) else {}
    enc = pmu.get("encodings") if isinstance(pmu.get("encodings"),
                                             dict) else {}
    return {str(k): {"event": str(v.get("event", "")),
                     "encoding": str(v.get("encoding", ""))}
            for k, v in enc.items() if isinstance(v, dict)}


def counter_label(name: str) -> str:
    """Human label of a counter; TSC is never passed off as core cycles."""
    labels = {
        "tsc": "TSC ticks (reference clock, not core cycles)",
        "cycles": "core cycles",
        "instructions": "instructions",
        "l1i_misses": "L1 I-cache misses",
        "itlb_misses": "I-TLB misses",
        "branch_misses": "branch mispredictions",
        "uops_dsb": "uops from the decoded-uop cache",
        "uops_mite": "uops from the legacy decoders",
        "fe_stalls": "front-end stall cycles",
        "l2_code_reads": "L2 code reads (L1i line fills)",
        "sim.l1i_misses": "simulated L1 I-cache misses",
        "vg.instructions": "instructions (callgrind)",
        "vg.i1_misses": "L1 I-cache misses (callgrind's cache simulator)",
    }
    sim = {
        "instructions": "simulated instructions",
        "l1i_misses": "simulated L1 I-cache misses",
        "uop_misses": "simulated uop-cache misses",
        "itlb_misses": "simulated I-TLB page walks",
        "itlb_l1_misses": "simulated L1 I-TLB misses",
        "uops_dsb": "simulated uops from the uop cache",
        "uops_mite": "simulated uops from the legacy decoders",
        "l1i_prefetches": "simulated L1 I-cache prefetches",
        "footprint_bytes": "simulated code footprint (bytes)",
        "taken_branches": "simulated taken branches",
    }
    parts = name.split(".")
    if parts[0] == "sim" and len(parts) == 3 and parts[2] in sim:
        return f"{sim[parts[2]]} ({parts[1]})"
    return labels.get(name, name)
