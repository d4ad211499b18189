#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Generate the footprint packet-filter rules (kernel/net/filter_rules.c).

Each rule is a distinct C function assembled from randomly chosen and
randomly parameterised match clauses (port ranges, prefixes, TCP flags,
connection state, token buckets, payload hashes, bitmaps, small state
machines), so K rules are K times the code, not one function K times.
The generator is seeded: every build produces the same source.

Benchmark traffic uses ports below 6000 or above 32767; a rule drops
only packets with a port in [6000, 30000), so the benchmarks never see a
filter drop while fuzzed traffic can.
"""
import argparse
import random
from typing import Callable, List

Clause = Callable[[random.Random, int], List[str]]


def c_port_range(r: random.Random, n: int) -> List[str]:
    lo = r.randrange(0, 60000)
    hi = lo + r.randrange(1, 5000)
    field = r.choice(["sport", "dport"])
    return [f"if (p->{field} >= {lo} && p->{field} <= {hi}) {{",
            f"\tacc += 0x{r.getrandbits(32):08x}u;",
            f"\tst->s[{r.randrange(4)}]++;",
            "} else {",
            f"\tacc ^= 0x{r.getrandbits(32):08x}u;",
            "}"]


def c_prefix(r: random.Random, n: int) -> List[str]:
    plen = r.randrange(8, 31)
    mask = (0xffffffff << (32 - plen)) & 0xffffffff
    net = r.choice([0x0a000000, 0xc0a80000, 0xac100000,
                    r.getrandbits(32)]) & mask
    field = r.choice(["saddr", "daddr"])
    s = r.randrange(1, 31)
    return [f"if ((ntohl(p->{field}) & 0x{mask:08x}u) == 0x{net:08x}u)",
            f"\tacc = acc * {r.randrange(3, 1 << 16, 2)}u + {r.randrange(1, 99)}u;",
            "else",
            f"\tacc = (acc >> {s}) | (acc << {32 - s});"]


def c_flags(r: random.Random, n: int) -> List[str]:
    mask = r.choice([0x3f, 0x17, 0x1f, 0x13, 0x12])
    cases = r.sample(range(0, mask + 1), 3)
    return [f"switch (p->tcp_flags & 0x{mask:02x}) {{",
            f"case 0x{cases[0]:02x}:",
            f"\tacc += {r.randrange(1, 1 << 20)}u;",
            "\tbreak;",
            f"case 0x{cases[1]:02x}:",
            f"\tacc ^= 0x{r.getrandbits(32):08x}u;",
            f"\tst->s[{r.randrange(4)}] += p->payload_len;",
            "\tbreak;",
            f"case 0x{cases[2]:02x}:",
            f"\tacc = ~acc + {r.randrange(1, 1000)}u;",
            "\tbreak;",
            "default:",
            f"\tacc -= {r.randrange(1, 1 << 16)}u;",
            "\tbreak;",
            "}"]


def c_conn_state(r: random.Random, n: int) -> List[str]:
    a = r.randrange(0, 11)
    b = r.randrange(0, 11)
    return [f"if (p->conn_state == {a})",
            f"\tst->s[{r.randrange(4)}] += p->payload_len + {r.randrange(1, 9)}u;",
            f"else if (p->conn_state > {b})",
            f"\tacc |= 1u << {r.randrange(32)};",
            "else",
            f"\tacc += p->conn_state * {r.randrange(3, 999)}u;"]


def c_token_bucket(r: random.Random, n: int) -> List[str]:
    rate = r.randrange(1, 64)
    cap = r.randrange(100, 100000)
    cost = r.randrange(1, 50)
    return ["{",
            "\tu64 dt = p->now - st->last;",
            "",
            "\tst->last = p->now;",
            f"\tst->tokens += (u32)min(dt, (u64){cap}) * {rate}u;",
            f"\tif (st->tokens > {cap}u)",
            f"\t\tst->tokens = {cap}u;",
            f"\tif (st->tokens >= {cost}u) {{",
            f"\t\tst->tokens -= {cost}u;",
            "\t\tacc += 1;",
            "\t} else {",
            "\t\tst->s[3]++;",
            "\t}",
            "}"]


def c_length_hist(r: random.Random, n: int) -> List[str]:
    sh = r.randrange(2, 10)
    return [f"st->s[(p->len >> {sh}) & 3] += {r.randrange(1, 17)}u;",
            f"if (p->payload_len > {r.randrange(0, 1460)}u)",
            f"\tacc += p->payload_len ^ {r.randrange(1, 1 << 16)}u;"]


def c_payload_hash(r: random.Random, n: int) -> List[str]:
    nbytes = r.randrange(2, 17)
    prime = r.choice([0x01000193, 0x9e3779b1, 0x85ebca6b, 0xc2b2ae35,
                      0x27d4eb2f, 0x165667b1])
    return ["{",
            f"\tu32 i, n = min((u32)p->payload_len, {nbytes}u);",
            "",
            "\tfor (i = 0; i < n; i++)",
            f"\t\th = (h ^ p->payload[i]) * 0x{prime:08x}u;",
            f"\tacc += h >> {r.randrange(1, 17)};",
            "}"]


def c_ttl_tos(r: random.Random, n: int) -> List[str]:
    return [f"if (p->ttl < {r.randrange(1, 64)} || (p->tos & 0x{r.getrandbits(8):02x}))",
            f"\tacc ^= 0x{r.getrandbits(32):08x}u;",
            "else",
            f"\tacc += p->ttl * {r.randrange(3, 9999)}u;"]


def c_bitmap(r: random.Random, n: int) -> List[str]:
    words = ", ".join(f"0x{r.getrandbits(32):08x}u" for _ in range(8))
    field = r.choice(["sport", "dport"])
    return ["{",
            f"\tstatic const u32 bm[8] = {{ {words} }};",
            "",
            f"\tif (bm[(p->{field} >> 5) & 7] & (1u << (p->{field} & 31)))",
            f"\t\tacc += {r.randrange(1, 1 << 24)}u;",
            "\telse",
            f"\t\tst->s[{r.randrange(4)}] ^= {r.randrange(1, 1 << 24)}u;",
            "}"]


def c_seq_window(r: random.Random, n: int) -> List[str]:
    return [f"if ((s32)(p->seq - p->ack) > {r.randrange(-(1 << 30), 1 << 30)})",
            f"\tacc += (p->seq >> {r.randrange(0, 24)}) & 0x{r.getrandbits(16):04x}u;",
            "else",
            f"\tacc -= (u32)p->window * {r.randrange(3, 999)}u;"]


def c_fsm(r: random.Random, n: int) -> List[str]:
    table = ", ".join("{ " + ", ".join(str(r.randrange(4)) for _ in range(4))
                      + " }" for _ in range(4))
    sh = r.randrange(0, 5)
    return ["{",
            f"\tstatic const u8 tr[4][4] = {{ {table} }};",
            "",
            f"\tst->fsm = tr[st->fsm & 3][(p->tcp_flags >> {sh}) & 3];",
            f"\tacc += st->fsm * {r.randrange(3, 999)}u;",
            "}"]


def c_addr_mix(r: random.Random, n: int) -> List[str]:
    return [f"h ^= p->daddr * 0x{r.getrandbits(32) | 1:08x}u;",
            f"h ^= h >> {r.randrange(5, 27)};",
            f"h *= 0x{r.getrandbits(32) | 1:08x}u;",
            f"acc += h & 0x{r.getrandbits(32):08x}u;"]


def c_port_list(r: random.Random, n: int) -> List[str]:
    ports = [r.randrange(1, 65536) for _ in range(r.randrange(2, 6))]
    conds = " ||\n\t    ".join(
        f"p->{r.choice(['sport', 'dport'])} == {x}" for x in ports)
    return [f"if ({conds})",
            f"\tacc += {r.randrange(1, 1 << 12)}u;"]


def c_modulo(r: random.Random, n: int) -> List[str]:
    return [f"acc += ((u32)p->len * {r.randrange(3, 9999)}u) % {r.randrange(3, 997)}u;",
            f"st->s[{r.randrange(4)}] += (acc % {r.randrange(3, 61)}u) == 0;"]


CLAUSES: List[Clause] = [c_port_range, c_prefix, c_flags, c_conn_state,
                         c_token_bucket, c_length_hist, c_payload_hash,
                         c_ttl_tos, c_bitmap, c_seq_window, c_fsm,
                         c_addr_mix, c_port_list, c_modulo]


def gen_rule(r: random.Random, n: int) -> List[str]:
    out = [f"static int nf_rule_{n:04d}(struct nf_rule_state *st, "
           "const struct nf_pkt *p)",
           "{",
           f"\tu32 acc = 0x{r.getrandbits(32):08x}u;",
           f"\tu32 h = p->saddr ^ 0x{r.getrandbits(32):08x}u;",
           ""]
    for _ in range(r.randrange(4, 13)):
        out += ["\t" + line if line else "" for line in r.choice(CLAUSES)(r, n)]
    lo = r.randrange(6000, 29000)
    hi = lo + r.randrange(1, 1000)
    out += ["\tst->hits++;",
            "\tst->s[0] += acc;",
            "\tst->s[1] += h;",
            f"\tif (unlikely(p->dport >= {lo} && p->dport < {hi} &&",
            f"\t\t     (acc & 0x{r.choice([1, 3, 7, 15])}u) == 0))",
            "\t\treturn NF_DROP;",
            "\treturn NF_ACCEPT;",
            "}",
            ""]
    return out


def generate(count: int, seed: int, footprint_max: bool = False) -> str:
    r = random.Random(seed)
    lines = ["/* SPDX-License-Identifier: GPL-2.0-or-later */",
             "/* Generated by kernel/net/gen_filters.py: do not edit. */",
             '#include <kfront/net/filter.h>',
             ""]
    if footprint_max:
        # the suite checks footprint= against the header's number
        lines += ['#include <kfront/bench.h>', "",
                  f"_Static_assert(BENCH_FOOTPRINT_MAX == {count},",
                  '	       "BENCH_FOOTPRINT_MAX is the number of rules");', ""]
    for n in range(count):
        lines += gen_rule(r, n)
    lines.append("const nf_match_fn nf_rule_table[] = {")
    lines += [f"\tnf_rule_{n:04d}," for n in range(count)]
    lines += ["};", "",
              f"const u32 nf_rule_table_size = {count};", ""]
    return "\n".join(lines)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("output")
    ap.add_argument("--rules", type=int, default=1024)
    ap.add_argument("--seed", type=int, default=0x6b66)
    ap.add_argument("--footprint-max", action="store_true",
                    help="assert that BENCH_FOOTPRINT_MAX is --rules")
    args = ap.parse_args()
    text = generate(args.rules, args.seed, args.footprint_max)
    with open(args.output, "w", encoding="utf-8") as f:
        f.write(text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
