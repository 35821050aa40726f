/* SPDX-License-Identifier: MIT */
/* Open files: what a configuration needs, and the limit (fd_budget.h). */
#include "fd_budget.h"

#include <errno.h>
#include <sys/resource.h>

#include "linkcheck_io.h"

size_t fd_budget_need(const struct desired *want, size_t status_clients)
{
	/* bondd's own and the two shared sockets, below the ceiling ... */
	size_t p = FD_BUDGET_BASE + 2;

	for (size_t i = 0; i < want->n_bonds; i++)
		p += linkcheck_sockets_needed(&want->bonds[i]);
	/* ... and the smallest limit whose ceiling is that high (a quarter
	 * kept above it, at most all a full status socket takes): the
	 * ceiling grows with the limit, so a bisection between p and p plus
	 * the most ever kept finds it. */
	size_t lo = p, hi = p + status_clients + FD_BUDGET_BASE;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (fd_budget_packet_ceiling(mid, status_clients) >= p)
			hi = mid;
		else
			lo = mid + 1;
	}
	size_t soft = lo;
	return soft;
}

size_t fd_budget_packet_ceiling(size_t soft, size_t status_clients)
{
	size_t keep = soft / 4, most = status_clients + FD_BUDGET_BASE;

	if (keep > most)
		keep = most;
	return soft > keep ? soft - keep : 0;
}

int fd_limit_raise(size_t *soft, size_t *hard)
{
	struct rlimit rl;

	if (getrlimit(RLIMIT_NOFILE, &rl) < 0)
		return -errno;
	int err = 0;
	if (rl.rlim_cur < rl.rlim_max) {
		struct rlimit up = {.rlim_cur = rl.rlim_max, .rlim_max = rl.rlim_max};
		if (setrlimit(RLIMIT_NOFILE, &up) < 0)
			err = -errno;
		else
			rl = up;
	}
	*soft = rl.rlim_cur == RLIM_INFINITY ? (size_t)-1 : (size_t)rl.rlim_cur;
	*hard = rl.rlim_max == RLIM_INFINITY ? (size_t)-1 : (size_t)rl.rlim_max;
	return err;
}
