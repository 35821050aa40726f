/* SPDX-License-Identifier: MIT */
/* Frames between bondd, its status process and its snapshots (status_ipc.h). */
#include "status_ipc.h"

#include <errno.h>
#include <sched.h>
#include <string.h>
#include <unistd.h>
#include <stddef.h>
#include <linux/audit.h>
#include <linux/capability.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/syscall.h>

int ipc_frame_check(const struct ipc_hdr *h, bool from_bondd)
{
	uint32_t want = UINT32_MAX; /* a fixed payload size, or any up to the bound */

	switch (h->type) {
	case IPC_SNAP_REQ:
	case IPC_RELOAD:
	case IPC_PONG:
		want = 0;
		break;
	case IPC_CHECK:
	case IPC_PROC:
		want = sizeof(struct ipc_names);
		break;
	case IPC_TROUBLE:
		want = sizeof(struct ipc_trouble);
		break;
	case IPC_SNAP:
		want = sizeof(uint64_t);
		break;
	case IPC_SNAP_SAME:
	case IPC_CHECK_DONE:
	case IPC_PING:
		want = 0;
		break;
	case IPC_EVENT:
		want = sizeof(struct event);
		break;
	case IPC_CHECK_ANS:
	case IPC_TRY:
	case IPC_TRIAL_WAIT:
		want = sizeof(uint32_t);
		break;
	case IPC_CONFIRM:
	case IPC_SETTLE:
	case IPC_SETTLED:
		want = 0;
		break;
	case IPC_REPLY:
		break;
	default:
		return -1;
	}
	if ((h->type >= IPC_SNAP) != from_bondd)
		return -1;
	if (want != UINT32_MAX ? h->len != want : h->len > IPC_MAX_PAYLOAD)
		return -1;
	return 0;
}

static bool names_ok(const struct ipc_names *n)
{
	if (n->n > STATUS_MAX_NAMES)
		return false;
	for (size_t i = 0; i < n->n; i++)
		if (!memchr(n->names[i], '\0', IFNAMSIZ) || !n->names[i][0])
			return false;
	return true;
}

int ipc_render_check(const struct ipc_render *r)
{
	if (r->verb > SV_EXPLAIN || r->verb == SV_WATCH || r->verb == SV_WATCH_JSON ||
	    r->verb == SV_RELOAD || r->privileged > 1 || !names_ok(&r->req))
		return -1;
	return 0;
}

enum status_verb ipc_ask_verb(uint16_t type)
{
	return type == IPC_TRY ? SV_TRY : type == IPC_CONFIRM ? SV_CONFIRM
	       : type == IPC_TRIAL_WAIT ? SV_TRIAL_WAIT : SV_RELOAD;
}

uint16_t ipc_ask_type(enum status_verb verb)
{
	return verb == SV_RELOAD ? IPC_RELOAD : verb == SV_TRY ? IPC_TRY
	       : verb == SV_CONFIRM ? IPC_CONFIRM : verb == SV_TRIAL_WAIT ? IPC_TRIAL_WAIT : 0;
}

int ipc_ask_judge(enum status_verb verb, bool has_handler, bool may_reload, uint32_t arg,
		  const char **why)
{
	bool reload = verb == SV_RELOAD;

	if (!has_handler) {
		*why = reload ? "reload is not available" : "trials are not available";
		return SE_INTERNAL;
	}
	if (!may_reload) {
		*why = verb == SV_TRY ? "try needs root with CAP_NET_ADMIN"
		       : verb == SV_CONFIRM ? "confirm needs root with CAP_NET_ADMIN"
		       : verb == SV_TRIAL_WAIT ? "trial-wait needs root with CAP_NET_ADMIN"
					       : "reload needs root with CAP_NET_ADMIN";
		return SE_FORBIDDEN;
	}
	if (verb == SV_TRY && (arg < STATUS_TRY_MIN_S || arg > STATUS_TRY_MAX_S)) {
		*why = "try: seconds out of range";
		return SE_BAD_REQUEST;
	}
	*why = "";
	return 0;
}

void ipc_names_from_request(struct ipc_names *n, const struct status_request *req)
{
	memset(n, 0, sizeof(*n));
	n->n = (uint32_t)req->n_bonds;
	for (size_t i = 0; i < req->n_bonds && i < STATUS_MAX_NAMES; i++)
		memcpy(n->names[i], req->bonds[i], IFNAMSIZ);
}

int ipc_names_to_request(const struct ipc_names *n, enum status_verb verb,
			 struct status_request *req)
{
	if (!names_ok(n))
		return -1;
	memset(req, 0, sizeof(*req));
	req->verb = verb;
	req->n_bonds = n->n;
	for (size_t i = 0; i < n->n; i++)
		memcpy(req->bonds[i], n->names[i], IFNAMSIZ);
	return 0;
}

void ipc_frame_add(struct strbuf *out, uint16_t type, uint16_t flags, uint32_t id,
		   const void *payload, uint32_t len)
{
	struct ipc_hdr h = {.type = type, .flags = flags, .id = id, .len = len};
	sb_add(out, &h, sizeof(h));
	if (len)
		sb_add(out, payload, len);
}

