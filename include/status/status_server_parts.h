/* SPDX-License-Identifier: MIT */
/*
 * The status server's clients and the functions its files share.  Calls go
 * one way, down this list (scripts/check-calls):
 *   status_server.c  the socket, accepting, reading, timeouts, the dispatch
 *                    and the status process's loop;
 *   status_answer.c  one request line parsed and answered, or handed on;
 *   status_front.c   the status process's side of the split: requests to
 *                    bondd and the snapshot, their answers back to clients;
 *   status_client.c  a client's replies, output, budget and room, and the
 *                    watchers' event lines.
 * Private to src/status/.
 */
#ifndef BONDD_STATUS_SERVER_PARTS_H
#define BONDD_STATUS_SERVER_PARTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>
#include <sys/un.h>

#include "clock.h"
#include "status_ipc.h"
#include "status_server.h"
#include "status_proto.h"
#include "token_bucket.h"

/* Clients at once.  When full, the longest-idle unprivileged client makes
 * room (a privileged one only when every client is privileged), so neither
 * a crowd of idle connections nor of watchers can lock out the next admin. */
#define MAX_CLIENTS 256
/* One unprivileged uid's share: its own longest-idle client makes room for
 * its next one, so one user cannot push everyone else out. */
#define MAX_CLIENTS_PER_UID 64
/* Watchers, in all and per unprivileged uid; the oldest makes room. */
#define MAX_WATCHERS 64
#define MAX_WATCHERS_PER_UID 8
/* A client must send a whole request, and take each reply, within this. */
#define CLIENT_TIMEOUT_MS 10000
/* ... but a client waiting for the link check it asked for waits for two
 * checks, each up to LC_WAIT_MAX_MS (15 s) when answers come late or a
 * one-way finding is being confirmed, and the gaps between them
 * (linkcheck_settle.h); bondd-status waits a little longer still. */
#define CHECK_TIMEOUT_MS 60000
/* A reply bigger than this means something is wrong: the client is dropped. */
#define MAX_PENDING (8u << 20)
/* A watcher this far behind is dropped rather than buffered without end. */
#define MAX_WATCH_BACKLOG (256u << 10)
/* Replies a client has not taken beyond this: its further requests wait in
 * its socket until it reads (pipelining cannot make us render without end). */
#define BACKPRESSURE (64u << 10)
/* Work per turn of the daemon's loop: ready clients served (one read of at
 * most a request's size each) and connections accepted.  The loop goes
 * back to the kernel in between, so no amount of socket traffic holds up
 * a repair for long. */
#define EVENTS_PER_TURN 32
#define ACCEPTS_PER_TURN 16
/* How long new clients wait in the backlog after accept() found no file
 * free; then it is tried again. */
#define ACCEPT_PAUSE_MS 100
/* The listening socket's backlog: clients waiting to be accepted. */
#define STATUS_BACKLOG 64
/* What one unprivileged uid may make the status process read and answer
 * (a token bucket each, token_bucket.h): request bytes, and requests.  A
 * uid past either waits (its sockets are not read, its lines not answered)
 * until the bucket refills; other users are served meanwhile.  Generous
 * for any real client (bondd-status sends one line of at most 1 KiB), and
 * a bound on what a flood of them costs. */
#define UID_BYTES_BURST (256u << 10)
#define UID_BYTES_PER_S (128u << 10)
#define UID_REQS_BURST 200
#define UID_REQS_PER_S 100
/* Of those, the link checks one unprivileged uid may ask for: each is a
 * request to bondd, whose own budget (status_split.h) all the status
 * process's clients share, so one uid at UID_REQS_PER_S would fill it and
 * queue root's requests behind its own (root waited over a second with
 * two such uids).  A check takes seconds; more than this is refused busy. */
#define UID_CHECKS_BURST 10
#define UID_CHECKS_PER_S 2
/* Connections one unprivileged uid (not bondd's own, which may reload) may
 * open: as many at once as it may hold (MAX_CLIENTS_PER_UID), and
 * UID_CONNS_PER_S a second after that.  One past it is closed as soon as
 * it is accepted, unread and unanswered (accept, SO_PEERCRED, close: no
 * /proc read, no epoll, no reply): a user who connects again at once costs
 * three system calls a connection instead of a dozen (in the sandbox's
 * guest, 450 a second served took a third of its CPU).  The listening
 * socket does not rest for it: a rest let the flood's connections fill the
 * backlog, and a client with a connect timeout (a non-blocking connect)
 * then got EAGAIN, root too (sandbox 155). */
