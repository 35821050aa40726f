/* SPDX-License-Identifier: MIT */
/* What a kernel error on one action means (apply_error.h). */
#include "apply_error.h"

#include <errno.h>

#include "plan.h"

struct apply_error apply_error_meaning(const struct action *a, int err)
{
	/* A device being deleted announces itself down first: ENODEV is the
	 * link gone, whatever the action. */
	if (err == -ENODEV)
		return (struct apply_error){.kind = APPLY_ERR_GONE, .stops_bond = true};

	struct apply_error e = {
		.kind = APPLY_ERR_RETRY,
		.stops_bond = plan_failure_stops_bond(a),
		.restore_up = a->kind == ACT_ENSLAVE,
	};
	/* drivers/net/bonding/bond_main.c bond_enslave: EBUSY when another
	 * rx_handler (macvlan, ipvlan) holds the link.  That upper may be in
	 * a namespace bondd cannot see; every retry would set the link down
	 * under it. */
	if (a->kind == ACT_ENSLAVE && err == -EBUSY)
		e.kind = APPLY_ERR_IN_USE;
	/* The option's value, or the bond created with it, is refused as
	 * invalid or out of range (bond_opt_check_range and bond_opt_parse in
	 * drivers/net/bonding/bond_options.c): the same on every retry. */
	else if ((a->kind == ACT_SET_OPTS || a->kind == ACT_CREATE_BOND) &&
		 (err == -EINVAL || err == -ERANGE))
		e.kind = APPLY_ERR_CONFIG;
	return e;
}
