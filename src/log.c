/* SPDX-License-Identifier: MIT */
/* stderr logging with journald priority prefixes. */
#include "log.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <syslog.h>

static bool log_debug_on;
static bool log_prefix;

void log_init(bool debug)
{
	log_debug_on = debug;
	/* systemd sets JOURNAL_STREAM when stderr goes to the journal. */
	log_prefix = getenv("JOURNAL_STREAM") != NULL;
	setvbuf(stderr, NULL, _IOLBF, 0);
}

static void vlog(int prio, const char *fmt, va_list ap)
{
	static const char *const words[] = {
		[LOG_ERR] = "error: ", [LOG_WARNING] = "warning: ",
		[LOG_NOTICE] = "", [LOG_INFO] = "", [LOG_DEBUG] = "debug: ",
	};
	char line[1024];

	vsnprintf(line, sizeof(line), fmt, ap);
	if (log_prefix)
		fprintf(stderr, "<%d>%s\n", prio, line);
	else
		fprintf(stderr, "bondd: %s%s\n", words[prio], line);
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