ssize_t ipc_send_fd(int fd, const void *buf, size_t len, int fd_pass)
{
	struct iovec iov = {.iov_base = (void *)buf, .iov_len = len};
	union {
		char buf[CMSG_SPACE(sizeof(int))];
		struct cmsghdr align;
	} ctl;
	struct msghdr mh = {.msg_iov = &iov, .msg_iovlen = 1};
	ssize_t n;

	if (fd_pass >= 0) {
		memset(&ctl, 0, sizeof(ctl));
		mh.msg_control = ctl.buf;
		mh.msg_controllen = sizeof(ctl.buf);
		struct cmsghdr *c = CMSG_FIRSTHDR(&mh);
		c->cmsg_level = SOL_SOCKET;
		c->cmsg_type = SCM_RIGHTS;
		c->cmsg_len = CMSG_LEN(sizeof(int));
		memcpy(CMSG_DATA(c), &fd_pass, sizeof(int));
	}
	do
		n = sendmsg(fd, &mh, MSG_NOSIGNAL);
	while (n < 0 && errno == EINTR);
	return n < 0 ? -errno : n;
}

int ipc_reader_fill(struct ipc_reader *r, int fd)
{
	char buf[65536];
	union {
		char buf[CMSG_SPACE(sizeof(int) * 8)];
		struct cmsghdr align;
	} ctl;
	struct iovec iov = {.iov_base = buf, .iov_len = sizeof(buf)};
	struct msghdr mh = {.msg_iov = &iov, .msg_iovlen = 1, .msg_control = ctl.buf,
			    .msg_controllen = sizeof(ctl.buf)};
	ssize_t n;

	do
		n = recvmsg(fd, &mh, MSG_DONTWAIT | MSG_CMSG_CLOEXEC);
	while (n < 0 && errno == EINTR);
	if (n < 0)
		return errno == EAGAIN || errno == EWOULDBLOCK ? 0 : -1;
	for (struct cmsghdr *c = CMSG_FIRSTHDR(&mh); c; c = CMSG_NXTHDR(&mh, c)) {
		if (c->cmsg_level != SOL_SOCKET || c->cmsg_type != SCM_RIGHTS)
			continue;
		size_t k = (c->cmsg_len - CMSG_LEN(0)) / sizeof(int);
		for (size_t i = 0; i < k; i++) {
			int got;
			memcpy(&got, CMSG_DATA(c) + i * sizeof(int), sizeof(int));
			if (r->n_fds < IPC_MAX_FDS)
				r->fds[r->n_fds++] = got;
			else
				close(got);
		}
	}
	if (mh.msg_flags & MSG_CTRUNC)
		return -1; /* descriptors lost: the stream cannot be trusted */
	if (n == 0)
		return -1;
	sb_add(&r->in, buf, (size_t)n);
	return r->in.oom ? -1 : 1;
}

bool ipc_reader_peek(const struct ipc_reader *r, struct ipc_hdr *h, const void **payload)
{
	if (r->in.len < sizeof(*h))
		return false;
	memcpy(h, r->in.s, sizeof(*h));
	if (h->len > IPC_MAX_PAYLOAD) {
		*payload = NULL; /* the caller's check refuses it */
		return true;
	}
	if (r->in.len - sizeof(*h) < h->len)
		return false;
	*payload = r->in.s + sizeof(*h);
	return true;
}

void ipc_reader_next(struct ipc_reader *r)
{
	struct ipc_hdr h;
	memcpy(&h, r->in.s, sizeof(h));
	sb_consume(&r->in, sizeof(h) + h.len);
}

int ipc_reader_take_fd(struct ipc_reader *r)
{
	if (!r->n_fds)
		return -1;
	int fd = r->fds[0];
	memmove(r->fds, r->fds + 1, (r->n_fds - 1) * sizeof(int));
	r->n_fds--;
	return fd;
}

void ipc_reader_free(struct ipc_reader *r)
{
	for (size_t i = 0; i < r->n_fds; i++)
		close(r->fds[i]);
	r->n_fds = 0;
	sb_free(&r->in);
}

int ipc_drop_privileges(bool may_exec)
{
	struct __user_cap_header_struct hdr = {.version = _LINUX_CAPABILITY_VERSION_3};
	struct __user_cap_data_struct data[2];
	struct sched_param sp = {0};

	/* Normal priority first: a process that cannot lose its capabilities
	 * exits, and must not spin at a real-time priority meanwhile.  Lowering
	 * is always allowed (RestrictRealtime= refuses raising only), but the
	 * unit's filter refuses the calls (@resources): systemd has reset both
	 * at the fork already there (CPUSchedulingResetOnFork=yes). */
	if (sched_getscheduler(0) != SCHED_OTHER)
		sched_setscheduler(0, SCHED_OTHER, &sp);
	errno = 0;
	if (getpriority(PRIO_PROCESS, 0) < 0 && !errno)
		setpriority(PRIO_PROCESS, 0, 0);
	if (sched_getscheduler(0) != SCHED_OTHER)
		return -EPERM;
	/* The ambient set first: what an exec would keep. */
	prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0);
	prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0);
	/* A user other than root (the unit's dynamic user) loses the rest by
	 * exec, with no call that the unit's filter refuses (capset is in
	 * @privileged): the caller execs.  Root would get every capability
	 * back by exec: capset with every set empty (kernel/capability.c,
	 * capset), which needs no capability. */
	if (may_exec && getuid() != 0 && geteuid() != 0)
		return 1;
	if (getuid() != 0 && geteuid() != 0)
		return -EPERM; /* no exec possible: the caller confines itself */
	memset(data, 0, sizeof(data));
	if (syscall(SYS_capset, &hdr, data) < 0)
		return -errno;
	return ipc_caps_empty() ? 0 : -EPERM;
}

