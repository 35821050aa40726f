/* SPDX-License-Identifier: MIT */
/* bondd: command line, then the daemon. */
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <net/if.h>
#include <sys/utsname.h>

#include "bondd_args.h"
#include "build_config.h"
#include "check_warn.h"
#include "config.h"
#include "daemon.h"
#include "fd_budget.h"
#include "log.h"
#include "observer.h"
#include "plan_preview.h"
#include "status_ipc.h"
#include "status_server.h"

/* sysexits.h values, spelled out where they are used. */
enum { EXIT_USAGE = 64, EXIT_CONFIG = 78 };
/* --detailed-exitcode: the plan would change something (terraform's and
 * Ansible's convention: 0 nothing, 2 changes, anything else an error). */
enum { EXIT_CHANGES = 2 };

/* Options the config sets that this kernel does not report to this caller
 * (learned from the bonds it has now, kernel_caps.h): warnings, not errors. */
struct version_note_ctx {
	const char *path;
	const struct desired_bond *bond;
};

static void print_version_note(void *ctx, const char *text)
{
	const struct version_note_ctx *c = ctx;

	check_warning(stderr, c->path, c->bond->line, "[%s]: %s", c->bond->name, text);
}

/* Options the running kernel's version lacks, by the option table's
 * kernel ranges (kernel_caps_version_notes): warnings; a value it refuses
 * was already an error of config_load_kernel. */
static void check_kernel_version(const char *path, const struct desired *want,
				 const struct kernel_caps *caps)
{
	struct utsname u;

	if (uname(&u) < 0)
		return;
	uint16_t kver = kernel_caps_parse_release(u.release);
	for (size_t i = 0; i < want->n_bonds; i++) {
		struct version_note_ctx c = {path, &want->bonds[i]};
		kernel_caps_version_notes(&want->bonds[i], kver, caps, print_version_note, &c);
	}
}

static void check_kernel_caps(const char *path, const struct desired *want)
{
	struct kernel_caps caps;
	char names[256];

	if (observer_learn_caps(&caps) < 0) {
		check_kernel_version(path, want, NULL);
		return;
	}
	check_kernel_version(path, want, &caps);
	for (size_t i = 0; i < want->n_bonds; i++) {
		uint64_t m = kernel_caps_unreported(&caps, &want->bonds[i]);
		/* Options newer than 6.1: check_kernel_version said it. */
		for (int id = 0; id < OPT__COUNT; id++)
			if (bond_option_kmin((enum bond_option_id)id))
				m &= ~OPT_BIT(id);
		if (m)
			check_warning(stderr, path, want->bonds[i].line, "[%s]: this kernel does not "
				      "report %s to this user: bondd sets it but can neither "
				      "compare nor repair it", want->bonds[i].name,
				      kernel_caps_names(m, names, sizeof(names)));
	}
}

/* A slave that does not exist now: bondd enslaves it when it appears,
 * which is right for a NIC still to come and wrong for a typo. */
static void check_slaves_exist(const char *path, const struct desired *want)
{
	for (size_t i = 0; i < want->n_bonds; i++) {
		const struct desired_bond *b = &want->bonds[i];
		for (size_t j = 0; !b->absent && j < b->n_slaves; j++)
			/* an entry by mac: or path: is said by identity_preview */
			if (b->slaves[j].sel.kind == SEL_NAME && !if_nametoindex(b->slaves[j].name))
				check_warning(stderr, path, b->line, "[%s]: slave %s does not exist now: "
					      "bondd enslaves it when it appears (is the name "
					      "right? ip link shows the NICs)",
					      b->name, b->slaves[j].name);
	}
}

