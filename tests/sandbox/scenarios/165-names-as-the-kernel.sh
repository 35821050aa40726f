# SPDX-License-Identifier: MIT
# Interface names as the kernel judges them (net/core/dev.c dev_valid_name):
# for each name, the kernel creating a dummy device under it and
# `bondd --check` on a bond of that name must agree, apart from what bondd
# refuses on purpose ('%', brackets, control characters; see ifname.c) and
# '#', which starts a comment in bondd.conf(5).
# Bytes above 0x7f matter: the kernel's isspace (lib/ctype.c) counts 0xa0 as
# a blank, so "bà" (UTF-8 c3 a0) is refused while "bö" (c3 b6) is not.
. "$LIB_DIR/lib.sh"
. "$LIB_DIR/bondd-lib.sh"

names=(
	"b0" "abcdefghijklmno" "..." ".x" "b-1_2.3@4+5" "b=x" "b,x" "b;x" "b!x"
	$'b\xc3\xb6' $'b\xc3\xa0' $'b\xc2\xa0x' $'b\xa0' $'b\x85' $'b\xff' "b*x" "b?x"
	"b'x" 'b"x' 'b\x' "b~x" "b\$x" "b&x" "b|x" "b(x)" "b{x}" "b<x>"
)
agree=0
for name in "${names[@]}"; do
	kernel=ok
	ip link add "$name" type dummy 2>/dev/null || kernel=refused
	[[ $kernel == ok ]] && ip link del "$name"
	# As a bond and as a slave, in one file each.
	for role in bond slave; do
		if [[ $role == bond ]]; then
			printf '[%s]\nslaves = e1\n' "$name" >"$WORK/names.conf"
		else
			printf '[bond0]\nslaves = %s\n' "$name" >"$WORK/names.conf"
		fi
		bondd=ok
		"$BONDD" --check --config "$WORK/names.conf" >"$WORK/check.out" 2>&1 || bondd=refused
		shown=$(printf '%q' "$name")
		[[ $kernel == "$bondd" ]] ||
			{ cat "$WORK/check.out"; fail "$shown as a $role: the kernel says $kernel, bondd --check $bondd"; }
		agree=$((agree + 1))
	done
done
echo "measured: ${#names[@]} names, bondd --check and the kernel agree on all $agree verdicts"
