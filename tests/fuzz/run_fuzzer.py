#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Run a libFuzzer target for a bounded time in a scratch corpus; fail on
any finding (libFuzzer exits non-zero and writes a crash-* file)."""
import subprocess
import sys
import tempfile


def main() -> int:
    if len(sys.argv) != 3:
        print('usage: run_fuzzer.py FUZZER SECONDS', file=sys.stderr)
        return 2
    fuzzer, seconds = sys.argv[1], int(sys.argv[2])
    with tempfile.TemporaryDirectory(prefix='kfront-fuzz-') as corpus:
        res = subprocess.run([fuzzer, f'-max_total_time={seconds}', '-max_len=4096',
                              '-rss_limit_mb=2048', '-seed=1',
                              f'-artifact_prefix={corpus}/', corpus],
                             capture_output=True, text=True)
    tail = res.stderr.strip().splitlines()[-5:]
    print('\n'.join(tail))
    return res.returncode


if __name__ == '__main__':
    sys.exit(main())