static int check_config(const char *path, const struct check_opts *co)
{
	struct desired want = {0};
	struct config_diag diag = {0};
	struct utsname u;
	/* What this kernel refuses is an error, as at start and reload. */
	uint16_t kver = uname(&u) == 0 ? kernel_caps_parse_release(u.release) : 0;
	int err = config_load_kernel(path, kver, &want, &diag);

	/* Errors, then warnings (the order diag holds them in); warnings do
	 * not fail the check: the daemon would run this file. */
	for (size_t i = 0; i < diag.n_items; i++)
		check_print_diagnostic(stderr, &diag.items[i]);
	config_diag_free(&diag);
	if (err < 0)
		return EXIT_CONFIG;
	check_kernel_caps(path, &want);
	/* Valid, and taken at start (bondd runs idle), but a running bondd
	 * that manages bonds refuses it on reload (daemon.c, reload): say so
	 * here, or `bondd --check && systemctl reload bondd` surprises. */
	if (want.n_bonds == 0)
		check_warning(stderr, path, 0, "it defines no bonds: bondd runs idle with it at "
			      "start, and a running bondd that manages bonds refuses it on "
			      "reload (to stop managing every bond, stop the service)");
	/* The limits of this process: bondd run from here (or from the unit,
	 * LimitNOFILE= in bondd.service) raises its soft limit to its hard
	 * one (fd_budget.h). */
	struct rlimit rl;
	size_t need = fd_budget_need(&want, STATUS_SERVER_MAX_FDS);
	if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_max != RLIM_INFINITY &&
	    need > rl.rlim_max)
		check_warning(stderr, path, 0, "its %zu bonds need about %zu open files, more than "
			      "the limit here (%llu, RLIMIT_NOFILE): run so, bondd leaves "
			      "the slaves beyond it without the link check and says so; "
			      "raise LimitNOFILE= (bondd(8))", want.n_bonds, need,
			      (unsigned long long)rl.rlim_max);
	/* Which link each entry names now; one link named twice is an error
	 * (when the links can be read: --check also runs where they cannot). */
	int conflicts = identity_preview(&want, co->json ? stderr : stdout, stderr, co->plan);
	if (conflicts > 0) {
		desired_free(&want);
		return EXIT_CONFIG;
	}
	if (co->plan && conflicts < 0) {
		fprintf(stderr, "bondd: reading the kernel's links: %s\n", strerror(-conflicts));
		desired_free(&want);
		return 1;
	}
	check_slaves_exist(path, &want);
	check_readable_by_service(path, stderr);
	/* With --json, stdout holds the document alone (warnings are on
	 * stderr). */
	if (!co->json)
		printf("configuration OK\n");
	if (co->plan && (err = plan_preview(&want, co->json, stdout)) < 0) {
		fprintf(stderr, "bondd: reading the kernel's links: %s\n", strerror(-err));
		desired_free(&want);
		return 1;
	}
	desired_free(&want);
	return co->plan && co->detailed_exitcode && err == 1 ? EXIT_CHANGES : 0;
}

int main(int argc, char **argv)
{
	struct bondd_args a;

	/* Internal (bondd(8), PRIVILEGE SEPARATION): bondd's own status
	 * process, exec()ed by bondd where capset is refused, with the status
	 * socket as descriptor 3 and its socket to bondd as 4. */
	if (argc >= 3 && strcmp(argv[1], "--status-process") == 0) {
		log_init(argc >= 4 && strcmp(argv[3], "--debug") == 0);
		if (!ipc_caps_empty() || sched_getscheduler(0) != SCHED_OTHER) {
			log_err("status process: still privileged after exec; not serving clients");
			return 1;
		}
		return status_process_run(3, 4, argv[2]);
	}

	bondd_args_parse(argc, argv, getenv("BONDD_EVENT_RCVBUF"), getenv("BONDD_UDEV_DIR"), &a);
	switch (a.run) {
	case BONDD_RUN_VERSION:
		printf("bondd %s\n", BONDD_VERSION);
		return 0;
	case BONDD_RUN_HELP:
		bondd_args_usage(stdout);
		return 0;
	case BONDD_RUN_USAGE:
		bondd_args_say(&a, stderr);
		return EXIT_USAGE;
	case BONDD_RUN_CHECK:
		return check_config(a.opts.config_path, &a.check);
	case BONDD_RUN_DAEMON:
		break;
	}
	log_init(a.debug);
	return daemon_main(&a.opts);
}
