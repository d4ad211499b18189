/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Host tests of the record writer: JSON shape, escaping, CRC, oversize. */
#include <string.h>
#include <kfront/crc32.h>
#include <kfront/record.h>
#include "check.h"

static char captured[8192];
static size_t captured_len;

void console_write(const char *s, size_t len)
{
	if (captured_len + len < sizeof(captured)) {
		memcpy(captured + captured_len, s, len);
		captured_len += len;
		captured[captured_len] = '\0';
	}
}

static struct record rec;

static void test_line_format(void)
{
	const char *payload = "{\"t\":\"suite_end\",\"records\":2}";
	char line[256], expect[256];

	/* The CRC-32 check value of "123456789" is cbf43926. */
	CHECK_EQ_U64(crc32_update(0, "123456789", 9), 0xcbf43926);
	CHECK_EQ_U64(crc32_update(crc32_update(0, "1234", 4), "56789", 5),
		     0xcbf43926);
	/* Version 2: the CRC covers "7 123456789" (zlib.crc32 gives this). */
	rec_format_line(line, sizeof(line), 7, "123456789", 9);
	CHECK_STR(line, "#KF2 7 0876c12b 123456789\r\n");
	rec_format_line(line, sizeof(line), 8, payload, strlen(payload));
	snprintf(expect, sizeof(expect), "#KF2 8 %08x %s\r\n",
		 crc32_update(crc32_update(0, "8 ", 2), payload,
			      strlen(payload)), payload);
	CHECK_STR(line, expect);
}

static void test_nested_and_escaped(void)
{
	const char *p;

	captured_len = 0;
	rec_begin(&rec, "result");
	rec_str(&rec, "bench", "net.\"tcp\"\\rr\n");
	rec_obj_begin(&rec, "counters");
	rec_obj_begin(&rec, "tsc");
	rec_u64(&rec, "median", 18446744073709551615ULL);
	rec_obj_end(&rec);
	rec_obj_end(&rec);
	rec_arr_begin(&rec, "samples");
	rec_arr_u64(&rec, 1);
	rec_arr_u64(&rec, 2);
	rec_arr_end(&rec);
	rec_bool(&rec, "ok", true);
	rec_s64(&rec, "neg", -5);
	rec_arr_begin(&rec, "open");	/* left open: emit closes it */
	rec_arr_str(&rec, "x");
	rec_emit(&rec);
	p = strchr(captured, '{');
	CHECK(p != NULL);
	CHECK(strncmp(captured, "#KF2 0 ", 7) == 0);
	CHECK_STR(p, "{\"t\":\"result\",\"bench\":\"net.\\\"tcp\\\"\\\\rr\\u000a\","
		  "\"counters\":{\"tsc\":{\"median\":18446744073709551615}},"
		  "\"samples\":[1,2],\"ok\":true,\"neg\":-5,\"open\":[\"x\"]}\r\n");
	CHECK(rec_count() == 1);
	CHECK(rec_lost_count() == 0);
}

static void test_oversize_becomes_error(void)
{
	captured_len = 0;
	rec_begin(&rec, "result");
	rec_arr_begin(&rec, "samples");
	for (int i = 0; i < 2000; i++)
		rec_arr_u64(&rec, 123456789);
	rec_emit(&rec);
	CHECK(strstr(captured, "\"t\":\"error\"") != NULL);
	CHECK(strstr(captured, "record too long") != NULL);
	CHECK(strstr(captured, "\"record\":\"result\"") != NULL);
	CHECK(strncmp(captured, "#KF2 1 ", 7) == 0);
	/* counted, so the run cannot end with a clean status */
	CHECK(rec_lost_count() == 1);
}

int main(void)
{
	test_line_format();
	test_nested_and_escaped();
	test_oversize_becomes_error();
	return check_report("record");
}
