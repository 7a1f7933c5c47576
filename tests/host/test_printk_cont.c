/*
 * Tests for printk's continuation lines (kernel/printk/printk_cont.c): a line a
 * caller builds in pieces reaches the console whole, with the timestamp of
 * its first piece, whatever other callers print meanwhile; a new message
 * ends the caller's open line; lines too long to hold degrade to the old
 * write-through; every slot taken ends the oldest line; flushing ends all.
 */
#include <kernel/printk_cont.h>
#include "test.h"

static char out[1 << 20];
static size_t out_len;

static void sink_write(const char *s, size_t len)
{
	if (out_len + len < sizeof(out)) {
		memcpy(out + out_len, s, len);
		out_len += len;
	}
	out[out_len] = 0;
}

static void sink_timestamp(u64 ns)
{
	char ts[32];
	int n = snprintf(ts, sizeof(ts), "[%llu] ", (unsigned long long)ns);

	sink_write(ts, n);
}

static const struct printk_sink sink = { .write = sink_write, .timestamp = sink_timestamp };

static void reset(void)
{
	printk_cont_flush_all(&sink);
	out_len = 0;
	out[0] = 0;
}

static void put(unsigned long caller, bool cont, const char *s, u64 ns)
{
	printk_cont_piece(&sink, caller, cont, s, strlen(s), ns);
}

static void interleaved_line_stays_whole(void)
{
	reset();
	put(1, false, "A: {", 10);
	put(2, false, "B whole\n", 11);
	put(1, true, " 1", 12);
	put(3, false, "C: ", 13);
	put(2, false, "B again\n", 14);
	put(1, true, " 2 }\n", 15);
	put(3, true, "done\n", 16);
	CHECK_STREQ(out, "[11] B whole\n[14] B again\n[10] A: { 1 2 }\n[13] C: done\n");
}

static void new_message_ends_open_line(void)
{
	reset();
	put(1, false, "first", 1);
	put(1, false, "second\n", 2);
	CHECK_STREQ(out, "[1] first\n[2] second\n");
	reset();
	put(7, true, "cont with nothing open\n", 3);
	CHECK_STREQ(out, "[3] cont with nothing open\n");
}

static void long_line_streams(void)
{
	char big[PRINTK_CONT_MAX + 1];

	reset();
	memset(big, 'x', PRINTK_CONT_MAX - 2);
	big[PRINTK_CONT_MAX - 2] = 0;
	put(1, false, "A", 1);
	put(1, true, big, 2);		/* PRINTK_CONT_MAX - 1 bytes held */
	CHECK_EQ(out_len, 0);
	put(1, true, "yz", 3);		/* overflows: out it goes, the line stays open */
	CHECK_EQ(out_len, strlen("[1] ") + PRINTK_CONT_MAX + 1);
	CHECK(out[out_len - 1] == 'z');
	put(1, true, "+", 4);		/* streamed straight on */
	put(2, false, "B\n", 5);	/* breaks it */
	put(1, true, "tail\n", 6);	/* goes on from a new stamped line */
	CHECK(strstr(out, "yz+\n[5] B\n[6] tail\n") != NULL);
	put(3, false, "C\n", 7);
	CHECK(strstr(out, "[6] tail\n[7] C\n") != NULL);
}

static void all_slots_taken_ends_oldest(void)
{
	char s[16];

	reset();
	for (int i = 1; i <= PRINTK_CONT_SLOTS; i++) {
		snprintf(s, sizeof(s), "L%d", i);
		put(i, false, s, i);
	}
	CHECK_EQ(out_len, 0);
	put(100, false, "new", 100);
	CHECK_STREQ(out, "[1] L1\n");
	put(1, true, " late\n", 101);	/* caller 1's line ended: this is a line of its own */
	CHECK_STREQ(out, "[1] L1\n[101]  late\n");
	put(101, false, "next", 102);	/* the oldest now is L2 */
	CHECK_STREQ(out, "[1] L1\n[101]  late\n[2] L2\n");
}

static void flush_ends_every_line_oldest_first(void)
{
	reset();
	put(5, false, "five", 50);
	put(4, false, "four", 40);
	put(6, false, "six:", 60);
	put(6, true, " more", 61);
	printk_cont_flush_all(&sink);
	CHECK_STREQ(out, "[50] five\n[40] four\n[60] six: more\n");
	out_len = 0;
	printk_cont_flush_all(&sink);
	CHECK_EQ(out_len, 0);
}

static int rnd(unsigned long *state, int n)
{
	return (int)(test_xorshift(state) % n);
}

/*
 * Random pieces from a few callers (never more than the slots, never a
 * line too long to hold): every console line is one caller's, and each
 * caller's lines come out in order, equal to what it printed.
 */
static void random_interleaving(void)
{
	enum { CALLERS = PRINTK_CONT_SLOTS, STEPS = 20000 };
	static char want[CALLERS][1 << 16], got[CALLERS][1 << 16];
	size_t wl[CALLERS] = { 0 }, gl[CALLERS] = { 0 }, linelen[CALLERS] = { 0 };
	unsigned long rng = 12345;
	int bad = 0;

	reset();
	for (int step = 0; step < STEPS; step++) {
		int c = rnd(&rng, CALLERS);
		char piece[8];
		int n = 1 + rnd(&rng, 5);
		bool end = rnd(&rng, 4) == 0 || linelen[c] + n + 1 >= 200;
		bool cont = linelen[c] > 0 && rnd(&rng, 8);

		if (wl[c] + 16 > sizeof(want[c]))
			continue;
		if (linelen[c] && !cont) {
			want[c][wl[c]++] = '\n';	/* a new message ends the open line */
			linelen[c] = 0;
		}
		for (int i = 0; i < n; i++)
			piece[i] = 'a' + c;
		if (end)
			piece[n++] = '\n';
		piece[n] = 0;
		memcpy(want[c] + wl[c], piece, n);
		wl[c] += n;
		linelen[c] = end ? 0 : linelen[c] + n;
		put(c + 1, cont, piece, step);
	}
	printk_cont_flush_all(&sink);
	for (int c = 0; c < CALLERS; c++)
		if (linelen[c])
			want[c][wl[c]++] = '\n';
	for (char *line = out; *line;) {
		char *nl = strchr(line, '\n'), *text = strstr(line, "] ");
		int c;

		if (!nl || !text || line[0] != '[' || text > nl) {
			bad = 1;
			break;
		}
		text += 2;
		c = *text - 'a';
		if (c < 0 || c >= CALLERS) {
			bad = 1;
			break;
		}
		for (char *p = text; p < nl; p++)
			bad |= *p != 'a' + c;
		memcpy(got[c] + gl[c], text, nl + 1 - text);
		gl[c] += nl + 1 - text;
		line = nl + 1;
	}
	CHECK(!bad);
	for (int c = 0; c < CALLERS; c++) {
		CHECK_EQ(gl[c], wl[c]);
		CHECK(gl[c] == wl[c] && !memcmp(got[c], want[c], wl[c]));
	}
}

static const struct test_case tests[] = {
	TEST_CASE(interleaved_line_stays_whole),
	TEST_CASE(new_message_ends_open_line),
	TEST_CASE(long_line_streams),
	TEST_CASE(all_slots_taken_ends_oldest),
	TEST_CASE(flush_ends_every_line_oldest_first),
	TEST_CASE(random_interleaving),
};

TEST_MAIN("test_printk_cont", tests)
