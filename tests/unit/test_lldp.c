/* SPDX-License-Identifier: MIT */
/* The LLDP frame parser (lldp.h): what a switch port says, and every way a
 * frame from the wire can be wrong. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "lldp.h"

struct frame {
	uint8_t b[2048];
	size_t n;
};

static void start(struct frame *f, uint16_t ethertype)
{
	static const uint8_t hdr[12] = {0x01, 0x80, 0xc2, 0x00, 0x00, 0x0e,
					0x02, 0x11, 0x22, 0x33, 0x44, 0x55};
	memcpy(f->b, hdr, 12);
	f->b[12] = (uint8_t)(ethertype >> 8);
	f->b[13] = (uint8_t)ethertype;
	f->n = 14;
}

static void tlv(struct frame *f, unsigned type, const void *v, size_t n)
{
	assert_true(f->n + 2 + n <= sizeof(f->b));
	f->b[f->n++] = (uint8_t)(type << 1 | (n >> 8 & 1));
	f->b[f->n++] = (uint8_t)n;
	if (n) /* an empty TLV's value may be NULL: memcpy's may not */
		memcpy(f->b + f->n, v, n);
	f->n += n;
}

/* The mandatory three: a MAC chassis, an interface-name port, the TTL. */
static void mandatory(struct frame *f, uint16_t ttl)
{
	const uint8_t chassis[7] = {4, 0x00, 0x1b, 0x21, 0xaa, 0xbb, 0xcc};
	const uint8_t port[8] = {5, 'G', 'i', '1', '/', '0', '/', '3'};
	const uint8_t t[2] = {(uint8_t)(ttl >> 8), (uint8_t)ttl};

	start(f, LLDP_ETHERTYPE);
	tlv(f, LLDP_TLV_CHASSIS_ID, chassis, sizeof(chassis));
	tlv(f, LLDP_TLV_PORT_ID, port, sizeof(port));
	tlv(f, LLDP_TLV_TTL, t, 2);
}

static void whole_frame(void **state)
{
	(void)state;
	struct frame f;
	struct lldp_neighbor n;
	const char *why = NULL;
	const uint8_t pvid[6] = {0x00, 0x80, 0xc2, 1, 0x01, 0xc2};       /* 450 */
	const uint8_t max_frame[6] = {0x00, 0x12, 0x0f, 4, 0x05, 0xee};  /* 1518 */
	const uint8_t unknown[3] = {1, 2, 3};

	mandatory(&f, 120);
	tlv(&f, LLDP_TLV_PORT_DESCR, "uplink to storage", 17);
	tlv(&f, LLDP_TLV_SYS_NAME, "sw1.example", 11);
	tlv(&f, 6, "Some switch OS", 14); /* System Description: not kept */
	tlv(&f, 9, unknown, sizeof(unknown)); /* a type of a later revision: skipped */
	tlv(&f, LLDP_TLV_ORG, pvid, sizeof(pvid));
	tlv(&f, LLDP_TLV_ORG, max_frame, sizeof(max_frame));
	tlv(&f, LLDP_TLV_END, NULL, 0);

	assert_int_equal(lldp_parse_frame(f.b, f.n, &n, &why), 0);
	assert_string_equal(n.src_mac, "02:11:22:33:44:55"); /* the frame's, not the chassis' */
	assert_int_equal(n.chassis_subtype, 4);
	assert_string_equal(n.chassis_id, "00:1b:21:aa:bb:cc");
	assert_int_equal(n.port_subtype, 5);
	assert_string_equal(n.port_id, "Gi1/0/3");
	assert_int_equal(n.ttl, 120);
	assert_string_equal(n.port_descr, "uplink to storage");
	assert_string_equal(n.sys_name, "sw1.example");
	assert_true(n.has_pvid);
	assert_int_equal(n.pvid, 450);
	assert_true(n.has_max_frame);
	assert_int_equal(n.max_frame, 1518);
}

/* The bare minimum, a shutdown (TTL 0), and one without End. */
static void minimal_and_shutdown(void **state)
{
	(void)state;
	struct frame f;
	struct lldp_neighbor n;

	mandatory(&f, 0);
	tlv(&f, LLDP_TLV_END, NULL, 0);
	assert_int_equal(lldp_parse_frame(f.b, f.n, &n, NULL), 0);
	assert_int_equal(n.ttl, 0);
	assert_string_equal(n.sys_name, "");
	assert_false(n.has_pvid);
	assert_false(n.has_max_frame);

	mandatory(&f, 30);
	assert_int_equal(lldp_parse_frame(f.b, f.n, &n, NULL), 0);
	assert_int_equal(n.ttl, 30);
}

/* Bytes that are not printable ASCII, and the backslash, come out escaped;
 * 255 of them fill the text exactly. */
