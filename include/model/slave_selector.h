/* SPDX-License-Identifier: MIT */
/*
 * How a config names a slave: by a name (which also matches an altname),
 * by its permanent MAC (mac:XX:XX:XX:XX:XX:XX) or by its device path
 * (path:ID_PATH, with /portN for one port of a multi-port device).  Plain
 * data and its rules; config/selector.h parses the text.
 */
#ifndef BONDD_SLAVE_SELECTOR_H
#define BONDD_SLAVE_SELECTOR_H

#include <net/if.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* ALTIFNAMSIZ (include/uapi/linux/if.h): an altname is at most 127 bytes. */
#define SEL_TEXT_MAX 128
#define SEL_PATH_MAX 96

enum sel_kind {
	SEL_NAME, /* a name or altname */
	SEL_MAC,  /* the permanent address, IFLA_PERM_ADDRESS */
	SEL_PATH, /* the parent device, IFLA_PARENT_DEV_BUS_NAME "-" _NAME */
};

struct slave_selector {
	enum sel_kind kind;
	char text[SEL_TEXT_MAX]; /* as written */
	uint8_t mac[6];          /* SEL_MAC */
	char path[SEL_PATH_MAX]; /* SEL_PATH: the ID_PATH, without the port */
	unsigned port;           /* SEL_PATH: dev_port; 0 unless /portN */
};

/* Whether a and b name the same thing (a MAC in any case is one MAC). */
bool slave_selector_equal(const struct slave_selector *a, const struct slave_selector *b);

/*
 * The name bondd uses for the slave while no link answers to it: the name
 * itself for a name of at most 15 bytes; otherwise a word with ':' (which
 * no interface name may hold: net/core/dev.c dev_valid_name), made from
 * the selector so that it is the same in every run.
 */
void slave_selector_placeholder(const struct slave_selector *s, char out[IFNAMSIZ]);

/* Whether name is a placeholder (not a link's name). */
bool slave_selector_is_placeholder(const char *name);

/*
 * udev's ID_PATH for a device from its bus and name ("pci", "0000:3b:00.0"
 * -> "pci-0000:3b:00.0"; "platform", "uml-vector.1" ->
 * "platform-uml-vector.1"), into out; false when there is no parent.
 */
bool slave_selector_id_path(const char *bus, const char *dev, char *out, size_t len);

#endif
