/* SPDX-License-Identifier: MIT */
/* stderr logging with journald priority prefixes. */
#include "log.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <syslog.h>
#include <unistd.h>
#include <sys/stat.h>

static bool log_debug_on;
static bool log_prefix;

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

void log_init(bool debug)
{
	log_debug_on = debug;
	log_prefix = stderr_is_journal();
	setvbuf(stderr, NULL, _IOLBF, 0);
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

static void vlog(int prio, const char *fmt, va_list ap)
{
	static const char *const words[] = {
		[LOG_ERR] = "error: ", [LOG_WARNING] = "warning: ",
		[LOG_NOTICE] = "", [LOG_INFO] = "", [LOG_DEBUG] = "debug: ",
	};
	char line[1024], safe[sizeof(line) + 64];

	vsnprintf(line, sizeof(line), fmt, ap);
	escape(line, safe, sizeof(safe));
	if (log_prefix)
		fprintf(stderr, "<%d>%s\n", prio, safe);
	else
		fprintf(stderr, "bondd: %s%s\n", words[prio], safe);
}

#define DEFINE_LOG(fn, prio, cond)             \
	void fn(const char *fmt, ...)          \
	{                                      \
		va_list ap;                    \
		if (!(cond))                   \
			return;                \
		va_start(ap, fmt);             \
		vlog(prio, fmt, ap);           \
		va_end(ap);                    \
	}

DEFINE_LOG(log_err, LOG_ERR, 1)
DEFINE_LOG(log_warn, LOG_WARNING, 1)
DEFINE_LOG(log_notice, LOG_NOTICE, 1)
DEFINE_LOG(log_info, LOG_INFO, 1)
DEFINE_LOG(log_debug, LOG_DEBUG, log_debug_on)
