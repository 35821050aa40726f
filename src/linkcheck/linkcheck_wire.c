/* SPDX-License-Identifier: MIT */
/* The probe frame's encoder and its defensive parser (linkcheck_wire.h). */
#include "linkcheck_wire.h"

#include <string.h>

static const uint8_t magic[4] = {'B', 'D', 'L', 'C'};

enum {
	OFF_VERSION = 4, OFF_TYPE = 5, OFF_SIZE = 6, OFF_FLAGS = 7, OFF_PROBE = 8,
	OFF_HOST = 12, OFF_POS = 28, OFF_ZERO = 29, OFF_LENGTH = 30, OFF_BOND = 32,
	OFF_SLAVE = 48, OFF_TO_HOST = 64, OFF_TO_BOND = 80, OFF_TO_SLAVE = 96,
	OFF_TO_POS = 112, OFF_TO_END = 113, OFF_HOST_NAME = LC_HEADER_LEN,
};

const char *lc_size_name(enum lc_size s)
{
	switch (s) {
	case LC_SMALL: return "small";
	case LC_STANDARD: return "standard";
	case LC_FULL: return "full";
	case LC__SIZES: break;
	}
	return "?";
}

static bool host_name_char(unsigned char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       c == '-' || c == '_' || c == '.';
}

bool lc_host_name_valid(const char *s)
{
	size_t n = strnlen(s, LC_HOST_NAME_LEN);
	if (n == 0 || n == LC_HOST_NAME_LEN)
		return false;
	for (size_t i = 0; i < n; i++)
		if (!host_name_char((unsigned char)s[i]))
			return false;
	return true;
}

void lc_host_name_from(const char *hostname, char out[LC_HOST_NAME_LEN])
{
	size_t n = 0;
	for (const char *p = hostname; *p && *p != '.' && n + 1 < LC_HOST_NAME_LEN; p++)
		if (host_name_char((unsigned char)*p))
			out[n++] = *p;
	out[n] = '\0';
}

static void put_u32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)(v >> 24);
	p[1] = (uint8_t)(v >> 16);
	p[2] = (uint8_t)(v >> 8);
	p[3] = (uint8_t)v;
}

static uint32_t get_u32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

/* A name the kernel would accept as an interface name (dev_valid_name in
 * net/core/dev.c): 1-15 bytes, not "." or "..", no '/', ':' or space. */
static bool valid_name(const char *s)
{
	size_t n = strnlen(s, IFNAMSIZ);
	if (n == 0 || n == IFNAMSIZ || strcmp(s, ".") == 0 || strcmp(s, "..") == 0)
		return false;
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];
		if (c <= 0x20 || c >= 0x7f || c == '/' || c == ':')
			return false;
	}
	return true;
}

static int put_name(uint8_t *p, const char *name)
{
	if (!valid_name(name))
		return -1;
	memset(p, 0, IFNAMSIZ);
	memcpy(p, name, strlen(name));
	return 0;
}

/* Copies a 16-byte field that must hold a valid name and nothing after its
 * terminator (so that no two encodings mean the same frame). */
static bool get_name(const uint8_t *p, char *out)
{
	memcpy(out, p, IFNAMSIZ);
	if (!memchr(out, '\0', IFNAMSIZ))
		return false;
	size_t n = strlen(out);
	for (size_t i = n; i < IFNAMSIZ; i++)
		if (p[i])
			return false;
	return valid_name(out);
}

static bool all_zero(const uint8_t *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (p[i])
			return false;
	return true;
}

/* The length a size class has: the header alone, the standard payload, or
 * the bond's MTU (more than the header; it may be 1500 or less). */
static bool size_fits(unsigned size, size_t length)
{
	switch (size) {
	case LC_SMALL: return length == LC_HEADER_LEN;
	case LC_STANDARD: return length == LC_STANDARD_LEN;
	case LC_FULL: return length > LC_HEADER_LEN;
	}
	return false;
}

int lc_frame_encode(const struct lc_frame *f, uint8_t *buf, size_t len)
{
	if (f->length < LC_HEADER_LEN || f->length > len || f->from.pos == 0 ||
	    !size_fits((unsigned)f->size, f->length) ||
	    (unsigned)f->size >= LC__SIZES || (f->type != LC_REQUEST && f->type != LC_ANSWER))
		return -1;
	memset(buf, 0, f->length);
	memcpy(buf, magic, sizeof(magic));
	buf[OFF_VERSION] = LC_VERSION;
	buf[OFF_TYPE] = (uint8_t)f->type;
	buf[OFF_SIZE] = (uint8_t)f->size;
	if ((f->flags & LC_FLAG_PROBE_BACK) && (f->flags & LC_FLAG_ECHO))
		return -1;
	buf[OFF_FLAGS] = f->flags & (LC_FLAG_PROBE_BACK | LC_FLAG_ECHO);
	put_u32(buf + OFF_PROBE, f->probe_id);
	memcpy(buf + OFF_HOST, f->from.host, LC_HOST_ID_LEN);
	buf[OFF_POS] = f->from.pos;
	buf[OFF_LENGTH] = (uint8_t)(f->length >> 8);
	buf[OFF_LENGTH + 1] = (uint8_t)f->length;
	if (put_name(buf + OFF_BOND, f->from.bond) < 0 || put_name(buf + OFF_SLAVE, f->from.slave) < 0)
		return -1;
	if (f->from.host_name[0] && f->length >= LC_NAMED_LEN) {
		if (!lc_host_name_valid(f->from.host_name))
			return -1;
		memcpy(buf + OFF_HOST_NAME, f->from.host_name, strlen(f->from.host_name));
	}
	if (f->type == LC_ANSWER) {
		if (f->to.pos == 0)
			return -1;
		memcpy(buf + OFF_TO_HOST, f->to.host, LC_HOST_ID_LEN);
		if (put_name(buf + OFF_TO_BOND, f->to.bond) < 0 ||
		    put_name(buf + OFF_TO_SLAVE, f->to.slave) < 0)
			return -1;
		buf[OFF_TO_POS] = f->to.pos;
	}
	return f->length;
}

