# SPDX-License-Identifier: GPL-2.0-or-later
"""kfront host tool: set-up, build, boot, test, collect and report."""

VERSION = '0.1.0'
