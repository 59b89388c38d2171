# SPDX-License-Identifier: GPL-2.0-or-later OR copyleft-next-0.3.1
# Sourced by scripts/vm.sh and tests/run.sh: tcg_text_patch_freeze LOG.
#
# A TCG guest that froze while the kernel patched a traced function's
# entry (a BPF trampoline attached to, or detached from, a hot function
# such as mutex_lock or __mutex_init).  Two faces, both seen: every vCPU
# soft-locked inside the patching, the stack through
# bpf_trampoline_update; or, after the patching ended, every vCPU
# spinning on the entry's int3 (RIP at fn+0x0, asm_exc_int3): the int3 is
# gone from memory, the kprobe handler backs up over it, and QEMU's
# multi-threaded TCG keeps executing its stale translation that still
# holds it.  An attach/detach loop under mutex load froze so after 17
# cycles (docs/design.md §7); the same loop with `thread=single` ran
# 2.5 times slower, too slow for CI.  It is the emulator's
# cross-modifying code, not the tool.  tests/run.sh retries such a run
# once and says so; a second freeze is a failure like any hang.
#
# The evidence that the guest is stuck: the soft-lockup detector or an
# RCU stall, or, on a kernel that has neither (the knob kernel), the
# SysRq backtrace vm.sh asks a hung guest for.  A bare-clone run on
# 2026-12-08 hung so in guest/lockdep-agree-0028: one vCPU at
# mutex_lock_nested+0x0, the other in asm_exc_int3 inside
# bpf_tracing_prog_attach.
tcg_text_patch_freeze() {
	grep -Eq 'soft lockup|rcu_(preempt|sched) self-detected stall|sysrq: Show backtrace of all active CPUs' \
		"$1" 2>/dev/null &&
	grep -Eq 'bpf_trampoline_update|modify_ftrace_direct|text_poke_bp|RIP: 0010:(asm_exc_int3|[A-Za-z0-9_.]+\+0x0/)' "$1"
}