int lc_frame_decode(const uint8_t *buf, size_t len, struct lc_frame *f, const char **why)
{
	const char *ignored;
	if (!why)
		why = &ignored;
	memset(f, 0, sizeof(*f));
	if (len < LC_HEADER_LEN) {
		*why = "shorter than a probe header";
		return -1;
	}
	if (len > LC_MAX_LEN) {
		*why = "longer than any probe";
		return -1;
	}
	if (memcmp(buf, magic, sizeof(magic)) != 0) {
		*why = "not a bondd probe (magic)";
		return -1;
	}
	if (buf[OFF_VERSION] != LC_VERSION) {
		*why = "unknown probe version";
		return -1;
	}
	if (buf[OFF_TYPE] != LC_REQUEST && buf[OFF_TYPE] != LC_ANSWER) {
		*why = "unknown probe type";
		return -1;
	}
	if (buf[OFF_SIZE] >= LC__SIZES) {
		*why = "unknown size class";
		return -1;
	}
	if (buf[OFF_FLAGS] & ~(LC_FLAG_PROBE_BACK | LC_FLAG_ECHO) || buf[OFF_ZERO]) {
		*why = "reserved bits set";
		return -1;
	}
	if ((buf[OFF_FLAGS] & LC_FLAG_PROBE_BACK) && (buf[OFF_FLAGS] & LC_FLAG_ECHO)) {
		*why = "an echo that asks to be probed back";
		return -1;
	}
	uint16_t length = (uint16_t)(buf[OFF_LENGTH] << 8 | buf[OFF_LENGTH + 1]);
	if (length != len) {
		*why = "length field differs from the frame's length (cut or padded)";
		return -1;
	}
	if (!size_fits(buf[OFF_SIZE], length)) {
		*why = "a length that is not its size class's";
		return -1;
	}
	if (buf[OFF_POS] == 0) {
		*why = "slave position 0";
		return -1;
	}
	f->type = (enum lc_type)buf[OFF_TYPE];
	f->size = (enum lc_size)buf[OFF_SIZE];
	f->flags = buf[OFF_FLAGS];
	f->probe_id = get_u32(buf + OFF_PROBE);
	f->length = length;
	memcpy(f->from.host, buf + OFF_HOST, LC_HOST_ID_LEN);
	f->from.pos = buf[OFF_POS];
	if (!get_name(buf + OFF_BOND, f->from.bond) || !get_name(buf + OFF_SLAVE, f->from.slave)) {
		*why = "bad bond or slave name";
		return -1;
	}
	/* The host name: zero (none), or one name and zeros after it, so that
	 * no two encodings mean the same frame. */
	if (length >= LC_NAMED_LEN && !all_zero(buf + OFF_HOST_NAME, LC_HOST_NAME_LEN)) {
		char name[LC_HOST_NAME_LEN];
		memcpy(name, buf + OFF_HOST_NAME, LC_HOST_NAME_LEN);
		size_t n = strnlen(name, LC_HOST_NAME_LEN);
		if (n == LC_HOST_NAME_LEN || !all_zero(buf + OFF_HOST_NAME + n, LC_HOST_NAME_LEN - n) ||
		    !lc_host_name_valid(name)) {
			*why = "bad host name";
			return -1;
		}
		memcpy(f->from.host_name, name, LC_HOST_NAME_LEN);
	}
	if (f->type == LC_REQUEST) {
		if (!all_zero(buf + OFF_TO_HOST, LC_HEADER_LEN - OFF_TO_HOST)) {
			*why = "a request with answer fields";
			return -1;
		}
		return 0;
	}
	memcpy(f->to.host, buf + OFF_TO_HOST, LC_HOST_ID_LEN);
	f->to.pos = buf[OFF_TO_POS];
	if (!get_name(buf + OFF_TO_BOND, f->to.bond) || !get_name(buf + OFF_TO_SLAVE, f->to.slave) ||
	    f->to.pos == 0 || !all_zero(buf + OFF_TO_END, LC_HEADER_LEN - OFF_TO_END)) {
		*why = "bad answer fields";
		return -1;
	}
	return 0;
}
