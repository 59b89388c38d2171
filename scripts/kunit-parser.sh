#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later OR copyleft-next-0.3.1
#
# Prints the directory of the kernel's own KTAP parser (tools/testing/
# kunit/kunit.py, `kunit.py parse FILE`), which make check uses to tell
# whether --format ktap is KTAP: linux-source-6.1's, through
# scripts/linux-source.sh.
#
#   scripts/kunit-parser.sh [CACHE_DIR]
set -euo pipefail

command -v python3 >/dev/null ||
	{ echo "kunit-parser: python3 not found: run scripts/deps.sh" >&2; exit 1; }
exec "$(dirname "$0")/linux-source.sh" ${1:+-c "$1"} tools/testing/kunit
