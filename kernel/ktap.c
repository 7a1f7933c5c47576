/*
 * KTAP runner for in-kernel self-tests (see <kernel/ktap.h>). Cases run
 * one at a time, from the init task, so the per-case state is global. A
 * failed case marks the boot as failed, and the power-off exit status says so.
 */
#include <kernel/ktap.h>
#include <kernel/printk.h>
#include <kernel/sprintf.h>
#include <kernel/reboot.h>

extern const struct ktap_suite __start_ktap_suites[], __stop_ktap_suites[];

static struct {
	bool failed;
	const char *skip_reason;
} ktap_case_state;

bool __ktap_expect(bool ok, const char *cond, const char *file, int line)
{
	if (!ok) {
		ktap_case_state.failed = true;
		printk(KERN_ERR "        # %s:%d: EXPECTATION FAILED: %s\n", file, line, cond);
	}
	return ok;
}

void ktap_skip(const char *reason)
{
	ktap_case_state.skip_reason = reason;
}

void ktap_diag(const char *fmt, ...)
{
	char buf[256];
	va_list ap;

	va_start(ap, fmt);
	vscnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	printk(KERN_INFO "        # %s\n", buf);
}

int ktap_run_suites(void)
{
	const struct ktap_suite *s;
	unsigned int nsuites = 0, n = 0;
	unsigned int tpass = 0, tfail = 0, tskip = 0;

	for (s = __start_ktap_suites; s < __stop_ktap_suites; s++)
		if (!s->enabled || *s->enabled)
			nsuites++;
	if (!nsuites)
		return 0;
	printk(KERN_INFO "KTAP version 1\n");
	printk(KERN_INFO "1..%u\n", nsuites);
	for (s = __start_ktap_suites; s < __stop_ktap_suites; s++) {
		unsigned int pass = 0, fail = 0, skip = 0;

		if (s->enabled && !*s->enabled)
			continue;
		printk(KERN_INFO "    KTAP version 1\n");
		printk(KERN_INFO "    # Subtest: %s\n", s->name);
		printk(KERN_INFO "    1..%u\n", s->ncases);
		for (unsigned int i = 0; i < s->ncases; i++) {
			ktap_case_state.failed = false;
			ktap_case_state.skip_reason = NULL;
			s->cases[i].run();
			if (ktap_case_state.failed) {
				fail++;
				printk(KERN_INFO "    not ok %u %s\n", i + 1, s->cases[i].name);
			} else if (ktap_case_state.skip_reason) {
				skip++;
				printk(KERN_INFO "    ok %u %s # SKIP %s\n", i + 1, s->cases[i].name,
				       ktap_case_state.skip_reason);
			} else {
				pass++;
				printk(KERN_INFO "    ok %u %s\n", i + 1, s->cases[i].name);
			}
		}
		printk(KERN_INFO "# %s: pass:%u fail:%u skip:%u total:%u\n", s->name, pass, fail,
		       skip, s->ncases);
		printk(KERN_INFO "%s %u %s\n", fail ? "not ok" : "ok", ++n, s->name);
		tpass += pass;
		tfail += fail;
		tskip += skip;
	}
	printk(KERN_INFO "# Totals: pass:%u fail:%u skip:%u total:%u\n", tpass, tfail, tskip,
	       tpass + tfail + tskip);
	if (tfail)
		kernel_note_test_failure();
	return tfail;
}
