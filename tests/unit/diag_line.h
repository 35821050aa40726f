/* SPDX-License-Identifier: MIT */
/* The config's diagnostics as people read them, for tests' assertions. */
#ifndef BONDD_TEST_DIAG_LINE_H
#define BONDD_TEST_DIAG_LINE_H

#include <stdlib.h>

#include "config.h"

/* The i-th diagnostic of that severity, formatted (config_diagnostic_format),
 * or NULL when there are fewer.  Kept until four more calls. */
static inline const char *diag_line(const struct config_diag *diag,
				    enum config_severity severity, size_t i)
{
	static char *kept[4];
	static size_t next;

	for (size_t k = 0; k < diag->n_items; k++) {
		if (diag->items[k].severity != severity || i-- > 0)
			continue;
		next = (next + 1) % 4;
		free(kept[next]);
		kept[next] = config_diagnostic_format(&diag->items[k]);
		return kept[next];
	}
	return NULL;
}

#endif