bool ipc_caps_empty(void)
{
	struct __user_cap_header_struct hdr = {.version = _LINUX_CAPABILITY_VERSION_3};
	struct __user_cap_data_struct data[2];

	/* Zeroed first: valgrind takes capget to fill one struct only (the
	 * kernel fills both for version 3). */
	memset(data, 0, sizeof(data));
	if (syscall(SYS_capget, &hdr, data) < 0)
		return false;
	/* The inheritable set gives nothing by itself: only with the ambient
	 * set (cleared) or a file's capabilities (bondd has none). */
	return !(data[0].effective | data[0].permitted | data[1].effective | data[1].permitted);
}

#if defined(__x86_64__)
#define IPC_AUDIT_ARCH AUDIT_ARCH_X86_64
#elif defined(__aarch64__)
#define IPC_AUDIT_ARCH AUDIT_ARCH_AARCH64
#endif

int ipc_confine(void)
{
#ifdef IPC_AUDIT_ARCH
	/* What a capability would be used through, refused: a new socket (a
	 * netlink or packet socket to change the network with), ioctl (the
	 * interface ioctls work on any socket), socket options, and other
	 * processes' memory.  Everything else a snapshot does (read /proc and
	 * /sys, write its replies to the status process) goes on. */
	static const int deny[] = {
		SYS_socket, SYS_socketpair, SYS_ioctl, SYS_setsockopt, SYS_connect, SYS_bind,
		SYS_ptrace, SYS_process_vm_writev, SYS_execve, SYS_execveat,
	};
	struct sock_filter f[4 + 2 * (sizeof(deny) / sizeof(deny[0])) + 1];
	size_t k = 0;

	f[k++] = (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch));
	f[k++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, IPC_AUDIT_ARCH, 1, 0);
	f[k++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS);
	f[k++] = (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr));
	for (size_t i = 0; i < sizeof(deny) / sizeof(deny[0]); i++) {
		f[k++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (unsigned)deny[i], 0, 1);
		f[k++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | EPERM);
	}
	f[k++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW);
	struct sock_fprog prog = {.len = (unsigned short)k, .filter = f};
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0 ||
	    prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog, 0, 0) < 0)
		return -errno;
	return 0;
#else
	return -ENOSYS;
#endif
}
int ipc_writer_add(struct ipc_writer *w, uint16_t type, uint16_t flags, uint32_t id,
		   const void *payload, uint32_t len, int fd_pass)
{
	if (fd_pass >= 0) {
		if (w->n_fds == IPC_MAX_FDS) {
			close(fd_pass);
			return -1;
		}
		w->fds[w->n_fds].at = w->out.len;
		w->fds[w->n_fds].fd = fd_pass;
		w->n_fds++;
	}
	ipc_frame_add(&w->out, type, flags, id, payload, len);
	return w->out.oom ? -1 : 0;
}

int ipc_writer_flush(struct ipc_writer *w, int sock)
{
	while (w->out.len) {
		/* Up to the next frame that carries a descriptor, or with it. */
		size_t upto = w->out.len;
		int fd = -1;
		if (w->n_fds) {
			if (w->fds[0].at == 0) {
				fd = w->fds[0].fd;
				upto = sizeof(struct ipc_hdr); /* the descriptor rides the header */
			} else {
				upto = w->fds[0].at;
			}
		}
		ssize_t n = ipc_send_fd(sock, w->out.s, upto, fd);
		if (n == -EAGAIN || n == -EWOULDBLOCK)
			return 1;
		if (n < 0)
			return -1;
		if (fd >= 0) {
			/* Sent with the first byte: the kernel holds a reference. */
			close(fd);
			memmove(w->fds, w->fds + 1, (w->n_fds - 1) * sizeof(w->fds[0]));
			w->n_fds--;
		}
		sb_consume(&w->out, (size_t)n);
		for (size_t i = 0; i < w->n_fds; i++)
			w->fds[i].at -= (size_t)n;
	}
	return 0;
}

void ipc_writer_free(struct ipc_writer *w)
{
	for (size_t i = 0; i < w->n_fds; i++)
		close(w->fds[i].fd);
	w->n_fds = 0;
	sb_free(&w->out);
}
