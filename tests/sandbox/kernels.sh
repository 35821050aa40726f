# SPDX-License-Identifier: MIT
# shellcheck shell=bash
#
# kernels.sh: which User-Mode Linux kernel the sandbox boots.  Sourced by
# run-sandbox and bench/run.
#
# BONDD_KERNEL names it:
#   6.1 (default)  Debian 12's user-mode-linux: /usr/bin/linux.uml and
#                  /usr/lib/uml/modules
#   6.12, newest   trixie's and sid's, fetched and made runnable by
#                  scripts/fetch-kernels into $BONDD_KERNEL_CACHE
#                  (/var/cache/bondd-kernels); fetched here when missing
#   PATH           a linux.uml of your own; its modules are taken from a
#                  directory "modules" beside it if there is one, else from
#                  /usr/lib/uml/modules
# BONDD_UML (an older name) still names the kernel file when BONDD_KERNEL is
# unset.
#
# resolve_kernel: sets BONDD_UML (the kernel file), BONDD_UML_MODULES (the
# directory holding <version>/kernel/...) and KERNEL_LABEL (what the
# results call it: "6.12.113 (user-mode-linux=6.12um1+b22 (trixie,
# tested))"), and returns 0; or sets KERNEL_PROBLEM and returns 1 (77 when
# the kernel could not be fetched because the archive is unreachable).

KERNELS_ROOT=$(cd "${BASH_SOURCE[0]%/*}/../.." && pwd)

resolve_kernel() {
	local name=${BONDD_KERNEL:-} cache=${BONDD_KERNEL_CACHE:-/var/cache/bondd-kernels} out rc dir
	KERNEL_PROBLEM=
	if [[ -z $name && -n ${BONDD_UML:-} ]]; then
		name=$BONDD_UML
	fi
	case ${name:-6.1} in
	6.1)
		BONDD_UML=/usr/bin/linux.uml
		BONDD_UML_MODULES=/usr/lib/uml/modules
		;;
	6.12 | newest)
		if [[ ! -x $cache/$name/linux.uml ]]; then
			rc=0
			out=$("$KERNELS_ROOT/scripts/fetch-kernels" "$name" 2>&1) || rc=$?
			printf '%s\n' "$out" >&2
			if ((rc != 0)); then
				KERNEL_PROBLEM="kernel $name could not be fetched: $(grep -m1 'SKIP\|fetch-kernels:' <<<"$out" || echo "status $rc")"
				return $((rc == 77 ? 77 : 1))
			fi
		fi
		BONDD_UML=$cache/$name/linux.uml
		BONDD_UML_MODULES=$cache/$name/modules
		;;
	/*)
		BONDD_UML=$name
		dir=${name%/*}
		BONDD_UML_MODULES=/usr/lib/uml/modules
		[[ -d $dir/modules ]] && BONDD_UML_MODULES=$dir/modules
		;;
	*)
		KERNEL_PROBLEM="BONDD_KERNEL must be 6.1, 6.12, newest or an absolute path, not '$name'"
		return 1
		;;
	esac
	if [[ ! -x $BONDD_UML ]]; then
		KERNEL_PROBLEM="no User-Mode Linux kernel at $BONDD_UML (Debian: apt-get install user-mode-linux)"
		return 1
	fi
	local version pkg=""
	version=$("$BONDD_UML" --version 2>/dev/null) || version="?"
	[[ -s ${BONDD_UML%/*}/package ]] && pkg=" ($(<"${BONDD_UML%/*}/package"))"
	[[ $BONDD_UML == /usr/bin/linux.uml ]] &&
		pkg=" (user-mode-linux=$(dpkg-query -W -f='${Version}' user-mode-linux 2>/dev/null || echo '?'))"
	KERNEL_VERSION=$version
	KERNEL_LABEL="$version$pkg"
	if [[ ! -d $BONDD_UML_MODULES/$version/kernel ]]; then
		KERNEL_PROBLEM="no modules for kernel $version under $BONDD_UML_MODULES"
		return 1
	fi
	export BONDD_UML BONDD_UML_MODULES
	return 0
}
