#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later OR copyleft-next-0.3.1
#
# Runs in the guest: the seed's sysfs.sh, unmodified, against our
# test_sysfs.ko, as `sysfs.sh all`.  Why: that suite is the specification
# of the module's interface; this turns its free-form output into one
# result line per test (ok unless sysfs.sh printed FAIL, a dmesg splat,
# a missing attribute or too few runs) plus the suite's exit status.
# 0027 and 0028 are disabled in sysfs.sh (they deadlock without the fix):
# deadlock-fixed.sh covers them.
. /mnt/files/lib.sh
. /mnt/files/sysfs-lib.sh
need_seed "run the seed's sysfs.sh all against test_sysfs.ko"

out=$(mktemp)
stamps=$(mktemp)
mark="sysfs-sh.sh start $$"
echo "$mark" >/dev/kmsg

t0=$(uptime_s)
# Each line of sysfs.sh's output, as a diagnostic, and the time each run
# of a test began.
bash "$SYSFS_SH" all 2>&1 | while IFS= read -r line; do
	printf '# %s\n' "$line"
	printf '%s\n' "$line" >>"$out"
	case $line in
	"Running test: "*) echo "$(uptime_s) $line" >>"$stamps" ;;
	esac
done
rc=${PIPESTATUS[0]}
t1=$(uptime_s)

# One awk over the suite's own list (NNNN x COUNT - description), the
# time stamps and the output: forks are slow under TCG.
bash "$SYSFS_SH" -l >"$out.list"
awk -v t1="$t1" '
FILENAME == ARGV[1] {
	if ($0 ~ /^[0-9][0-9][0-9][0-9] x [0-9]+ - /) {
		order[++n] = $1
		count[$1] = $3
		desc[$1] = substr($0, index($0, " - ") + 3)
	}
	next
}
FILENAME == ARGV[2] {
	id = substr($4, length("sysfs_test_") + 1)
	if (!(id in begin)) {
		begin[id] = $1
		started[++m] = id
	}
	next
}
/^Running test: / { cur = substr($3, length("sysfs_test_") + 1); runs[cur]++ }
/^Skipping test [0-9]+ as its disabled/ { disabled[$3] = 1 }
/^Target for test [0-9]+: / { id = $4; sub(/:$/, "", id); missing[id] = 1 }
cur != "" && /FAIL/ { failed[cur] = 1 }
cur != "" && /something found in dmesg/ { splat[cur] = 1 }
END {
	for (i = 1; i <= m; i++)
		end[started[i]] = i < m ? begin[started[i + 1]] : t1
	for (i = 1; i <= n; i++) {
		id = order[i]
		if (id in disabled) {
			printf "# sysfs.sh %s: disabled in sysfs.sh, not run\n", id
			continue
		}
		secs = (id in begin) ? end[id] - begin[id] : 0
		name = sprintf("sysfs.sh %s x%d: %s (%.2f s)", id, count[id],
			       desc[id], secs)
		if (id in missing)
			printf "not ok - %s: attribute missing\n", name
		else if (runs[id] < count[id])
			printf "not ok - %s: %d of %d runs\n", name, runs[id],
			       count[id]
		else if (id in failed)
			printf "not ok - %s: FAIL\n", name
		else if (id in splat)
			printf "not ok - %s: splat in dmesg\n", name
		else
			printf "ok - %s\n", name
	}
}' "$out.list" "$stamps" "$out" >"$out.results"
cat "$out.results"
nr_fail=$(grep -c '^not ok' "$out.results")

echo "# sysfs.sh all: exit $rc in $(sub_s "$t0" "$t1") s"
check "sysfs.sh all exits 0" test "$rc" -eq 0
splats=$(dmesg_splats "$mark")
[ -z "$splats" ] || sed 's/^/# /' <<<"$splats"
check "no kernel splat in dmesg during sysfs.sh all" test -z "$splats"
finish