#define UID_CONNS_BURST MAX_CLIENTS_PER_UID
#define UID_CONNS_PER_S 16
/* A connection past that budget is held, unread and unanswered, for
 * TARPIT_MS before it is closed, TARPIT_MAX at most at once (the oldest
 * closed first), and only in room no client needs: of MAX_CLIENTS, a
 * client's connection closes the oldest held one.  A flood whose clients
 * connect again as soon as they are closed (the flood bench's senders of
 * 1 MiB lines: 1,500 connections a second, three system calls each, a
 * quarter of the guest's CPU) waits instead, its writes blocked: about one
 * connection a second per client. */
#define TARPIT_MAX 32
#define TARPIT_MS 1000

enum client_state {
	CS_REQUEST,   /* reading request lines */
	CS_WATCH,     /* streaming events; read side shut */
	CS_CLOSING,   /* error sent or input ended: close once the output is out */
	CS_CHECK,     /* waiting for the link check it asked for; input waits */
	CS_WAIT,      /* its request is with bondd or a snapshot; input waits */
};

/* What a client in CS_WAIT waits for (the status process only). */
enum client_wait {
	W_REPLY,      /* bondd's whole reply (reload, privileged /proc text) */
	W_CHECK,      /* bondd's count of the link checks under way */
	W_RENDER,     /* a snapshot's reply */
	W_SETTLE,     /* bondd's word that the kernel's queued events are handled */
};

/* One unprivileged uid's budgets. */
struct uid_budget {
	unsigned uid;
	bool used;
	struct token_bucket bytes, reqs, checks, conns;
	uint64_t refused;           /* connections closed over its budget */
	bool refused_said;          /* ... said once (the slot's life) */
};

struct client {
	int fd;
	enum client_state state;
	bool privileged;
	bool trusted;               /* privileged, or bondd's own user: may reload */
	bool eof;                   /* the client shut its write side */
	bool json;                  /* a watcher that wants JSON lines */
	unsigned uid;               /* SO_PEERCRED at connect */
	char in[STATUS_MAX_REQUEST];
	size_t in_len;
	struct strbuf out;
	uint32_t events;            /* what epoll watches for on fd */
	int64_t deadline_ms;        /* 0: none (an idle watcher) */
	int64_t last_active_ms;
	int64_t request_start_ms;   /* first byte of the request being read; 0: none */
	int64_t since_ms;           /* connected, or started watching */
	uint64_t reload_turn;       /* the dispatch in which it last reloaded */
	/* CS_WAIT and CS_CHECK in the status process */
	enum client_wait wait;
	uint32_t wait_id;           /* the number its answer carries */
	struct status_request pending; /* W_CHECK, W_RENDER, CS_CHECK: its request */
	bool render_sent;           /* W_RENDER: handed to the current snapshot */
	int64_t render_sent_ms;     /* ... then (monotonic) */
	uint64_t need_ticket;       /* W_RENDER: the snapshot request it waits for */
	uint64_t read_ticket;       /* snapshot requests sent when its bytes were last read */
	bool budget_blocked;        /* its uid is out of budget: not read, not answered */
	bool serve;                 /* its answer arrived (status_front.c): the
				     * dispatch serves it (status_server.c) */
};

struct status_server {
	int epfd, listen_fd, timer_fd;
	char path[sizeof(((struct sockaddr_un *)0)->sun_path)];
	status_view_fn view;
	void *ctx;
	struct client *clients[MAX_CLIENTS];
	size_t n_clients;
	int64_t timer_ms;           /* when the timer fires, 0: off */
	bool unsent;                /* broadcast queued lines not yet sent */
	struct strbuf scratch;      /* reply bodies, reused */
	status_reload_fn reload;    /* NULL: the reload request is refused */
	status_trial_fn trial;      /* NULL: try, confirm, trial-wait are refused */
	status_check_fn check;      /* NULL: linkcheck answers the last results */
	uint64_t turn;              /* dispatches so far, from 1 */
	/* The status process (status_ipc.h); parent_fd -1: in-process, with
	 * the callbacks above (the unit tests). */
	int parent_fd;
	struct ipc_reader parent_rd;
	struct ipc_writer parent_wr;
	int snap_fd;                /* the current snapshot, -1: none */
	struct ipc_reader snap_rd;
	struct ipc_writer snap_wr;
	bool snap_inflight;         /* a snapshot request not answered yet */
	uint64_t ticket_sent, ticket_done;
	uint32_t next_id;
	bool parent_gone;
	struct uid_budget budgets[MAX_CLIENTS];
	int64_t budget_wake_ms;     /* a blocked uid's budget refills then; 0: none */
	/* Accepting rests until then (0: accepting): the listening socket
	 * leaves the epoll set's events ACCEPT_PAUSE_MS after accept() found
	 * no file (EMFILE, ENFILE, ...: it stays readable and would wake the
	 * loop at once, for ever). */
	int64_t accept_rest_ms;
	unsigned long accept_refusals;  /* for want of a file, in this episode */
	char trouble[96];           /* said once per episode; "" none */
	unsigned own_uid;           /* geteuid() at open: who may be "bondd's own user" */
	/* connections over their uid's budget, held (TARPIT_MS): a ring,
	 * oldest at tarpit_head */
	int tarpit_fd[TARPIT_MAX];
	int64_t tarpit_until[TARPIT_MAX];
	size_t tarpit_head, n_tarpit;
};

