# SPDX-License-Identifier: MIT
# Issue 12, kernel truth for ranges: every scalar bond option at its
# documented minimum and maximum and one beyond each, asked of the running
# kernel and of "bondd --check"; any disagreement fails.  The kernel is
# asked through sysfs, which goes through the same option table
# (drivers/net/bonding/bond_options.c bond_opt_parse) as netlink, and
# A value both refuse at a documented end fails too: the probe is broken.
# The delays are tried in steps of miimon (the kernel rounds other values,
# which bondd refuses: a rounded value would read back as drift for ever).
# "@LINE": a line the option needs only when it is not 0.
. "$LIB_DIR/lib.sh"
. "$LIB_DIR/bondd-lib.sh"

# key mode min max [config lines the option needs, ";"-separated]
OPTIONS="mode - 0 6
miimon balance-rr 0 2147483647
updelay balance-rr 0 2147483647 miimon = 100
downdelay balance-rr 0 2147483647 miimon = 100
peer_notif_delay balance-rr 0 300000 miimon = 100
use_carrier balance-rr 0 1
arp_interval active-backup 0 2147483647 @arp_ip_target = 10.0.0.1
arp_validate active-backup 0 6 arp_interval = 100;arp_ip_target = 10.0.0.1
arp_all_targets active-backup 0 1 arp_interval = 100;arp_ip_target = 10.0.0.1
arp_missed_max active-backup 1 255 arp_interval = 100;arp_ip_target = 10.0.0.1
primary_reselect active-backup 0 2
fail_over_mac active-backup 0 2
xmit_hash_policy balance-xor 0 5
resend_igmp balance-rr 0 255
num_grat_arp balance-rr 0 255
all_slaves_active balance-rr 0 1
min_links 802.3ad 0 2147483647
lp_interval balance-tlb 1 2147483647
packets_per_slave balance-rr 0 65535
lacp_active 802.3ad 0 1
lacp_rate 802.3ad 0 1
ad_select 802.3ad 0 3
ad_actor_sys_prio 802.3ad 1 65535
ad_user_port_key 802.3ad 0 1023
tlb_dynamic_lb balance-tlb 0 1"

# One bond per mode, down and without slaves: every option is accepted
# there if its value is.
modes="balance-rr active-backup balance-xor 802.3ad balance-tlb"
batch=""
for m in $modes; do batch+="link add k${m//[.-]/} type bond mode $m"$'\n'; done
ip -batch - <<<"$batch"
echo 100 >/sys/class/net/kbalancerr/bonding/miimon
echo 100 >/sys/class/net/kactivebackup/bonding/arp_interval
echo +10.0.0.1 >/sys/class/net/kactivebackup/bonding/arp_ip_target

# kernel KEY MODE VALUE: 0 if the kernel takes it (sysfs names missed_max
# arp_missed_max, as bondd's config does).
kernel() {
	local key=$1 mode=$2 v=$3 bond=kbalancerr
	if [[ $key == mode ]]; then
		ip link add kmode type bond 2>/dev/null
		{ echo "$v" >/sys/class/net/kmode/bonding/mode; } 2>/dev/null
		local rc=$?
		ip link del kmode
		return $rc
	fi
	[[ $mode == - ]] || bond=k${mode//[.-]/}
	{ echo "$v" >"/sys/class/net/$bond/bonding/$key"; } 2>/dev/null
}

conf=$WORK/ranges.conf
: >"$conf"
line=0 n=0
declare -a sec_line sec_what kern sec_want
while read -r key mode min max extra; do
	step=1
	[[ $extra == *"miimon = 100"* ]] && step=100
	top=$((max - max % step))
	values="$min $top $((top + step))"
	((min == 0)) || values+=" $((min - 1))"
	for v in $values; do
		want=""
		[[ $v == "$min" || $v == "$top" ]] && want=accepts
		n=$((n + 1))
		line=$((line + 1))
		sec_line[n]=$line
		sec_what[n]="$key = $v ($mode)"
		printf '[c%d]\n' "$n" >>"$conf"
		if [[ $mode != - ]]; then
			printf 'mode = %s\n' "$mode" >>"$conf"
			line=$((line + 1))
		fi
		if [[ -n $extra ]]; then
			IFS=';' read -ra lines <<<"$extra"
			for l in "${lines[@]}"; do
				if [[ $l == @* ]]; then
					[[ $v != 0 ]] || continue
					l=${l#@}
				fi
				printf '%s\n' "$l" >>"$conf"
				line=$((line + 1))
			done
		fi
		printf '%s = %s\n' "$key" "$v" >>"$conf"
		line=$((line + 1))
		if kernel "$key" "$mode" "$v"; then kern[n]=accepts; else kern[n]=refuses; fi
		sec_want[n]=$want
	done
done <<<"$OPTIONS"
sec_line[n + 1]=$((line + 1))

"$BONDD" --check --config "$conf" >"$WORK/check.out" 2>&1 || true
declare -a bondd_says by_version
for ((i = 1; i <= n; i++)); do bondd_says[i]=accepts; done
# This kernel as bondd --check names it in a kernel-range error ("needs
# Linux 6.18 or later; this is 6.12", "refused by Linux 6.18 and later;
# this is 7.2"): bondd saying this kernel refuses the value, which it may
# only say of a value that is not this kernel's.
IFS=. read -r kmajor kminor _ </proc/sys/kernel/osrelease
this_kernel="; this is $kmajor.$kminor"
while IFS= read -r msg; do
	[[ $msg =~ ^$conf:([0-9]+): ]] || continue
	at=${BASH_REMATCH[1]}
	# Other warnings (no monitor, no mtu) refuse nothing.
	[[ $msg == *": warning: "* ]] && continue
	for ((i = 1; i <= n; i++)); do
		if ((at >= sec_line[i] && at < sec_line[i + 1])); then
			bondd_says[i]=refuses
			# A value this kernel refuses is an error naming it (issue 35).
			[[ $msg != *"$this_kernel"* ]] || by_version[i]=1
			break
		fi
	done
done <"$WORK/check.out"
# A file with errors gets no kernel-range warnings (bondd checks the kernel
# only for a valid file): where the kernel refuses what bondd accepted, the
# section alone, in a file of its own.
for ((i = 1; i <= n; i++)); do
	[[ ${kern[i]} == refuses && ${bondd_says[i]} == accepts ]] || continue
	sed -n "${sec_line[i]},$((sec_line[i + 1] - 1))p" "$conf" >"$WORK/alone.conf"
	out=$("$BONDD" --check --config "$WORK/alone.conf" 2>&1) || true
	if [[ $out == *"$this_kernel"* ]]; then
		bondd_says[i]=refuses
		by_version[i]=1
		echo "on this kernel: ${sec_what[i]}: ${out##*: warning: \[c$i\]: }" | head -n 1
	fi
done

bad=0
for ((i = 1; i <= n; i++)); do
	if [[ ${kern[i]} != "${bondd_says[i]}" ]]; then
		echo "DISAGREE: ${sec_what[i]}: the kernel ${kern[i]} it, bondd --check ${bondd_says[i]} it"
		bad=$((bad + 1))
	elif [[ ${sec_want[i]} == accepts && ${kern[i]} != accepts && -z ${by_version[i]:-} ]]; then
		echo "BROKEN: ${sec_what[i]}: a documented value, refused by both"
		bad=$((bad + 1))
	fi
done
echo "measured: $n option values tried, $bad disagreements"
((bad == 0)) || { cat "$WORK/check.out"; fail "bondd --check and the kernel disagree on $bad values"; }
