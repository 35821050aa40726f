/* SPDX-License-Identifier: MIT */
/*
 * uml-launch: start User-Mode Linux on hosts whose CPU has a large XSAVE area.
 *
 *   uml-launch /usr/bin/linux.uml [KERNEL ARGS...]
 *
 * Why it exists.  At boot, UML 6.1 (Debian's user-mode-linux) asks the host
 * once for a guest process's extended FPU state with
 * ptrace(PTRACE_GETREGSET, pid, NT_X86_XSTATE, ...).  If that works, UML
 * saves and restores that state for every guest process through a buffer of
 * a fixed size compiled into UML.  The host kernel only accepts an
 * NT_X86_XSTATE write of exactly the host's full XSAVE size, and on a CPU
 * with AVX-512 and AMX (8 KiB of tile data alone) that is larger than UML's
 * buffer: the write fails with EFAULT, UML prints "ptrace set fp regs failed,
 * errno = 14" at the first userspace process and the guest dies ("Attempted
 * to kill init").
 *
 * The fix here: a seccomp filter makes that one request fail with EIO.  UML
 * then believes the host has no XSTATE regset and falls back to
 * PTRACE_GETFPREGS/SETFPREGS, the legacy fixed-size x87/SSE area, which
 * works on any host.  The filter is inherited by UML's host-side helper
 * processes; every other system call, and every other ptrace request, is
 * allowed.
 *
 * The fallback has a price: the upper halves of the AVX registers and the
 * AVX-512 mask registers are not carried across guest context switches, so
 * glibc's AVX2/EVEX string functions misbehave in the guest.  That half of
 * the workaround is GLIBC_TUNABLES, set by run-sandbox (in this program's
 * environment and on the guest kernel command line) and by guest-init.
 *
 * A filter needs PR_SET_NO_NEW_PRIVS (or CAP_SYS_ADMIN); we set it, which is
 * harmless for UML.
 */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>
#include <sys/syscall.h>

#ifndef NT_X86_XSTATE
#define NT_X86_XSTATE 0x202 /* from <linux/elf.h>, which clashes with <elf.h> */
#endif

/* Offset of the low 32 bits of a 64-bit field of seccomp_data (little-endian). */
#define LOW32(field) ((unsigned int)offsetof(struct seccomp_data, field))

int main(int argc, char **argv)
{
	struct sock_filter filter[] = {
		/* Only x86_64 system call numbers mean what we test below. */
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, LOW32(arch)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, AUDIT_ARCH_X86_64, 0, 7),
		/* ptrace(PTRACE_GETREGSET, pid, NT_X86_XSTATE, iov) -> EIO */
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, LOW32(nr)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_ptrace, 0, 5),
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, LOW32(args[0])),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, PTRACE_GETREGSET, 0, 3),
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, LOW32(args[2])),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, NT_X86_XSTATE, 0, 1),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | EIO),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	};
	struct sock_fprog prog = {
		.len = sizeof(filter) / sizeof(filter[0]),
		.filter = filter,
	};

	if (argc < 2) {
		fprintf(stderr, "usage: %s /path/to/linux.uml [KERNEL ARGS...]\n", argv[0]);
		return 2;
	}
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) {
		fprintf(stderr, "uml-launch: PR_SET_NO_NEW_PRIVS: %s\n", strerror(errno));
		return 1;
	}
	if (prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog) != 0) {
		fprintf(stderr, "uml-launch: seccomp filter: %s\n", strerror(errno));
		return 1;
	}
	execv(argv[1], argv + 1);
	fprintf(stderr, "uml-launch: %s: %s\n", argv[1], strerror(errno));
	return 127;
}
