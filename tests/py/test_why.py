# SPDX-License-Identifier: GPL-2.0-or-later
"""The report's "Why" tables (tools/kfront/why.py) on a real host run under
callgrind, trimmed to two workloads (tests/fixtures/real_host_vg.json, from
`./kfront host --valgrind --quick --bench 'net.*,sched.*,mix.*'` on the
development VM): every significant difference gets the functions behind it,
and a point without a function table gets none."""
from __future__ import annotations

import copy
import json
import unittest

from kfront import model, paths, report, why

FIXTURE = paths.ROOT / 'tests' / 'fixtures' / 'real_host_vg.json'


class Why(unittest.TestCase):
    def setUp(self) -> None:
        self.raw = json.loads(FIXTURE.read_text())

    def test_functions_behind_each_difference(self) -> None:
        found = {t[0].split(':')[0]: t for t in why.tables(model.from_dict(self.raw))}
        self.assertEqual(set(found), {'net.udp_stream @0', 'sched.chat'})
        title, headers, rows, caption = found['net.udp_stream @0']
        self.assertIn('Os vs O2', title)
        self.assertEqual(headers, ['function', 'O2', 'Os', 'difference', 'share'])
        # O2 calls the C memcpy; Os copies in line (rep movsb) in its callers
        self.assertEqual([r[0] for r in rows], ['memcpy', 'udp_recvmsg', 'loopnic_write'])
        self.assertIn('--counter vg.instructions --footprint 0', caption)
        # udp_recvmsg is not among O2's listed functions: its O2 figure is a
        # share of O2's (other) row, not 0, at most O2's tenth listed
        # figure, and the caption says so
        self.assertEqual(rows[1][1:], ['<= 128,000.0', '3,014,567.0', '?', ''])
        self.assertIn("<= X: not among that variant's listed functions", caption)

    def test_report_section(self) -> None:
        sections = report.build_document(model.from_dict(self.raw))
        found = [s for s in sections if s.title.startswith('Why')]
        self.assertEqual(len(found), 1)
        self.assertIn('net.udp_stream @0: Os vs O2, vg.instructions ratio 1.347',
                      found[0].blocks)

    def test_no_table_no_why(self) -> None:
        raw = copy.deepcopy(self.raw)
        for e in raw['results']:
            e['vg_functions'] = None
        self.assertEqual(why.tables(model.from_dict(raw)), [])


if __name__ == '__main__':
    unittest.main()
