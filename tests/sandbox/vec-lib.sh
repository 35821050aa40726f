# SPDX-License-Identifier: MIT
# shellcheck shell=bash
#
# NICs with a permanent MAC and a parent device, for scenarios of slaves
# named by mac: and path: (veth has neither).  In the UML guest run-sandbox
# boots with vec1..vec4 of UML's vector driver (uml-boot, BONDD_UML_VEC):
# vecI has the permanent address 02:00:00:00:aa:0I and the parent device
# platform uml-vector.I (ID_PATH platform-uml-vector.I).  They start in the
# guest's first network namespace; a scenario takes the ones it needs into
# its own, under names of its choosing.  When its namespace is deleted the
# kernel moves them back (net/core/dev.c default_device_exit_net), maybe
# under other names: they are found by their parent device, never by name.
# Where there are none (a native run, a kernel without the driver) the
# scenario skips.

VEC_ROOT=(nsenter --net=/proc/1/ns/net)

# vec_perm I: vecI's permanent address.
vec_perm() { printf '02:00:00:00:aa:0%s' "$1"; }

# vec_find I: the name vecI has in the guest's first namespace now; waits
# up to 10 s for it to come back from a namespace deleted before.
vec_find() {
	local i=$1 line t links
	for ((t = 0; t < 50; t++)); do
		# (No process substitution: the guest has no /dev/fd.)
		links=$("${VEC_ROOT[@]}" ip -d -o link show)
		while IFS= read -r line; do
			if [[ $line == *" parentdev uml-vector.$i "* || $line == *" parentdev uml-vector.$i" ]]; then
				line=${line#*: }
				printf '%s' "${line%%[:@]*}"
				return 0
			fi
		done <<<"$links"
		nap 0.2
	done
	return 1
}

# vec_take I NAME...: moves vecI (and further I NAME pairs) into this
# scenario's namespace, down, renamed NAME, without the altnames an earlier
# scenario gave it.  NAME must be free in both namespaces.
vec_take() {
	local i name dev k batch=""
	[[ -e /proc/1/ns/net ]] || skip "no guest namespace to take vector NICs from"
	while (($# >= 2)); do
		i=$1 name=$2
		shift 2
		dev=$(vec_find "$i") || skip "no vector NIC vec$i here (UML's vector driver; run-sandbox boots the guest with BONDD_UML_VEC=4)"
		batch="link set dev $dev down"$'\n'
		local -a words
		read -ra words <<<"$("${VEC_ROOT[@]}" ip -d -o link show dev "$dev")"
		for ((k = 0; k + 1 < ${#words[@]}; k++)); do
			[[ ${words[k]} != altname ]] ||
				batch+="link property del dev $dev altname ${words[k + 1]}"$'\n'
		done
		# Named before it arrives: a bondd running here may take it at
		# once (by mac: or path:), and an enslaved NIC cannot be
		# renamed.  NAME must not be another vector NIC's name now.
		batch+="link set dev $dev name $name"$'\n'"link set dev $name netns $SCENARIO_NS"$'\n'
		"${VEC_ROOT[@]}" ip -batch - <<<"$batch"
	done
}
