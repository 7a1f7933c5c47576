/*
 * Continuation lines for printk: each caller's open line is held in a
 * slot until the caller ends it, then goes to the console whole
 * (include/kernel/printk_cont.h says what callers see). Pure logic with no
 * locking: printk calls it with the console held, tests/host directly.
 *
 * Why per caller: an expedited stall warning is one line built with
 * pr_cont() while the normal stall warning may be printed from another
 * CPU at the same moment; written through as it came, the one line was
 * split by the other's lines. Linux's printk keeps continuation records
 * per caller id for the same reason.
 */
#include <kernel/printk_cont.h>
#include <kernel/string.h>

struct cont_slot {
	unsigned long caller;	/* 0: free */
	u64 ts_ns;		/* when the line began */
	u64 age;		/* allocation order: the oldest goes when all are taken */
	size_t len;		/* bytes held in buf */
	bool streaming;		/* too long to hold: later pieces go out as they come */
	char buf[PRINTK_CONT_MAX];
};

static struct cont_slot slots[PRINTK_CONT_SLOTS];
static u64 slot_age;
/* The streaming caller whose line the console is in the middle of; 0: at a line start. */
static unsigned long console_open;

/* Before output that is not a continuation of caller's streamed line: end whatever line is open. */
static void console_break(const struct printk_sink *sink, unsigned long caller)
{
	if (console_open && console_open != caller) {
		sink->write("\n", 1);
		console_open = 0;
	}
}

void printk_cont_line_start(const struct printk_sink *sink)
{
	console_break(sink, 0);
}

static struct cont_slot *slot_find(unsigned long caller)
{
	for (int i = 0; i < PRINTK_CONT_SLOTS; i++)
		if (slots[i].caller == caller)
			return &slots[i];
	return NULL;
}

/* The oldest line held open, or NULL when there is none. */
static struct cont_slot *slot_oldest(void)
{
	struct cont_slot *oldest = NULL;

	for (int i = 0; i < PRINTK_CONT_SLOTS; i++)
		if (slots[i].caller && (!oldest || slots[i].age < oldest->age))
			oldest = &slots[i];
	return oldest;
}

/* What s holds goes out as the start of a line, stamped when the line began. */
static void slot_write_held(const struct printk_sink *sink, struct cont_slot *s)
{
	console_break(sink, 0);
	sink->timestamp(s->ts_ns);
	sink->write(s->buf, s->len);
}

/* End s's line: held text goes out with a '\n', a streamed line gets its '\n'. */
static void slot_close(const struct printk_sink *sink, struct cont_slot *s)
{
	if (!s->streaming) {
		slot_write_held(sink, s);
		sink->write("\n", 1);
	} else if (console_open == s->caller) {
		sink->write("\n", 1);
		console_open = 0;
	}
	s->caller = 0;
}

static struct cont_slot *slot_alloc(const struct printk_sink *sink, unsigned long caller,
				    u64 now_ns)
{
	struct cont_slot *s = slot_find(0);	/* a free slot */

	if (!s) {
		s = slot_oldest();
		slot_close(sink, s);	/* every slot taken: the oldest line ends early */
	}
	s->caller = caller;
	s->ts_ns = now_ns;
	s->age = ++slot_age;
	s->len = 0;
	s->streaming = false;
	return s;
}

void printk_cont_piece(const struct printk_sink *sink, unsigned long caller, bool cont,
		       const char *text, size_t len, u64 now_ns)
{
	bool complete = len && text[len - 1] == '\n';
	struct cont_slot *s = slot_find(caller);

	if (s && !cont) {
		slot_close(sink, s);	/* a new message ends the caller's open line */
		s = NULL;
	}
	if (!s) {
		if (complete) {
			console_break(sink, 0);
			sink->timestamp(now_ns);
			sink->write(text, len);
			return;
		}
		if (!len)
			return;
		s = slot_alloc(sink, caller, now_ns);
	}
	if (s->streaming) {
		if (console_open != caller) {
			/* Another caller's line broke this one: go on from a new line. */
			console_break(sink, caller);
			sink->timestamp(now_ns);
		}
		sink->write(text, len);
		console_open = complete ? 0 : caller;
		if (complete)
			s->caller = 0;
		return;
	}
	if (s->len + len <= PRINTK_CONT_MAX) {
		memcpy(s->buf + s->len, text, len);
		s->len += len;
		if (complete) {
			slot_write_held(sink, s);	/* ends with the '\n' */
			s->caller = 0;
		}
		return;
	}
	/* Too long to hold: out with what is held, then the rest as it comes. */
	slot_write_held(sink, s);
	sink->write(text, len);
	if (complete) {
		s->caller = 0;
	} else {
		s->streaming = true;
		s->len = 0;
		console_open = caller;
	}
}

void printk_cont_flush_all(const struct printk_sink *sink)
{
	struct cont_slot *s;

	while ((s = slot_oldest()))
		slot_close(sink, s);
	console_break(sink, 0);
}
