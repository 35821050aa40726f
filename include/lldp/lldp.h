/* SPDX-License-Identifier: MIT */
/*
 * LLDP (IEEE 802.1AB), receive side only: the parser of one frame as a
 * switch port sends it.  Frames come from the wire, so every length is
 * checked against what is left before it is read.  Pure: no I/O.
 * lldp_io.c feeds it the frames each slave receives; lldp_eval.h keeps
 * what it returns.
 */
#ifndef BONDD_LLDP_H
#define BONDD_LLDP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define LLDP_ETHERTYPE 0x88cc
/* An identifier or text of at most 255 bytes, each shown as itself when
 * printable ASCII, else as \xNN: at most 4 x 255 characters. */
#define LLDP_TEXT_SIZE (4 * 255 + 1)

/* TLV types of 802.1AB-2016 clause 8.4 used here. */
enum lldp_tlv {
	LLDP_TLV_END = 0,
	LLDP_TLV_CHASSIS_ID = 1,
	LLDP_TLV_PORT_ID = 2,
	LLDP_TLV_TTL = 3,
	LLDP_TLV_PORT_DESCR = 4,
	LLDP_TLV_SYS_NAME = 5,
	LLDP_TLV_ORG = 127,
};

/* What one LLDPDU says about the neighbour that sent it. */
struct lldp_neighbor {
	/* The frame's Ethernet source address, aa:bb:cc:dd:ee:ff: who sent
	 * it, as far as the wire tells (nothing in LLDP is authenticated;
	 * a switch sends from its port's own MAC). */
	char src_mac[18];
	uint8_t chassis_subtype;            /* 4: a MAC address */
	char chassis_id[LLDP_TEXT_SIZE];    /* aa:bb:cc:dd:ee:ff for a MAC */
	uint8_t port_subtype;               /* 3: a MAC address, 5: interface name */
	char port_id[LLDP_TEXT_SIZE];
	uint16_t ttl;                       /* seconds; 0: the neighbour leaves (shutdown) */
	char port_descr[LLDP_TEXT_SIZE];    /* "" when not sent */
	char sys_name[LLDP_TEXT_SIZE];      /* "" when not sent */
	bool has_pvid;                      /* IEEE 802.1 Port VLAN ID TLV */
	uint16_t pvid;
	bool has_max_frame;                 /* IEEE 802.3 Maximum Frame Size TLV */
	uint16_t max_frame;                 /* bytes, Ethernet header and FCS included */
};

/*
 * Parses an Ethernet frame (destination, source, EtherType, then the
 * LLDPDU) into *out.  0; -EPROTO when it is not LLDP (another EtherType,
 * a frame too short for a header); -EINVAL when it is a malformed LLDPDU
 * (a TLV past the frame, the mandatory Chassis ID, Port ID and TTL missing
 * or out of order, an identifier of a length the standard forbids, a
 * mandatory TLV repeated), with *why saying which.
 */
int lldp_parse_frame(const uint8_t *frame, size_t len, struct lldp_neighbor *out,
		     const char **why);

#endif
