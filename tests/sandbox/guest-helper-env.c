/* SPDX-License-Identifier: MIT */
/*
 * guest-helper-env: runs a program that the UML guest's kernel starts by
 * itself (its modprobe, /proc/sys/kernel/modprobe) with GLIBC_TUNABLES set.
 *
 *   echo /path/guest-helper-env > /proc/sys/kernel/modprobe
 *   guest-helper-env ARGS...   runs  GUEST_HELPER ARGS...
 *
 * Why it exists.  Under uml-launch the guest does not keep the upper halves
 * of the AVX registers across context switches, so every glibc program in
 * the guest must start with GLIBC_TUNABLES masking AVX (see uml-launch.c).
 * guest-init exports it to everything it starts, but the kernel starts its
 * helpers with an environment of its own (kernel/umh.c, call_modprobe in
 * kernel/module/kmod.c: HOME, TERM, PATH only).  A shell script as the
 * helper then runs unmasked and fails at once (its variables come out
 * empty).  So the helper is this program: it uses no libc at all (raw
 * system calls, x86_64 only like the sandbox), takes GLIBC_TUNABLES from
 * the kernel command line (/proc/cmdline, where uml-boot puts it) and
 * executes the real helper, /run/guest-helper (a script the test writes),
 * with it added to the environment.
 */

#define SYS_read 0
#define SYS_open 2
#define SYS_close 3
#define SYS_execve 59
#define SYS_exit 60

static long sys3(long n, long a, long b, long c)
{
	long r;
	__asm__ volatile("syscall" : "=a"(r) : "a"(n), "D"(a), "S"(b), "d"(c)
			 : "rcx", "r11", "memory");
	return r;
}

static char cmdline[4096];
static char tunables[4096];
static char *envp[64];

/* The GLIBC_TUNABLES=... word of the kernel command line into tunables. */
static void find_tunables(void)
{
	static const char key[] = "GLIBC_TUNABLES=";
	long fd = sys3(SYS_open, (long)"/proc/cmdline", 0, 0), n = 0, r;

	if (fd < 0)
		return;
	while (n < (long)sizeof(cmdline) - 1 &&
	       (r = sys3(SYS_read, fd, (long)(cmdline + n), (long)sizeof(cmdline) - 1 - n)) > 0)
		n += r;
	sys3(SYS_close, fd, 0, 0);
	for (long i = 0; i < n; i++) {
		if (i > 0 && cmdline[i - 1] != ' ')
			continue;
		long k = 0;
		while (key[k] && i + k < n && cmdline[i + k] == key[k])
			k++;
		if (key[k])
			continue;
		long j = 0;
		for (; i + j < n && cmdline[i + j] != ' ' && cmdline[i + j] != '\n' &&
		       j < (long)sizeof(tunables) - 1; j++)
			tunables[j] = cmdline[i + j];
		tunables[j] = '\0';
		return;
	}
}

void helper_main(long *sp);
__attribute__((used)) void helper_main(long *sp)
{
	long argc = sp[0];
	char **argv = (char **)(sp + 1), **env = argv + argc + 1;
	int n = 0;

	find_tunables();
	for (; *env && n < 62; env++)
		envp[n++] = *env;
	if (tunables[0])
		envp[n++] = tunables;
	envp[n] = 0;
	argv[0] = "/run/guest-helper";
	sys3(SYS_execve, (long)argv[0], (long)argv, (long)envp);
	sys3(SYS_exit, 127, 0, 0);
}

__asm__(".globl _start\n"
	"_start:\n"
	"	xor %rbp, %rbp\n"
	"	mov %rsp, %rdi\n"
	"	and $-16, %rsp\n"
	"	call helper_main\n"
	"	hlt\n");
