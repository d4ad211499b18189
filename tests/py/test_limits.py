# SPDX-License-Identifier: GPL-2.0-or-later
"""Limits the kernel and the host tool must agree on, each stated once in
the kernel's headers and checked here against the tool's copy."""
from __future__ import annotations

import re
import unittest

from kfront import paths, records


def header_define(header: str, name: str) -> int:
    text = (paths.ROOT / 'include' / 'kfront' / header).read_text()
    m = re.search(rf'^#define {name}\s+(\d+)', text, re.M)
    assert m, f'{name} not found in {header}'
    return int(m.group(1))


class KernelAndToolAgree(unittest.TestCase):
    def test_record_payload_limit(self) -> None:
        self.assertEqual(records.MAX_PAYLOAD, header_define('record.h', 'RECORD_PAYLOAD_MAX'))

    def test_a_command_line_at_its_limit_leaves_room_in_suite_begin(self) -> None:
        # suite_begin quotes the line once (its bytes need no escaping,
        # kernel/cmdline.c refuses those that would); the machine
        # description needs the rest (over 2 KB under QEMU).
        cmdline_max = header_define('cmdline.h', 'CMDLINE_MAX')
        self.assertGreaterEqual(records.MAX_PAYLOAD - (cmdline_max - 1), 4096)


if __name__ == '__main__':
    unittest.main()
