/* SPDX-License-Identifier: MIT */
/* stderr logging with journald priority prefixes, or the journal's native
 * protocol with fields. */
#include "log.h"

#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <syslog.h>
#include <unistd.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>

static bool log_debug_on;
static bool log_prefix;
/* The journal's native socket (a datagram socket, not connected: each line
 * is sent to its address, so that a process confined from connect() after
 * a fork still logs), or -1. */
static int journal_fd = -1;
static struct sockaddr_un journal_addr;

/* systemd sets JOURNAL_STREAM to the device and inode of the journal
 * stream it gives a service as stderr.  Everything the service starts
 * inherits the variable, with stderr perhaps sent elsewhere (a file, a
 * terminal): only the stream itself gets the prefixes (systemd.exec(5),
 * $JOURNAL_STREAM). */
static bool stderr_is_journal(void)
{
	const char *env = getenv("JOURNAL_STREAM");
	unsigned long long dev, ino;
	struct stat st;
	int end = 0;

	if (!env || sscanf(env, "%llu:%llu%n", &dev, &ino, &end) != 2 || env[end] != '\0')
		return false;
	return fstat(STDERR_FILENO, &st) == 0 && (unsigned long long)st.st_dev == dev &&
	       (unsigned long long)st.st_ino == ino;
}

bool log_debug_enabled(void)
{
	return log_debug_on;
}

/* The journal's socket, where systemd gives the service the journal as
 * stderr; BONDD_JOURNAL_SOCKET, a test aid (bondd(8), ENVIRONMENT), names
 * another one, or none when empty. */
static void journal_open(void)
{
	const char *path = getenv("BONDD_JOURNAL_SOCKET");

	if (journal_fd >= 0)
		close(journal_fd);
	journal_fd = -1;
	if (!path)
		path = "/run/systemd/journal/socket"; /* systemd-journald.socket */
	if (!path[0] || strlen(path) >= sizeof(journal_addr.sun_path))
		return;
	memset(&journal_addr, 0, sizeof(journal_addr));
	journal_addr.sun_family = AF_UNIX;
	memcpy(journal_addr.sun_path, path, strlen(path) + 1);
	journal_fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
}

void log_init(bool debug)
{
	log_debug_on = debug;
	log_prefix = stderr_is_journal();
	setvbuf(stderr, NULL, _IOLBF, 0);
	if (log_prefix)
		journal_open();
	else if (journal_fd >= 0) {
		close(journal_fd);
		journal_fd = -1;
	}
}

/* Copies text with every byte outside printable ASCII as \xHH (a backslash
 * stays: messages about the file quote it the same way already, and would
 * be escaped twice): interface names may hold any byte but '/', ':' and blanks
 * (net/core/dev.c dev_valid_name), messages quote files and the kernel,
 * and none of that may end the line (journald would take what follows
 * as an entry of its own, "<3>" and all), carry a terminal escape, or
 * make journalctl show the line as a blob. */
static void escape(const char *in, char *out, size_t len)
{
	size_t o = 0;

	for (; *in && o + 5 <= len; in++) {
		unsigned char c = (unsigned char)*in;
		if (c < 0x20 || c >= 0x7f)
			o += (size_t)snprintf(out + o, len - o, "\\x%02x", c);
		else
			out[o++] = (char)c;
	}
	out[o] = '\0';
}

/* One field; a value with a byte below 0x20 (an interface name may hold
 * any byte but '/', ':' and blanks) takes the protocol's binary form, a
 * 64-bit little-endian length before the bytes (systemd's
 * src/journal/journald-native.c, server_process_native_message). */
static size_t put_field(char *buf, size_t len, size_t o, const char *key, const char *val)
{
	size_t k = strlen(key), v = strlen(val);
	bool binary = false;

	for (size_t i = 0; i < v; i++)
		binary |= (unsigned char)val[i] < 0x20;
	if (o + k + v + 10 > len)
		return 0;
	memcpy(buf + o, key, k);
	o += k;
	if (binary) {
		buf[o++] = '\n';
		for (int i = 0; i < 8; i++)
			buf[o++] = (char)(((unsigned long long)v >> (8 * i)) & 0xff);
	} else
		buf[o++] = '=';
	memcpy(buf + o, val, v);
	o += v;
	buf[o++] = '\n';
	return o;
}

size_t log_journal_datagram(int prio, const struct log_meta *m, const char *msg, char *buf,
			    size_t len)
{
	char p[2] = {(char)('0' + (prio & 7)), '\0'};
	size_t o = 0;

	if (!(o = put_field(buf, len, o, "MESSAGE", msg)) ||
	    !(o = put_field(buf, len, o, "PRIORITY", p)) ||
	    !(o = put_field(buf, len, o, "SYSLOG_IDENTIFIER", "bondd")))
		return 0;
	if (m && m->bond && m->bond[0] && !(o = put_field(buf, len, o, "INTERFACE", m->bond)))
		return 0;
	if (m && m->ifname && m->ifname[0] && (!m->bond || strcmp(m->ifname, m->bond) != 0) &&
	    !(o = put_field(buf, len, o, "INTERFACE", m->ifname)))
		return 0;
	if (m && m->message_id && !(o = put_field(buf, len, o, "MESSAGE_ID", m->message_id)))
		return 0;
	return o;
}

/* The line to the journal's socket; false when it could not be sent. */
static bool journal_send(int prio, const struct log_meta *m, const char *safe)
{
	char dgram[2048];
	size_t n;

	if (journal_fd < 0 || !(n = log_journal_datagram(prio, m, safe, dgram, sizeof(dgram))))
		return false;
	return sendto(journal_fd, dgram, n, MSG_NOSIGNAL, (const struct sockaddr *)&journal_addr,
		      sizeof(journal_addr)) == (ssize_t)n;
}

static void vlog(int prio, const struct log_meta *m, const char *fmt, va_list ap)
{
	static const char *const words[] = {
		[LOG_ERR] = "error: ", [LOG_WARNING] = "warning: ",
		[LOG_NOTICE] = "", [LOG_INFO] = "", [LOG_DEBUG] = "debug: ",
	};
	char line[1024], safe[sizeof(line) + 64];

	vsnprintf(line, sizeof(line), fmt, ap);
	escape(line, safe, sizeof(safe));
	if (log_prefix && journal_send(prio, m, safe))
		return;
	if (log_prefix)
		fprintf(stderr, "<%d>%s\n", prio, safe);
	else
		fprintf(stderr, "bondd: %s%s\n", words[prio], safe);
}

void log_meta(int prio, const struct log_meta *m, const char *fmt, ...)
{
	va_list ap;

	if (prio < LOG_ERR || prio > LOG_DEBUG || (prio == LOG_DEBUG && !log_debug_on))
		return;
	va_start(ap, fmt);
	vlog(prio, m, fmt, ap);
	va_end(ap);
}

#define DEFINE_LOG(fn, prio, cond)             \
	void fn(const char *fmt, ...)          \
	{                                      \
		va_list ap;                    \
		if (!(cond))                   \
			return;                \
		va_start(ap, fmt);             \
		vlog(prio, NULL, fmt, ap);     \
		va_end(ap);                    \
	}

DEFINE_LOG(log_err, LOG_ERR, 1)
DEFINE_LOG(log_warn, LOG_WARNING, 1)
DEFINE_LOG(log_notice, LOG_NOTICE, 1)
DEFINE_LOG(log_info, LOG_INFO, 1)
DEFINE_LOG(log_debug, LOG_DEBUG, log_debug_on)
