// SPDX-License-Identifier: GPL-2.0-or-later OR copyleft-next-0.3.1
/*
 * What the user reads: --help, the one-line reminder after an error, and
 * the names of the output formats.  Apart from the parser so that the
 * text can be edited, and reviewed, as text.
 */
#include "cli/options.h"

const char *opt_format_name(enum so_format format)
{
	switch (format) {
	case SO_FMT_JSON:
		return "json";
	case SO_FMT_KTAP:
		return "ktap";
	default:
		return "text";
	}
}

void opt_usage_line(FILE *out)
{
	fprintf(out,
		"usage: sysfs-observe [record [-o FILE] | report [-i FILE]]\n"
		"         [--attach | --test ID|FROM-TO|all | --watch ID | --list | --probes] [OPTIONS]\n"
		"Try 'sysfs-observe --help' for more.\n");
}

void opt_usage(FILE *out)
{
	fprintf(out,
"usage: sysfs-observe [OPTIONS] --attach | --test ID|FROM-TO|all | --watch ID\n"
"       sysfs-observe record [-o FILE] [OPTIONS] --attach | --test ID\n"
"       sysfs-observe report [-i FILE] [--format text|json]\n"
"       sysfs-observe --list | --probes | --help | --version\n"
"\n"
"Watch sysfs/kernfs writes, active references, drains, module references\n"
"and locks with eBPF; report lock-order cycles as DEADLOCK-PRONE or GATED.\n"
"\n"
"What to do:\n"
"  --attach            observe whatever runs until Ctrl-C or --duration\n"
"  --attach -- CMD...  observe while CMD runs, stop when it exits\n"
"  --test ID|all       run a sysfs.sh scenario (or all) under observation\n"
"  --test FROM-TO      ... the scenarios FROM to TO (e.g. 0029-0032)\n"
"  --watch ID          run a scenario again and again until it fails\n"
"  --list              list the scenarios\n"
"  --probes            print how each probe attaches on this kernel\n"
"  record              like the above, into a trace file (-o, default\n"
"                      " SO_DEFAULT_TRACE ")\n"
"  report              print a trace file's summary (-i, same default)\n"
"\n"
"Filters:\n"
"  --module NAME       only this module's attributes and references\n"
"  --module PATH.ko    ... and scenarios load this file, not modules.dep's\n"
"  --path PREFIX       only sysfs paths under PREFIX\n"
"  --pid PID           only this process\n"
"  --duration S        stop --attach after S seconds\n"
"  --hang-timeout S    a task blocked S seconds counts as a hang\n"
"\n"
"Scenarios:\n"
"  --count ID N        run scenario ID N times (repeatable)\n"
"  --fixed             load the module with enable_try_module_get=1\n"
"  --param NAME=VAL    extra module parameter (repeatable)\n"
"  --window S          the loops' time window (default 2 s)\n"
"\n"
"The kernfs knobs (a kernel from kernfs/; see --test 0029-0032):\n"
"  --knob NAME=VALUE   set a kernfs knob for an --attach session,\n"
"                      restored after it (repeatable): wait_at_start,\n"
"                      wait_before_mutex, wait_after_mutex,\n"
"                      wait_after_active (Y/N), sleep_after_wait_ms,\n"
"                      interval, probability, times, space, verbose\n"
"\n"
"Output:\n"
"  --format FMT        text (default), json, or ktap (scenario runs)\n"
"  -q, --quiet         no live stream, the summary only\n"
"  -v, --verbose       more detail; -vv debug; -vvv libbpf debug too\n"
"  -E, --entries N     rows per summary table (default %u; 0 for all)\n"
"  --svg FILE          the picture of each cycle and deadlock (SVG)\n"
"  --addresses         print kernel addresses, not #handles (root only)\n"
"  --ringbuf-kib N     the ring buffer's size in KiB (default 4096)\n"
"  --map-nr-entries N  entries of each kernel lock table (default 4096-16384)\n"
"  -o, --output FILE   record: the trace file to write\n"
"  -i, --input FILE    report: the trace file to read\n"
"  -h, --help          this text\n"
"      --version       print the version\n"
"\n"
"Exit status (kselftest): 0 pass, 1 fail or deadlock-prone, 2 usage,\n"
"4 skip (no root, no BTF, no tracing in this kernel; no kernfs knobs for\n"
"--knob and scenarios 0029-0032: build that kernel, make kernfs-kernel).\n"
"\n"
"EXAMPLES:\n"
"  sudo sysfs-observe --test 0028          # rmmod under lock: the cycle\n"
"  sudo sysfs-observe --test 0028 --fixed  # the same, gated by the fix\n"
"  sudo sysfs-observe --test all --format ktap\n"
"  sudo sysfs-observe --attach --module test_sysfs --duration 10\n"
"  sudo sysfs-observe --test 0032          # store vs removal, knob kernel\n"
"  sudo sysfs-observe --attach --knob wait_after_active=Y \\\n"
"       --knob probability=100 --knob times=1 -- sh -c 'echo 1 >FILE'\n"
"  sudo sysfs-observe record -o 0018.data --test 0018\n"
"  sysfs-observe report -i 0018.data --format json\n",
		SO_ENTRIES_DEFAULT);
}
