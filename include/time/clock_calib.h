/*
 * Calibrating a cycle counter (the TSC) against a reference counter of
 * known frequency (the PIT, the ACPI PM timer), with the reads done through
 * callbacks so that the logic is pure C: the architecture supplies the
 * counters (arch/x86_64/kernel/tsc.c) and the host tests a simulated one
 * whose reader stalls (tests/host/test_clock_calib.c).
 */
#ifndef _TIME_CLOCK_CALIB_H
#define _TIME_CLOCK_CALIB_H

#include <kernel/types.h>

struct clock_calib_ref {
	const char *name;	/* as Linux names it: "PIT", "PMTIMER" */
	u64 hz;			/* the reference's frequency */
	unsigned int bits;	/* its width: it wraps every 2^bits ticks */
	u64 (*read)(void);	/* its count, counting up, in [0, 2^bits) */
	u64 (*cycles)(void);	/* the counter being calibrated */
};

struct clock_calib_result {
	u64 khz;		/* the calibrated rate; 0 when no try was usable */
	u64 fallback_khz;	/* then the least disturbed try's rate (0: none) */
	unsigned int tries;	/* tries made */
	unsigned int used;	/* tries that passed the checks */
	unsigned int spread_ppm; /* widest deviation of a used try from khz */
};

/*
 * Measure ref->cycles against ref for windows of `window` reference ticks
 * (at most half of the wrap period), up to max_tries times; stops after
 * three usable tries and reports their median.
 */
void clock_calib(const struct clock_calib_ref *ref, u64 window, unsigned int max_tries,
		 struct clock_calib_result *res);

/* The counter's kHz if it counted cycles while a reference of hz counted ticks. */
u64 clock_calib_khz(u64 cycles, u64 ticks, u64 hz);

#endif
