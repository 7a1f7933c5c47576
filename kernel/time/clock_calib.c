/*
 * clock_calib(): how many cycles of a counter (the TSC) pass while a
 * reference of known frequency counts a window of ticks (see
 * <time/clock_calib.h>). Pure C, also built for the host tests.
 *
 * A vCPU the host deschedules keeps both counters running while it reads
 * neither, which does no harm to a measurement taken from its two ends,
 * with two exceptions that each try is checked for, as Linux's PIT
 * calibration discards a try an SMI disturbed:
 *  - an end read that was itself interrupted: every read of the reference
 *    is bracketed by two cycle reads; the ends are the tightest-bracketed
 *    reads near them, and a try whose ends are not known to within
 *    END_PPM of its length is dropped;
 *  - a wrap of the reference that went unseen between two reads, which
 *    adds whole periods the count does not show (a 16-bit PIT wraps every
 *    55 ms: the campaign of issue 29 saw "Detected 45968.159 MHz" for a
 *    2300 MHz TSC, two such tries agreeing). The reference is read without
 *    pause and the longest gap between two reads is kept. Had a gap hidden
 *    a wrap, it would have lasted at least one period P, so that
 *    gap / total >= P / (ticks + P), whatever the counter's rate; a try
 *    whose every gap is shorter than that hid none. This is exact, needs
 *    no guess of the rate, and passes stalls of up to about
 *    sqrt(P * window): ~20 ms for the PIT, ~0.5 s for the PM timer.
 * The result is the median of the first USED_TRIES good tries.
 */
#include <time/clock_calib.h>

#define START_READS	8	/* the start is the tightest of the first reads */
#define END_READS	8	/* ... and the end the tightest of the last */
#define USED_TRIES	3
#define END_PPM		500	/* Linux's fast PIT calibration also wants 500 ppm */

struct calib_try {
	u64 cycles;	/* between the two ends */
	u64 ticks;	/* reference ticks between them */
	u64 width;	/* of the two end brackets together */
	u64 maxgap;	/* longest time between two successive reads */
};

u64 clock_calib_khz(u64 cycles, u64 ticks, u64 hz)
{
	/* cycles * hz / ticks without the 128-bit division the kernel lacks. */
	return (cycles / ticks * hz + cycles % ticks * hz / ticks) / 1000;
}

static u64 try_khz(const struct clock_calib_ref *ref, const struct calib_try *t)
{
	return clock_calib_khz(t->cycles, t->ticks, ref->hz);
}

/* Did any gap last long enough to hide a wrap (see the top of the file)? */
static bool try_may_hide_wrap(const struct clock_calib_ref *ref, const struct calib_try *t)
{
	unsigned __int128 period = (unsigned __int128)1 << ref->bits;

	return (unsigned __int128)t->maxgap * (t->ticks + period) >= t->cycles * period;
}

static void calib_once(const struct clock_calib_ref *ref, u64 window, struct calib_try *t)
{
	u64 mask = ((u64)1 << ref->bits) - 1;
	u64 prev_a = 0, prev_c = 0, start_t = 0, start_w = ~0ULL, end_t = 0, end_w = ~0ULL;
	u64 ticks = 0, start_ticks = 0, end_ticks = 0;
	unsigned int i, after_window = 0;

	t->maxgap = 0;
	for (i = 0; after_window < END_READS; i++) {
		u64 a = ref->cycles(), c = ref->read(), b = ref->cycles();

		if (i) {
			/* The time in which a wrap could hide: previous read to this one. */
			if (b - prev_a > t->maxgap)
				t->maxgap = b - prev_a;
			ticks += (c - prev_c) & mask;
		}
		prev_a = a;
		prev_c = c;
		if (i < START_READS) {
			if (b - a < start_w) {
				start_w = b - a;
				start_t = a + (b - a) / 2;
				start_ticks = ticks;
			}
			continue;
		}
		if (ticks - start_ticks < window)
			continue;
		after_window++;
		if (b - a < end_w) {
			end_w = b - a;
			end_t = a + (b - a) / 2;
			end_ticks = ticks;
		}
	}
	t->cycles = end_t - start_t;
	t->ticks = end_ticks - start_ticks;
	t->width = start_w + end_w;
}

void clock_calib(const struct clock_calib_ref *ref, u64 window, unsigned int max_tries,
		 struct clock_calib_result *res)
{
	u64 khz[USED_TRIES], least = ~0ULL;
	unsigned int n = 0;

	res->khz = 0;
	res->fallback_khz = 0;
	for (res->tries = 0; res->tries < max_tries && n < USED_TRIES; res->tries++) {
		struct calib_try t;

		calib_once(ref, window, &t);
		if (!t.ticks || !t.cycles)
			continue;
		if (!try_may_hide_wrap(ref, &t) && t.width * 1000000 <= t.cycles * END_PPM) {
			khz[n++] = try_khz(ref, &t);
			continue;
		}
		/* The least disturbed try so far, for a caller with no better source. */
		if (t.maxgap * 1000 / t.cycles < least) {
			least = t.maxgap * 1000 / t.cycles;
			res->fallback_khz = try_khz(ref, &t);
		}
	}
	res->used = n;
	res->spread_ppm = 0;
	if (!n)
		return;
	/* Median of the good tries (n <= 3: sort by hand). */
	for (unsigned int i = 1; i < n; i++)
		for (unsigned int j = i; j && khz[j] < khz[j - 1]; j--) {
			u64 x = khz[j];

			khz[j] = khz[j - 1];
			khz[j - 1] = x;
		}
	res->khz = khz[n / 2];
	for (unsigned int i = 0; i < n; i++) {
		u64 d = khz[i] > res->khz ? khz[i] - res->khz : res->khz - khz[i];
		unsigned int ppm = (unsigned int)(d * 1000000 / res->khz);

		if (ppm > res->spread_ppm)
			res->spread_ppm = ppm;
	}
}
