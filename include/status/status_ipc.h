/* SPDX-License-Identifier: MIT */
/*
 * The privilege split (bondd(8), ARCHITECTURE): three kinds of process.
 *
 *   bondd      the real-time part: CAP_NET_ADMIN, SCHED_RR in the unit; the
 *              netlink work, the repairs, the link check and LLDP.  It never
 *              reads a byte a client wrote.
 *   status     the status process: forked at start, no capability, normal
 *              priority.  It owns the status socket and every client, and is
 *              the only part that parses a client's bytes.
 *   snapshot   forked from bondd on the status process's demand: a
 *              copy-on-write picture of bondd's state at one moment, with no
 *              capability and normal priority, that renders replies from it
 *              for the status process, then exits when a newer one comes.
 *
 * bondd and the status process speak over a stream socket pair in frames
 * of a fixed header and a payload (struct ipc_hdr); a client's socket or a
 * snapshot's goes along as SCM_RIGHTS.  The status process and a snapshot
 * speak over a stream socket pair: fixed-size render requests one way,
 * framed replies the other.  Every frame is checked on receipt
 * (ipc_frame_check): a malformed one ends the connection.
 *
 * Why processes and not a thread: a thread shares the address space, so a
 * flaw in the request parser would be a flaw in the process that holds the
 * capability; and the snapshot is fork()'s copy-on-write, which renders
 * every format from the same code with no lock and no serialization.
 */
#ifndef BONDD_STATUS_IPC_H
#define BONDD_STATUS_IPC_H

#include <net/if.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "event_log.h"
#include "status_proto.h"
#include "strbuf.h"

enum ipc_type {
	/* status process -> bondd */
	IPC_SNAP_REQ = 1,   /* a snapshot at least as new as now, please */
	IPC_CHECK,          /* struct ipc_names: start (flags 1) or ask the link check */
	IPC_RELOAD,         /* + the client's socket: reload for it */
	IPC_PROC,           /* struct ipc_names + the client's socket: /proc text for a
			     * client that holds CAP_NET_ADMIN (only bondd can read it) */
	IPC_PONG,           /* the answer to IPC_PING */
	/* A reload on trial, each + the client's socket, judged again by
	 * bondd as IPC_RELOAD is. */
	IPC_TRY,            /* uint32_t: the seconds (STATUS_TRY_MIN_S..MAX_S) */
	IPC_CONFIRM,        /* keep the configuration on trial */
	IPC_TRIAL_WAIT,     /* uint32_t: the trial's number; answered when it ends */
	IPC_TROUBLE,        /* struct ipc_trouble: why clients cannot connect now, or "" */
	IPC_SETTLE,         /* a barrier (bondd-status --settle): answer once every kernel
			     * event queued now is handled */
	/* bondd -> status process */
	IPC_SNAP = 32,      /* + a snapshot's socket; payload: uint64_t generation */
	IPC_SNAP_SAME,      /* nothing changed: the last snapshot still holds */
	IPC_EVENT,          /* struct event, for the watchers */
	IPC_CHECK_ANS,      /* uint32_t: checks still under way for that request */
	IPC_CHECK_DONE,     /* some link check ended */
	IPC_REPLY,          /* id's whole reply, header and body, as the client gets it */
	IPC_PING,           /* are you there? (with the watchdog) */
	IPC_SETTLED,        /* id's IPC_SETTLE: the events queued then are handled */
};

struct ipc_hdr {
	uint16_t type;      /* enum ipc_type */
	uint16_t flags;
	uint32_t id;        /* a request's number, echoed in its answer */
	uint32_t len;       /* payload bytes after the header */
};

/* Why the status process cannot take new clients now ("" once it can):
 * for bondd's health, which it alone renders (status_server.h). */
struct ipc_trouble {
	char text[96];
};

/* A request that names bonds (the status request's names, parsed). */
struct ipc_names {
	uint32_t n;
	char names[STATUS_MAX_NAMES][IFNAMSIZ];
};

/* status process -> snapshot: one reply to render. */
struct ipc_render {
	uint32_t id;
	uint8_t verb;       /* enum status_verb */
	uint8_t privileged; /* render what a CAP_NET_ADMIN reader may see */
	uint8_t pad[2];
	struct ipc_names req;
};

/* snapshot -> status process: the reply's header, then len bytes. */
struct ipc_render_hdr {
	uint32_t id;
	uint32_t len;
};

#define IPC_CHECK_START 1
/* A frame bigger than this is an error: no reply of bondd's is larger
 * (a status reply bigger than MAX_PENDING drops the client anyway). */
#define IPC_MAX_PAYLOAD (16u << 20)

/*
 * Checks a received frame's header and payload length against its type
 * (sender: true for frames bondd sends, false for the status process's).
 * 0, or -1 when the frame is malformed or not expected from that side.
 * Pure.
 */
