/* SPDX-License-Identifier: MIT */
/*
 * The LLDP frame parser (lldp.h).  IEEE 802.1AB-2016 clause 8: an LLDPDU
 * is a list of TLVs, each a 16-bit header (type in the top 7 bits, length
 * of the value in the low 9) and its value; Chassis ID, Port ID and TTL
 * come first, in that order, and End (type 0) closes the list.  Unknown
 * TLVs are skipped, as the standard asks of a receiver; known ones of a
 * wrong length are refused, the frame with them.
 */
#include "lldp.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#define ETH_HEADER 14
#define OUI_8021 0x0080c2u   /* IEEE 802.1 organizationally specific TLVs */
#define OUI_8023 0x00120fu   /* IEEE 802.3 */
#define SUB_8021_PVID 1      /* Port VLAN ID, 802.1Q-2014 annex D.2.1 */
#define SUB_8023_MAX_FRAME 4 /* Maximum Frame Size, 802.3-2018 clause 79.3.4 */
#define CHASSIS_MAC 4
#define PORT_MAC 3

/* The value v of n bytes as text: printable ASCII as itself, the rest
 * (and the backslash) as \xNN.  out holds LLDP_TEXT_SIZE. */
static void text(const uint8_t *v, size_t n, char *out)
{
	size_t o = 0;

	for (size_t i = 0; i < n && i < 255; i++) {
		if (v[i] >= 0x20 && v[i] < 0x7f && v[i] != '\\')
			out[o++] = (char)v[i];
		else
			o += (size_t)snprintf(out + o, LLDP_TEXT_SIZE - o, "\\x%02x", v[i]);
	}
	out[o] = '\0';
}

/* An identifier: subtype, then 1 to 255 bytes (clause 8.5.2 and 8.5.3);
 * a MAC subtype of exactly 6 bytes as aa:bb:cc:dd:ee:ff. */
static int id_value(const uint8_t *v, size_t n, uint8_t mac_subtype, uint8_t *subtype,
		    char *out)
{
	if (n < 2 || n > 256)
		return -EINVAL;
	*subtype = v[0];
	if (v[0] == mac_subtype && n == 7)
		snprintf(out, LLDP_TEXT_SIZE, "%02x:%02x:%02x:%02x:%02x:%02x", v[1], v[2], v[3],
			 v[4], v[5], v[6]);
	else
		text(v + 1, n - 1, out);
	return 0;
}

static void org_value(const uint8_t *v, size_t n, struct lldp_neighbor *out)
{
	if (n < 4)
		return;
	uint32_t oui = (uint32_t)v[0] << 16 | (uint32_t)v[1] << 8 | v[2];
	if (oui == OUI_8021 && v[3] == SUB_8021_PVID && n == 6) {
		out->has_pvid = true;
		out->pvid = (uint16_t)(v[4] << 8 | v[5]);
	} else if (oui == OUI_8023 && v[3] == SUB_8023_MAX_FRAME && n == 6) {
		out->has_max_frame = true;
		out->max_frame = (uint16_t)(v[4] << 8 | v[5]);
	}
}

int lldp_parse_frame(const uint8_t *frame, size_t len, struct lldp_neighbor *out,
		     const char **why)
{
	static const char *ignored;
	const char **w = why ? why : &ignored;
	size_t pos = ETH_HEADER;
	unsigned seen = 0; /* TLVs met so far, by order: 1 chassis, 2 port, 3 ttl */

	memset(out, 0, sizeof(*out));
	*w = "";
	if (len < ETH_HEADER || (frame[12] << 8 | frame[13]) != LLDP_ETHERTYPE) {
		*w = "not an LLDP frame";
		return -EPROTO;
	}
	snprintf(out->src_mac, sizeof(out->src_mac), "%02x:%02x:%02x:%02x:%02x:%02x", frame[6],
		 frame[7], frame[8], frame[9], frame[10], frame[11]);
	for (;;) {
		if (len - pos < 2) {
			*w = seen < 3 ? "ends before Chassis ID, Port ID and TTL" : "";
			/* A frame cut after the mandatory TLVs, without End:
			 * what it says is whole (8.4 asks for End, receivers
			 * in the field take it without). */
			return seen < 3 ? -EINVAL : 0;
		}
		unsigned type = frame[pos] >> 1;
		size_t n = (size_t)(frame[pos] & 1) << 8 | frame[pos + 1];
		pos += 2;
		if (n > len - pos) {
			*w = "a TLV runs past the end of the frame";
			return -EINVAL;
		}
		const uint8_t *v = frame + pos;
		pos += n;
		if (seen < 3 && type != seen + 1) {
			*w = "does not start with Chassis ID, Port ID and TTL in that order";
			return -EINVAL;
		}
		switch (type) {
		case LLDP_TLV_END:
			return 0;
		case LLDP_TLV_CHASSIS_ID:
		case LLDP_TLV_PORT_ID:
		case LLDP_TLV_TTL:
			if (seen >= 3) {
				*w = "a mandatory TLV repeated";
				return -EINVAL;
			}
			seen++;
			if (type == LLDP_TLV_TTL) {
				if (n < 2) {
					*w = "a TTL shorter than 2 bytes";
					return -EINVAL;
				}
				out->ttl = (uint16_t)(v[0] << 8 | v[1]);
			} else if (type == LLDP_TLV_CHASSIS_ID
					   ? id_value(v, n, CHASSIS_MAC, &out->chassis_subtype,
						      out->chassis_id)
					   : id_value(v, n, PORT_MAC, &out->port_subtype, out->port_id)) {
				*w = type == LLDP_TLV_CHASSIS_ID ? "a Chassis ID of 0 or over 255 bytes"
								 : "a Port ID of 0 or over 255 bytes";
				return -EINVAL;
			}
			break;
		case LLDP_TLV_PORT_DESCR:
			text(v, n, out->port_descr);
			break;
		case LLDP_TLV_SYS_NAME:
			text(v, n, out->sys_name);
			break;
		case LLDP_TLV_ORG:
			org_value(v, n, out);
			break;
		default:
			break; /* skipped: the standard's rule for a receiver */
		}
	}
}
