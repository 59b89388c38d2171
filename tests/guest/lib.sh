# SPDX-License-Identifier: GPL-2.0-or-later OR copyleft-next-0.3.1
#
# Helpers for scripts that run inside the guest: KTAP-like result lines
# that tests/run.sh counts, and a closing exit status that agrees.
nr_fail=0

ok()     { echo "ok - $*"; }
not_ok() { echo "not ok - $*"; nr_fail=$((nr_fail + 1)); }
# check NAME CMD...: one test case from a command's status.
check() {
	local name=$1
	shift
	if "$@"; then ok "$name"; else not_ok "$name"; fi
}
finish() { [ "$nr_fail" -eq 0 ] && exit 0; exit 1; }

# The seed's sysfs.sh, unmodified, when the harness has it (make check
# SEEDS=DIR copies the seed's files to /mnt/files/seeds).  Users do not
# have it: what needs it skips, and says what it would have compared.
SYSFS_SH=${SYSFS_SH:-/mnt/files/seeds/sysfs.sh}
SEED_HINT="enable with make check SEEDS=DIR (the seed's extracted files)"
have_seed() { [ -r "$SYSFS_SH" ]; }
# need_seed WHAT: the whole script needs the seed; exit 4 without it.
need_seed() {
	have_seed && return 0
	echo "# SKIP no seed sysfs.sh: would $1; $SEED_HINT"
	exit 4
}
# skip_seed NAME WHAT: one case that needs the seed, skipped without it.
skip_seed() { echo "ok - $1 # SKIP no seed sysfs.sh: would $2; $SEED_HINT"; }
