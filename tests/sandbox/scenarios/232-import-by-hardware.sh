# SPDX-License-Identifier: MIT
# bondd-import carries ports the source names by hardware: networkd's
# [Match] PermanentMACAddress= and Path=, netplan's match: macaddress with
# set-name.  Applied by bondd on NICs that have a permanent address and a
# parent device, under names that are not the ones the files give, the
# bonds get their ports in the files' order.
. "$LIB_DIR/lib.sh"
. "$LIB_DIR/bondd-lib.sh"
. "$LIB_DIR/vec-lib.sh"

: "${BONDD_IMPORT:=$BUILD_DIR/src/bondd-import}"
vec_take 1 x-one 2 x-two 3 x-three 4 x-four

mkdir "$WORK/nd" "$WORK/np"
printf '[NetDev]\nName=bond0\nKind=bond\n[Bond]\nMode=balance-rr\nMIIMonitorSec=100ms\n' \
	>"$WORK/nd/10-bond0.netdev"
# networkd enslaves as links come up; bondd keeps the files' order: 20-, 21-.
printf '[Match]\nName=ens3\nPermanentMACAddress=%s\n[Network]\nBond=bond0\n' "$(vec_perm 3)" \
	>"$WORK/nd/20-port-a.network"
printf '[Match]\nPath=platform-uml-vector.1\n[Network]\nBond=bond0\n' >"$WORK/nd/21-port-b.network"
printf '[Match]\nName=bond0\n[Link]\nMTUBytes=1500\n' >"$WORK/nd/30-bond0.network"
"$BONDD_IMPORT" networkd "$WORK/nd" >"$WORK/bondd.conf" 2>"$WORK/import.err" ||
	{ cat "$WORK/import.err"; fail "bondd-import networkd"; }
file_has "$WORK/bondd.conf" "slaves = mac:$(vec_perm 3) path:platform-uml-vector.1" ||
	{ cat "$WORK/bondd.conf"; fail "the networkd import"; }

cat >"$WORK/np/50-cloud-init.yaml" <<YAML
network:
  version: 2
  ethernets:
    nic4:
      match: {macaddress: "$(vec_perm 4)"}
      set-name: lan4
    nic2:
      match: {macaddress: "$(vec_perm 2)"}
      set-name: lan2
  bonds:
    bond1:
      interfaces: [nic4, nic2]
      mtu: 1500
      parameters: {mode: active-backup, mii-monitor-interval: 100}
YAML
mkdir "$WORK/bondd.conf.d"
"$BONDD_IMPORT" netplan "$WORK/np" >"$WORK/bondd.conf.d/50-netplan.conf" 2>"$WORK/import.err" ||
	{ cat "$WORK/import.err"; fail "bondd-import netplan"; }
file_has "$WORK/bondd.conf.d/50-netplan.conf" "slaves = mac:$(vec_perm 4) mac:$(vec_perm 2)" ||
	{ cat "$WORK/bondd.conf.d/50-netplan.conf"; fail "the netplan import"; }

"$BONDD" --check --config "$WORK/bondd.conf" >"$WORK/check.out" 2>&1 ||
	{ cat "$WORK/check.out"; fail "bondd --check refuses the imports"; }
start_bondd "$WORK/bondd.conf"
whole bond0 x-three,x-one 1500 >/dev/null
whole bond1 x-four,x-two 1500 >/dev/null