/* epoll data: the listening socket and the timer are tagged, clients are
 * pointers (never equal to these small numbers). */
#define TAG_LISTEN 1
#define TAG_TIMER 2
#define TAG_PARENT 3
#define TAG_SNAP 4

/* --- a client (status_client.c) --------------------------------------- */

bool client_backpressured(const struct client *c);

/* A reload is answered at once, but what the client sent after it waits
 * for the next turn of the event loop. */
bool client_reloaded_this_turn(const struct status_server *s, const struct client *c);

bool client_lines_waiting(const struct client *c);

void client_drop(struct status_server *s, struct client *c);

bool client_is_live(const struct status_server *s, const struct client *c);

struct client *client_victim(const struct status_server *s, bool watchers, bool by_uid,
			     unsigned uid, bool may_take_privileged);

size_t clients_count(const struct status_server *s, bool watchers, bool by_uid, unsigned uid);

/* Sends what is pending, sets c's deadline and what epoll watches for;
 * -1 when the client is gone (the caller drops it). */
int client_flush(struct status_server *s, struct client *c);

void client_reply_error(struct client *c, enum status_error code, const char *msg);

void client_reply_ok(struct client *c, enum status_health h, const struct strbuf *body);

/* client_reply_ok with body, or an internal error when body ran out of
 * memory; body is freed either way. */
void client_reply_body(struct client *c, enum status_health h, struct strbuf *body);

/* The budget of c's uid; NULL for a privileged client (none). */
struct uid_budget *client_budget(struct status_server *s, const struct client *c);
/* An unprivileged uid's budgets (a new slot when it has none). */
struct uid_budget *uid_budget_of(struct status_server *s, unsigned uid);

/* --- requests (status_answer.c) ---------------------------------------- */

/* Fills v (as c may see it) and the bonds req selects (sel, *n; none for
 * SV_VERSION); false, with c answered "unknown bond", when req names a bond
 * not configured. */
bool client_view_select(struct status_server *s, struct client *c, const struct status_request *req,
			struct status_view *v, const struct desired_bond **sel, size_t *n);

void client_answer(struct status_server *s, struct client *c, const char *line, size_t len);

void client_answer_lines(struct status_server *s, struct client *c);

/* --- the status process (status_front.c) ------------------------------ */

/* Hands c's request to bondd or a snapshot; c waits in CS_WAIT. */
void front_ask_render(struct status_server *s, struct client *c, const struct status_request *req);
/* reload, try, confirm, trial-wait */
void front_ask_reload(struct status_server *s, struct client *c, const struct status_request *req);
void front_ask_proc(struct status_server *s, struct client *c, const struct status_request *req);
void front_ask_check(struct status_server *s, struct client *c, const struct status_request *req,
		     bool start);
/* settle: bondd answers once it has handled the kernel events queued
 * then; the client's answer is then its health, from a snapshot taken
 * after that. */
void front_ask_settle(struct status_server *s, struct client *c);
/* Reads and handles what bondd and the snapshot sent; the clients whose
 * answers came are marked (client.serve) for the dispatch to serve. */
void front_on_parent(struct status_server *s);
void front_on_snap(struct status_server *s);
/* Sends what is queued to bondd and the snapshot. */
void front_flush(struct status_server *s);
/* Tells bondd why new clients cannot connect now ("" once they can). */
void front_trouble(struct status_server *s, const char *text);
/* A snapshot that leaves a reply unanswered this long is taken for
 * stopped or stuck (SIGSTOP, say): the replies are asked of a new one. */
#define SNAP_STALL_MS 10000
/* Replaces a stalled snapshot; else when the next may stall (0: none). */
int64_t front_snapshot_due(struct status_server *s, int64_t now);

#endif