int ipc_frame_check(const struct ipc_hdr *h, bool from_bondd);
/* Checks a render request (names NUL-terminated, a known verb). */
int ipc_render_check(const struct ipc_render *r);
/*
 * The requests only the clients that may reload may make: reload, try,
 * confirm, trial-wait.  Their frame types (IPC_RELOAD, IPC_TRY, IPC_CONFIRM,
 * IPC_TRIAL_WAIT) and verbs, each to the other (SV_RELOAD for any other
 * type, 0 for any other verb).
 */
enum status_verb ipc_ask_verb(uint16_t type);
uint16_t ipc_ask_type(enum status_verb verb);
/*
 * Such a request judged before it is done, as bondd judges it again
 * whatever the status process said: 0 when it may be done, else the error
 * to answer and *why.  has_handler: the daemon does that verb; may_reload:
 * the client is root with CAP_NET_ADMIN, or bondd's own user; arg: try's
 * seconds (checked again: a status process is not trusted to have parsed
 * them).  Pure.
 */
int ipc_ask_judge(enum status_verb verb, bool has_handler, bool may_reload, uint32_t arg,
		  const char **why);
/* Copies a parsed request's names into n; from n back into req. */
void ipc_names_from_request(struct ipc_names *n, const struct status_request *req);
int ipc_names_to_request(const struct ipc_names *n, enum status_verb verb,
			 struct status_request *req);

/* Appends one frame (header and payload) to out. */
void ipc_frame_add(struct strbuf *out, uint16_t type, uint16_t flags, uint32_t id,
		   const void *payload, uint32_t len);
/* Sends buf[0..len) on fd with fd_pass (-1: none) as SCM_RIGHTS.  Blocking
 * or not as fd is.  Returns bytes sent or -errno. */
ssize_t ipc_send_fd(int fd, const void *buf, size_t len, int fd_pass);

/*
 * A stream of frames being read: bytes in, whole frames out, and the file
 * descriptors that came with them, oldest first.
 */
#define IPC_MAX_FDS 64
struct ipc_reader {
	struct strbuf in;
	int fds[IPC_MAX_FDS];
	size_t n_fds;
};
/* Reads what fd has (non-blocking); 1 read something, 0 nothing now,
 * -1 closed or failed. */
int ipc_reader_fill(struct ipc_reader *r, int fd);
/* The next whole frame (header and payload pointers into r->in), or
 * false; ipc_reader_next drops it after use. */
bool ipc_reader_peek(const struct ipc_reader *r, struct ipc_hdr *h, const void **payload);
void ipc_reader_next(struct ipc_reader *r);
/* The oldest descriptor received, or -1. */
int ipc_reader_take_fd(struct ipc_reader *r);
void ipc_reader_free(struct ipc_reader *r);

/*
 * Frames waiting to be sent, and the descriptors that go with some of them
 * (each sent as SCM_RIGHTS with the first byte of its frame, then closed).
 */
struct ipc_writer {
	struct strbuf out;
	struct {
		size_t at;
		int fd;
	} fds[IPC_MAX_FDS];
	size_t n_fds;
};
/* Queues a frame (fd_pass: -1, or a descriptor the writer now owns).
 * 0, or -1 when out of room (fd_pass is closed then). */
int ipc_writer_add(struct ipc_writer *w, uint16_t type, uint16_t flags, uint32_t id,
		   const void *payload, uint32_t len, int fd_pass);
/* Sends what it can without blocking: 0 all sent, 1 some left, -1 the
 * socket failed. */
int ipc_writer_flush(struct ipc_writer *w, int sock);
void ipc_writer_free(struct ipc_writer *w);

/*
 * Gives up the privileges a process just forked from bondd holds: a
 * real-time policy (back to SCHED_OTHER, nice 0), the ambient capabilities,
 * and then the rest.  Root drops them all with capset: 0.  Any other user
 * (the unit's dynamic user) gets 1 when may_exec, and must then exec bondd
 * again, which leaves it none (and needs no capset, which the unit's
 * system call filter refuses); without may_exec (a snapshot, which is its
 * memory) -EPERM: it must confine itself (ipc_confine).  Other -errno:
 * the caller must not go on.
 */
int ipc_drop_privileges(bool may_exec);
/* Whether this process holds no capability, effective or permitted (capget). */
bool ipc_caps_empty(void);
/*
 * Where capset is refused (the unit's system call filter refuses it, as
 * systemd-analyze security's rating asks): a snapshot, which cannot exec()
 * away its capabilities without losing the picture it is, keeps them
 * permitted but confines itself with a seccomp filter of its own that
 * refuses every way to use them (new sockets, ioctl, socket options,
 * exec, ptrace).  0 or -errno.
 */
int ipc_confine(void);

#endif
