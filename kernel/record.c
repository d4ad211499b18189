/* SPDX-License-Identifier: GPL-2.0-or-later */
/* JSON record writer and the checksummed line format. */
#include <kfront/crc32.h>
#include <kfront/printk.h>
#include <kfront/record.h>
#include <kfront/string.h>

static u64 record_seq;
static u64 records_lost;	/* replaced by an error record: too long */

static void put_raw(struct record *r, const char *s, size_t n)
{
	if (r->len + n > RECORD_PAYLOAD_MAX) {
		r->overflow = true;
		return;
	}
	memcpy(r->buf + r->len, s, n);
	r->len += n;
	r->buf[r->len] = '\0';
}

static void put_c(struct record *r, char c)
{
	put_raw(r, &c, 1);
}

static void put_escaped(struct record *r, const char *s)
{
	put_c(r, '"');
	for (; s && *s; s++) {
		unsigned char c = (unsigned char)*s;
		char esc[8];

		if (c == '"' || c == '\\') {
			esc[0] = '\\';
			esc[1] = (char)c;
			put_raw(r, esc, 2);
		} else if (c < 0x20 || c >= 0x7f) {
			/* control and non-ASCII bytes: payloads stay ASCII */
			put_raw(r, esc, (size_t)snprintf(esc, sizeof(esc),
							 "\\u%04x", c));
		} else {
			put_c(r, (char)c);
		}
	}
	put_c(r, '"');
}

/* Comma between members, then "key": when inside an object. */
static void member(struct record *r, const char *key)
{
	if (!r->first[r->depth])
		put_c(r, ',');
	r->first[r->depth] = false;
	if (key) {
		put_escaped(r, key);
		put_c(r, ':');
	}
}

static void nest_open(struct record *r, const char *key, char c)
{
	member(r, key);
	put_c(r, c);
	if (r->depth + 1 < RECORD_MAX_DEPTH)
		r->depth++;
	else
		r->overflow = true;
	r->first[r->depth] = true;
	r->closer[r->depth] = c == '{' ? '}' : ']';
}

static void nest_close(struct record *r, char c)
{
	put_c(r, c);
	if (r->depth > 0)
		r->depth--;
}

void rec_begin(struct record *r, const char *type)
{
	r->type = type;
	r->len = 0;
	r->overflow = false;
	r->depth = 0;
	r->buf[0] = '\0';
	put_c(r, '{');
	r->first[0] = true;
	rec_str(r, "t", type);
}

void rec_str(struct record *r, const char *key, const char *val)
{
	member(r, key);
	put_escaped(r, val);
}

void rec_u64(struct record *r, const char *key, u64 val)
{
	char tmp[24];

	member(r, key);
	put_raw(r, tmp, (size_t)snprintf(tmp, sizeof(tmp), "%llu",
					 (unsigned long long)val));
}

void rec_s64(struct record *r, const char *key, s64 val)
{
	char tmp[24];

	member(r, key);
	put_raw(r, tmp, (size_t)snprintf(tmp, sizeof(tmp), "%lld",
					 (long long)val));
}

void rec_hex(struct record *r, const char *key, u64 val)
{
	char tmp[24];

	snprintf(tmp, sizeof(tmp), "0x%llx", (unsigned long long)val);
	rec_str(r, key, tmp);
}

void rec_bool(struct record *r, const char *key, bool val)
{
	member(r, key);
	put_raw(r, val ? "true" : "false", val ? 4 : 5);
}

void rec_ratio3(struct record *r, const char *key, u64 num, u64 den)
{
	char tmp[48];
	u64 whole, milli;

	if (!den) {
		member(r, key);
		put_raw(r, "null", 4);
		return;
	}
	whole = num / den;
	/* Rounded thousandths of the remainder. Without libgcc there is no
	 * 128-bit division: scale the remainder down when it could overflow
	 * (only for denominators above 2^53, far beyond any iteration count). */
	if (den < (1ULL << 53))
		milli = ((num % den) * 1000 + den / 2) / den;
	else
		milli = ((num % den) / 1024 * 1000 + den / 2048) / (den / 1024);
	if (milli == 1000) {
		whole++;
		milli = 0;
	}
	member(r, key);
	put_raw(r, tmp, (size_t)snprintf(tmp, sizeof(tmp), "%llu.%03llu",
					 (unsigned long long)whole,
					 (unsigned long long)milli));
}

void rec_obj_begin(struct record *r, const char *key)
{
	nest_open(r, key, '{');
}

void rec_obj_end(struct record *r)
{
	nest_close(r, '}');
}

void rec_arr_begin(struct record *r, const char *key)
{
	nest_open(r, key, '[');
}

void rec_arr_end(struct record *r)
{
	nest_close(r, ']');
}

void rec_arr_u64(struct record *r, u64 val)
{
	rec_u64(r, NULL, val);
}

void rec_arr_str(struct record *r, const char *val)
{
	rec_str(r, NULL, val);
}

/*
 * Format version 2: the CRC covers the sequence number's decimal text, one
 * space and the payload, so a damaged sequence number fails the check too.
 */
int rec_format_line(char *line, size_t len, u64 seq, const char *payload,
		    size_t plen)
{
	char seqtext[24];
	int sn = snprintf(seqtext, sizeof(seqtext), "%llu ",
			  (unsigned long long)seq);
	u32 crc = crc32_update(0, seqtext, (size_t)sn);

	crc = crc32_update(crc, payload, plen);
	return snprintf(line, len, "#KF2 %s%08x %.*s\r\n", seqtext, crc,
			(int)plen, payload);
}

u64 rec_emit(struct record *r)
{
	static char line[RECORD_PAYLOAD_MAX + 48];
	u64 seq = record_seq++;
	int n;

	while (r->depth > 0)
		nest_close(r, r->closer[r->depth]);
	put_c(r, '}');
	if (r->overflow) {
		const char *type = r->type;

		/* The run has lost data: its final status must say so. */
		records_lost++;
		rec_begin(r, "error");
		rec_str(r, "msg", "record too long for the serial format");
		rec_str(r, "record", type);
		rec_u64(r, "limit", RECORD_PAYLOAD_MAX);
		put_c(r, '}');
	}
	n = rec_format_line(line, sizeof(line), seq, r->buf, r->len);
	console_write(line, (size_t)n);
	return seq;
}

u64 rec_count(void)
{
	return record_seq;
}

u64 rec_lost_count(void)
{
	return records_lost;
}
