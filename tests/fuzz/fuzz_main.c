/* SPDX-License-Identifier: MIT */
/*
 * A driver for fuzz targets where libFuzzer is not available (gcc): runs
 * every corpus file, then ITERATIONS random mutations of them (fixed seed:
 * a failure reproduces).  Usage: fuzz_request [-n ITERATIONS] CORPUS_FILE...
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MAX_INPUT 4096

static uint64_t rng = 0x9e3779b97f4a7c15u;
static uint64_t next(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

static void mutate(uint8_t *buf, size_t *len)
{
	static const char *const tokens[] = {"proc", "json", "watch", " ", "\n", "\r", "..",
					     "/", "bond0", "version", "\t", "details actor lacp pdu:\n    x\n",
					     "Active Aggregator Info:\n\tAggregator ID: 1\n",
					     /* for fuzz_import: the formats' keys */
					     "=", "[Bond]\n", "Name=", "MASTER=bond0\nSLAVE=yes\n",
					     "type=bond\n", "BONDING_OPTS=\"mode=", "\"",
					     "{\"device\": \"t\", ", "\"ports\": {", "}", "[", "]"};
	for (int k = 1 + (int)(next() % 4); k > 0; k--) {
		switch (next() % 4) {
		case 0: /* flip a byte */
			if (*len)
				buf[next() % *len] = (uint8_t)next();
			break;
		case 1: /* insert a token */ {
			const char *t = tokens[next() % (sizeof(tokens) / sizeof(tokens[0]))];
			size_t tl = strlen(t), at = *len ? next() % (*len + 1) : 0;
			if (*len + tl > MAX_INPUT)
				break;
			memmove(buf + at + tl, buf + at, *len - at);
			memcpy(buf + at, t, tl);
			*len += tl;
			break;
		}
		case 2: /* cut */
			if (*len)
				*len = next() % *len;
			break;
		default: /* repeat a chunk */
			if (*len && *len * 2 <= MAX_INPUT) {
				memcpy(buf + *len, buf, *len);
				*len *= 2;
			}
			break;
		}
	}
}

int main(int argc, char **argv)
{
	long iterations = 100000;
	int c;
	static uint8_t corpus[64][MAX_INPUT];
	static size_t lens[64];
	size_t n = 0;

	while ((c = getopt(argc, argv, "n:")) != -1) {
		if (c != 'n')
			return 64;
		iterations = atol(optarg);
	}
	for (int i = optind; i < argc && n < 64; i++) {
		FILE *f = fopen(argv[i], "rb");
		if (!f) {
			perror(argv[i]);
			return 1;
		}
		lens[n] = fread(corpus[n], 1, MAX_INPUT, f);
		fclose(f);
		LLVMFuzzerTestOneInput(corpus[n], lens[n]);
		n++;
	}
	if (n == 0) {
		lens[0] = 0;
		n = 1;
	}
	uint8_t buf[MAX_INPUT * 2];
	for (long i = 0; i < iterations; i++) {
		size_t k = next() % n, len = lens[k];
		memcpy(buf, corpus[k], len);
		mutate(buf, &len);
		LLVMFuzzerTestOneInput(buf, len);
	}
	printf("%s: %zu corpus inputs and %ld mutations, no crash\n", argv[0], n, iterations);
	return 0;
}
