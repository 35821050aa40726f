/* SPDX-License-Identifier: MIT */
/* Interface names: the kernel's rules and bondd's. */
#include "ifname.h"

#include <net/if.h>
#include <string.h>

/*
 * The kernel refuses what net/core/dev.c dev_valid_name refuses: empty,
 * IFNAMSIZ bytes or more, "." and "..", '/', ':' and blanks.  bondd also
 * refuses '%', which the kernel expands into a number when it creates a
 * device (so "bond%d" would never be found again), control characters,
 * which no sane name has, and '[' and ']', which would make a section
 * header "[NAME]" ambiguous ("[[bond0]]" is a typo, not a bond "[bond0]").
 */
const char *ifname_problem(const char *name)
{
	size_t n = strlen(name);

	if (n == 0)
		return "is empty";
	if (n >= IFNAMSIZ)
		return "is longer than 15 bytes";
	if (strcmp(name, ".") == 0 || strcmp(name, "..") == 0)
		return "is reserved";
	for (const char *c = name; *c; c++) {
		const char *why = ifname_char_problem(*c);
		if (why)
			return why;
	}
	return NULL;
}

const char *ifname_char_problem(char c)
{
	if (c == '/')
		return "contains \"/\"";
	if (c == ':')
		return "contains \":\"";
	if (c == '%')
		return "contains \"%\"";
	if (c == '[' || c == ']')
		return "contains a bracket";
	if ((unsigned char)c <= ' ' || c == 0x7f || (unsigned char)c == 0xa0)
		return "contains a blank or a control character";
	return NULL;
}