static void hostile_text(void **state)
{
	(void)state;
	struct frame f;
	struct lldp_neighbor n;
	uint8_t name[255];
	const uint8_t port[4] = {7, 'a', '"', 0x00};

	mandatory(&f, 120);
	tlv(&f, LLDP_TLV_SYS_NAME, "sw\x01\\\xff", 5);
	assert_int_equal(lldp_parse_frame(f.b, f.n, &n, NULL), 0);
	assert_string_equal(n.sys_name, "sw\\x01\\x5c\\xff");

	memset(name, 0x80, sizeof(name));
	mandatory(&f, 120);
	tlv(&f, LLDP_TLV_PORT_DESCR, name, sizeof(name));
	assert_int_equal(lldp_parse_frame(f.b, f.n, &n, NULL), 0);
	assert_int_equal(strlen(n.port_descr), 4 * 255);

	/* A locally assigned port ID is text; a MAC subtype of another length too. */
	start(&f, LLDP_ETHERTYPE);
	const uint8_t chassis[4] = {4, 0xaa, 0xbb, 0xcc};
	tlv(&f, LLDP_TLV_CHASSIS_ID, chassis, sizeof(chassis));
	tlv(&f, LLDP_TLV_PORT_ID, port, sizeof(port));
	tlv(&f, LLDP_TLV_TTL, "\x00\x78", 2);
	assert_int_equal(lldp_parse_frame(f.b, f.n, &n, NULL), 0);
	assert_string_equal(n.chassis_id, "\\xaa\\xbb\\xcc");
	assert_string_equal(n.port_id, "a\"\\x00");
}

static void refused(void **state)
{
	(void)state;
	struct frame f;
	struct lldp_neighbor n;
	const char *why = NULL;

	/* Not LLDP. */
	start(&f, 0x0800);
	assert_int_equal(lldp_parse_frame(f.b, f.n, &n, &why), -EPROTO);
	assert_string_equal(why, "not an LLDP frame");
	assert_int_equal(lldp_parse_frame(f.b, 13, &n, &why), -EPROTO);

	/* A TLV longer than what is left. */
	mandatory(&f, 120);
	tlv(&f, LLDP_TLV_SYS_NAME, "sw1", 3);
	assert_int_equal(lldp_parse_frame(f.b, f.n - 1, &n, &why), -EINVAL);
	assert_string_equal(why, "a TLV runs past the end of the frame");

	/* Port ID first. */
	start(&f, LLDP_ETHERTYPE);
	tlv(&f, LLDP_TLV_PORT_ID, "\x05p1", 3);
	assert_int_equal(lldp_parse_frame(f.b, f.n, &n, &why), -EINVAL);
	assert_string_equal(why, "does not start with Chassis ID, Port ID and TTL in that order");

	/* End before the TTL; nothing after the header. */
	start(&f, LLDP_ETHERTYPE);
	tlv(&f, LLDP_TLV_CHASSIS_ID, "\x07x", 2);
	tlv(&f, LLDP_TLV_PORT_ID, "\x07y", 2);
	tlv(&f, LLDP_TLV_END, NULL, 0);
	assert_int_equal(lldp_parse_frame(f.b, f.n, &n, &why), -EINVAL);
	start(&f, LLDP_ETHERTYPE);
	assert_int_equal(lldp_parse_frame(f.b, f.n, &n, &why), -EINVAL);
	assert_string_equal(why, "ends before Chassis ID, Port ID and TTL");

	/* A Chassis ID with its subtype alone. */
	start(&f, LLDP_ETHERTYPE);
	tlv(&f, LLDP_TLV_CHASSIS_ID, "\x04", 1);
	assert_int_equal(lldp_parse_frame(f.b, f.n, &n, &why), -EINVAL);
	assert_string_equal(why, "a Chassis ID of 0 or over 255 bytes");

	/* A TTL of one byte; a second TTL. */
	start(&f, LLDP_ETHERTYPE);
	tlv(&f, LLDP_TLV_CHASSIS_ID, "\x07x", 2);
	tlv(&f, LLDP_TLV_PORT_ID, "\x07y", 2);
	tlv(&f, LLDP_TLV_TTL, "\x78", 1);
	assert_int_equal(lldp_parse_frame(f.b, f.n, &n, &why), -EINVAL);
	assert_string_equal(why, "a TTL shorter than 2 bytes");
	mandatory(&f, 120);
	tlv(&f, LLDP_TLV_TTL, "\x00\x01", 2);
	assert_int_equal(lldp_parse_frame(f.b, f.n, &n, &why), -EINVAL);
	assert_string_equal(why, "a mandatory TLV repeated");
}

/* Organizationally specific TLVs of the wrong length or another subtype
 * say nothing. */
static void org_tlvs_checked(void **state)
{
	(void)state;
	struct frame f;
	struct lldp_neighbor n;

	mandatory(&f, 120);
	tlv(&f, LLDP_TLV_ORG, "\x00\x80\xc2\x01\x01", 5);          /* PVID of 1 byte */
	tlv(&f, LLDP_TLV_ORG, "\x00\x12\x0f\x04\x05\xee\x00", 7);  /* max frame of 3 */
	tlv(&f, LLDP_TLV_ORG, "\x00\x80\xc2\x02\x00\x00\x07", 7);  /* another subtype */
	tlv(&f, LLDP_TLV_ORG, "\x00\x80", 2);                      /* no OUI */
	assert_int_equal(lldp_parse_frame(f.b, f.n, &n, NULL), 0);
	assert_false(n.has_pvid);
	assert_false(n.has_max_frame);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(whole_frame),
		cmocka_unit_test(minimal_and_shutdown),
		cmocka_unit_test(hostile_text),
		cmocka_unit_test(refused),
		cmocka_unit_test(org_tlvs_checked),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
