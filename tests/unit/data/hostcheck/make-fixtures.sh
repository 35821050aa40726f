#!/bin/sh
# SPDX-License-Identifier: MIT
# Rebuilds the host-check fixture trees: sysfs and procfs as a 6.1 kernel
# lays them out (class links into /sys/devices, device and driver links),
# with real relative symlinks.  git keeps the links; run this only to
# change them.  Usage: ./make-fixtures.sh (from this directory).
set -eu
cd "$(dirname "$0")"

# nic CASE IFNAME PARENT DEVICE DRIVER-BUS DRIVER SPEED DUPLEX
# PARENT is the path under sys/devices of the device's parent.
nic() {
	case=$1 ifname=$2 parent=$3 dev=$4 bus=$5 driver=$6 speed=$7 duplex=$8
	d=$case/sys/devices/$parent/$dev
	mkdir -p "$d/net/$ifname" "$case/sys/class/net" "$case/sys/bus/$bus/drivers/$driver"
	up=$(echo "$parent/$dev" | sed 's#[^/][^/]*#..#g')   # from $d to sys/devices
	ln -sfn "$up/../bus/$bus/drivers/$driver" "$d/driver"
	ln -sfn "../../../$dev" "$d/net/$ifname/device"
	ln -sfn "../../devices/$parent/$dev/net/$ifname" "$case/sys/class/net/$ifname"
	echo "$speed" >"$d/net/$ifname/speed"
	echo "$duplex" >"$d/net/$ifname/duplex"
}

# virtual CASE IFNAME: a veth, which has no device link
virtual() {
	mkdir -p "$1/sys/devices/virtual/net/$2" "$1/sys/class/net"
	ln -sfn "../../devices/virtual/net/$2" "$1/sys/class/net/$2"
	echo 10000 >"$1/sys/devices/virtual/net/$2/speed"
	echo full >"$1/sys/devices/virtual/net/$2/duplex"
}

# tcp CASE REORDERING RECOVERY SACK DSACK CC AVAILABLE
tcp() {
	p=$1/proc/sys/net/ipv4
	mkdir -p "$p"
	echo "$2" >"$p/tcp_reordering"
	echo 300 >"$p/tcp_max_reordering"
	echo "$3" >"$p/tcp_recovery"
	echo "$4" >"$p/tcp_sack"
	echo "$5" >"$p/tcp_dsack"
	echo 1 >"$p/tcp_timestamps"
	echo "$6" >"$p/tcp_congestion_control"
	echo "$7" >"$p/tcp_available_congestion_control"
}

rm -rf dual-port two-cards mixed-speeds
# One Intel X540-T2: two functions of one device behind a root port.
nic dual-port eth0 pci0000:00/0000:00:01.0 0000:03:00.0 pci ixgbe 10000 full
nic dual-port eth1 pci0000:00/0000:00:01.0 0000:03:00.1 pci ixgbe 10000 full
tcp dual-port 3 1 1 1 cubic "reno cubic"
# Two single-port cards, and a veth; the seeds' machine-wide tuning.
nic two-cards eth0 pci0000:00/0000:00:01.0 0000:03:00.0 pci ixgbe 10000 full
nic two-cards eth1 pci0000:00/0000:00:02.0 0000:04:00.0 pci ixgbe 10000 full
virtual two-cards veth0
tcp two-cards 127 1 1 1 bbr "reno cubic bbr"
# Mixed speeds and duplex, a link down (the driver prints -1, "unknown"),
# a virtio NIC (its device is virtio0 under a PCI function); loss
# detection that fights reordering.
nic mixed-speeds eth0 pci0000:00/0000:00:01.0 0000:03:00.0 pci ixgbe 10000 full
nic mixed-speeds eth1 pci0000:00/0000:00:02.0 0000:05:00.0 pci igb 1000 full
nic mixed-speeds eth2 pci0000:00/0000:00:03.0 0000:06:00.0 pci e1000e 1000 half
nic mixed-speeds eth3 pci0000:00/0000:00:1c.0 0000:07:00.0 pci igb -1 unknown
nic mixed-speeds eth4 pci0000:00/0000:00:04.0 virtio0 virtio virtio_net -1 unknown
tcp mixed-speeds 3 0 0 0 cubic "reno cubic"
