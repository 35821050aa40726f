/* SPDX-License-Identifier: MIT */
/*
 * Waiting for udev before touching a new link, as systemd-networkd does
 * (sd_device_get_is_initialized): at boot or after a driver reload a NIC
 * appears under its kernel name and udev renames it or applies its .link
 * settings afterwards; enslaving it first can take the wrong NIC, and
 * udev's rename then fails on an enslaved, up port.
 *
 * udev runs when <dir>/control exists (dir is /run/udev).  It has
 * initialized network link N once <dir>/data/n<N> holds a line "I:<usec>"
 * (systemd src/libsystemd/sd-device/device-private.c device_update_db
 * writes it, atomically by rename).  A configured slave udev has not
 * initialized is held (planned as absent) for at most UDEV_WAIT_MS; then
 * bondd acts anyway and logs why.  Without udev nothing waits.
 */
#ifndef BONDD_UDEV_WAIT_H
#define BONDD_UDEV_WAIT_H

#include <net/if.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "desired.h"
#include "observed.h"
#include "plan.h"

#define UDEV_WAIT_MS 5000
/* How often a held link's udev record is looked at again (nothing on
 * rtnetlink says udev is done). */
#define UDEV_POLL_MS 20

enum udev_link_state { UDEV_PENDING, UDEV_READY };

struct udev_link {
	char name[IFNAMSIZ];
	int ifindex;
	enum udev_link_state state;
	uint64_t since_ms;        /* first seen with this ifindex */
};

struct udev_wait {
	char dir[96];
	struct udev_link *v;
	size_t n, cap;
	size_t hint;              /* where the last lookup ended */
	char (*held)[PLAN_KEY_SIZE]; /* scratch: the holds handed to the planner */
	size_t cap_held;
	size_t n_pending;
};

void udev_wait_init(struct udev_wait *u, const char *dir);
void udev_wait_free(struct udev_wait *u);

/* True when the udev record text says the device is initialized. */
bool udev_record_initialized(const char *text);

/*
 * base plus every configured slave that exists and that udev has not yet
 * initialized (and has not been waited for UDEV_WAIT_MS).  The result
 * points into u and base; valid until the next call.
 */
struct plan_constraints udev_wait_holds(struct udev_wait *u, const struct desired *want,
				  const struct observed *obs, const struct plan_constraints *base,
				  uint64_t now_ms);

/* When to look again (monotonic ms), or 0 when nothing is waiting. */
uint64_t udev_wait_next_ms(const struct udev_wait *u, uint64_t now_ms);

#endif
