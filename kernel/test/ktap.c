/*
 * KTAP runner for in-kernel self-tests (see <kernel/ktap.h>). Cases run
 * one at a time, from the init task, so the per-case state is global. A
 * failed case marks the boot as failed, and the power-off exit status says so.
 */
#define KPARAM_TEST	/* kunit_shutdown: test kernels only (<kernel/param.h>) */
#include <kernel/ktap.h>
#include <kernel/printk.h>
#include <kernel/sprintf.h>
#include <kernel/reboot.h>
#include <kernel/string.h>
#include <kernel/errno.h>
#include <kernel/param.h>
#include <kernel/shutdown.h>

/*
 * kunit_shutdown= (Linux's KUnit parameter): what to do once the suites
 * have run. A test boot then ends when its tests do, instead of idling
 * until a shutdown_secs= deadline chosen for the slowest host.
 */
static char kunit_shutdown[16];
KPARAM_STRING("kunit_shutdown", kunit_shutdown,
	      "after the in-kernel test suites: poweroff (halt and reboot power off too)");

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

struct ktap_totals {
	unsigned int pass, fail, skip;
};

/* One suite as subtest number n of the run, its counts added to *t. */
static void ktap_run_one(const struct ktap_suite *s, unsigned int n, struct ktap_totals *t)
{
	unsigned int pass = 0, fail = 0, skip = 0;

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
	printk(KERN_INFO "%s %u %s\n", fail ? "not ok" : "ok", n, s->name);
	t->pass += pass;
	t->fail += fail;
	t->skip += skip;
}

static int ktap_finish(const struct ktap_totals *t)
{
	printk(KERN_INFO "# Totals: pass:%u fail:%u skip:%u total:%u\n", t->pass, t->fail,
	       t->skip, t->pass + t->fail + t->skip);
	if (t->fail)
		kernel_note_test_failure();
	return t->fail;
}

/* After the boot's suites: power off if kunit_shutdown= asks for it. */
static void ktap_shutdown(void)
{
	if (!kunit_shutdown[0])
		return;
	if (!strcmp(kunit_shutdown, "poweroff")) {
		shutdown_request();
	} else if (!strcmp(kunit_shutdown, "halt") || !strcmp(kunit_shutdown, "reboot")) {
		/* A halted or rebooted test guest would only wait for the host's timeout. */
		pr_warn("ktap: kunit_shutdown=%s is not supported, using poweroff\n", kunit_shutdown);
		shutdown_request();
	} else {
		pr_warn("ktap: kunit_shutdown: invalid value '%s' (halt, poweroff or reboot), using (none)\n",
			kunit_shutdown);
	}
}

int ktap_run_suites(void)
{
	const struct ktap_suite *s;
	unsigned int nsuites = 0, n = 0;
	struct ktap_totals t = { 0 };
	int failed = 0;

	for (s = __start_ktap_suites; s < __stop_ktap_suites; s++)
		if (!s->enabled || *s->enabled)
			nsuites++;
	if (nsuites) {
		printk(KERN_INFO "KTAP version 1\n");
		printk(KERN_INFO "1..%u\n", nsuites);
		for (s = __start_ktap_suites; s < __stop_ktap_suites; s++)
			if (!s->enabled || *s->enabled)
				ktap_run_one(s, ++n, &t);
		failed = ktap_finish(&t);
	}
	ktap_shutdown();
	return failed;
}

int ktap_run_suite_named(const char *name)
{
	const struct ktap_suite *s;
	struct ktap_totals t = { 0 };

	for (s = __start_ktap_suites; s < __stop_ktap_suites; s++) {
		if (strcmp(s->name, name))
			continue;
		printk(KERN_INFO "KTAP version 1\n");
		printk(KERN_INFO "1..1\n");
		ktap_run_one(s, 1, &t);
		return ktap_finish(&t);
	}
	return -ENOENT;
}

void ktap_for_each_suite(void (*fn)(const char *name, unsigned int ncases))
{
	for (const struct ktap_suite *s = __start_ktap_suites; s < __stop_ktap_suites; s++)
		fn(s->name, s->ncases);
}
